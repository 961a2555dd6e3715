"""Utsuke (RULINGS section 3): guess the Lord's tricks, then must-follow trick taking.

The engine lives in `engine.py`; card rules in `cards.py`, judging in `scoring.py`, and
the void-respecting deal for possible worlds in `deal.py`.
"""

from __future__ import annotations

from server.games.utsuke.engine import GAME, Utsuke, UtsukeState

__all__ = ["GAME", "Utsuke", "UtsukeState"]
