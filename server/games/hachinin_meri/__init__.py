"""Hachinin Meri, the eight-seat Unsun Karuta game (RULINGS section 2)."""

from __future__ import annotations

from server.games.hachinin_meri.game import GAME, HachininMeri

__all__ = ["GAME", "HachininMeri"]
