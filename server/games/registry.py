"""Games by id. Every module in `server.games` that defines `GAME` is registered."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from server.games.contract import Game


@cache
def games() -> dict[str, Game]:
    """All registered games, by id, in id order."""
    import server.games as package

    found: dict[str, Game] = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"server.games.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            if game.id in found:
                raise RuntimeError(f"two games claim the id {game.id!r}")
            found[game.id] = game
    return dict(sorted(found.items()))


def get(game_id: str) -> Game:
    """The game with this id; KeyError if there is none."""
    return games()[game_id]
