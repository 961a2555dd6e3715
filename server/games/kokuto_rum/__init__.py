"""Kokuto Rum, the two-colour rummy: rules engine (`engine`), hand scoring (`scoring`),
match state (`state`) and seat views (`views`)."""

from __future__ import annotations

from server.games.kokuto_rum.engine import KokutoRum

GAME = KokutoRum()

__all__ = ["GAME", "KokutoRum"]
