"""Usunoro: four seats pass one card each at once, then race for three tokens.

The rules engine lives in `engine`; the rule constants, the CPU reaction table `TIMING`
and the pure rule helpers in `rules`; what each seat sees in `views`.
"""

from __future__ import annotations

from server.games.usunoro.engine import Usunoro
from server.games.usunoro.rules import TIMING, is_matching, suggested_pass

GAME = Usunoro()

__all__ = ["GAME", "TIMING", "Usunoro", "is_matching", "suggested_pass"]
