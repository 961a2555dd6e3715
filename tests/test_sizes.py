"""Issue 42's limits on the rooms layer, so that it stays a house a newcomer reads in an
hour: no module under `server/rooms/` longer than MODULE_LINES lines and no class in one
longer than CLASS_LINES lines (a class counts from its `class` line to its last line).

Read from the source with `ast`. When this fails, move a coherent job out (a part object
the class holds, a module of its own), not lines squeezed together.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOMS = Path(__file__).resolve().parent.parent / "server" / "rooms"
MODULE_LINES = 450
CLASS_LINES = 300


def sources() -> list[Path]:
    """Every module of the rooms layer."""
    return sorted(ROOMS.rglob("*.py"))


def test_no_rooms_module_is_longer_than_the_limit() -> None:
    too_long = {
        str(path.relative_to(ROOMS.parent.parent)): lines
        for path in sources()
        if (lines := len(path.read_text().splitlines())) > MODULE_LINES
    }
    assert not too_long, (
        f"modules under server/rooms/ may have at most {MODULE_LINES} lines (issue 42); "
        f"these have more: {too_long}. Move a coherent job into a module of its own."
    )


def test_no_rooms_class_is_longer_than_the_limit() -> None:
    too_long = {}
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > CLASS_LINES:
                    too_long[f"{path.relative_to(ROOMS.parent.parent)}:{node.name}"] = lines
    assert not too_long, (
        f"classes under server/rooms/ may have at most {CLASS_LINES} lines (issue 42); "
        f"these have more: {too_long}. Move a coherent job out (a part the class holds)."
    )
