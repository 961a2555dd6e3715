"""Shirokuro Jong: two-colour mahjong on the 30-card Shirokuro deck (RULINGS section 6).

Text forms, one short string each (from `server.games.shirokuro_deck`):

- a held card, upright end first: ``"W2/B5"`` is white 2 upright, ``"B5/W2"`` the same
  card held black 5 upright (hands, exposed melds, revealed hands);
- a card whose orientation does not matter, white end first: ``"W2/B5"`` (discards,
  the Dora indicator, the drawn card before it is inserted).

Moves refer to hand positions, so they never need a card's text:
``{"type": "rotate", "flip": bool}``, ``{"type": "insert", "index": i, "up": "W"|"B"}``,
``{"type": "discard", "index": i}``, ``{"type": "tsumo"}``, and in a claim window
``{"type": "pass"}``, ``{"type": "ron"}``, ``{"type": "pon", "index": i}`` or
``{"type": "chii", "index": i}`` (the pair at i, i+1), then ``{"type": "next"}``
between rounds.
"""

from __future__ import annotations

from server.games.shirokuro_jong.engine import ShirokuroJong

GAME = ShirokuroJong()
