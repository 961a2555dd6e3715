"""The server's imports point down only, and no two modules import each other.

Layers, top first: the entry points (`server/*.py`: the command line, its settings),
web, rooms, bots, games, store, and under everything the log formatting
(`server/logs.py`, which imports nothing of the server). A module imports from its own
layer or one below, anywhere in the module (a function-level import counts too). Inside
the rooms layer the sub-packages keep their own order (each `__init__` says what it may
import): seats, then history and the actor, then the relay, then the manager's modules
directly in `server/rooms/`. And among the modules of `server/`, the imports at module
level (including those only for type checking) form no cycle.

Read from the source with `ast`, so a test breaks the moment someone adds such an
import, before anything runs it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SERVER = Path(__file__).resolve().parent.parent / "server"

LAYERS = {"store": 0, "games": 1, "bots": 2, "rooms": 3, "web": 4}
ENTRY = 5  # modules directly in server/, but for these, which every layer may use:
SHARED = {"server.logs": -1}
# What each rooms sub-package may import of the rooms layer besides itself.
ROOMS_ALLOWED = {
    "errors": set(),
    "seats": {"errors"},
    "history": {"errors", "seats"},
    "actor": {"errors", "seats"},
    "relay": {"errors", "seats", "actor"},
}


def module_name(path: Path) -> str:
    """`server/rooms/actor/room.py` -> `server.rooms.actor.room` (a package: its name)."""
    parts = list(path.relative_to(SERVER.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the server package, by name."""
    return {module_name(p): p for p in sorted(SERVER.rglob("*.py"))}


def imported(
    name: str, path: Path, known: dict[str, Path], top_level_only: bool
) -> Iterator[tuple[str, int]]:
    """The server modules `name` imports, with the line: `from a.b import c` names
    module a.b.c if there is one, else a.b. `top_level_only`: not inside a function."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def walk(node: ast.AST) -> Iterator[ast.AST]:
        for child in ast.iter_child_nodes(node):
            if top_level_only and isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            ):
                continue
            yield child
            yield from walk(child)

    for node in walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if target.split(".")[0] == "server" and target in known and target != name:
                yield target, node.lineno


def layer(name: str) -> int:
    """The layer of a module: its package under server/, or the entry points'."""
    if name in SHARED:
        return SHARED[name]
    parts = name.split(".")
    if len(parts) < 3:
        return LAYERS.get(parts[-1], ENTRY)
    return LAYERS[parts[1]]


def rooms_part(name: str) -> str | None:
    """The rooms sub-package (or `errors`) a module belongs to; None for the manager's
    modules directly in server/rooms/ (they may import any part)."""
    parts = name.split(".")
    if parts[:2] != ["server", "rooms"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in ROOMS_ALLOWED else None


def upward_imports(known: dict[str, Path]) -> list[str]:
    """Every import of a layer above, or of a rooms part not allowed, as `module:line ->
    target`."""
    wrong = []
    for name, path in known.items():
        for target, line in imported(name, path, known, top_level_only=False):
            bad = layer(target) > layer(name)
            part, target_part = rooms_part(name), rooms_part(target)
            both_rooms = layer(target) == layer(name) == LAYERS["rooms"]
            if both_rooms and part is not None and target_part != part:
                bad = target_part not in ROOMS_ALLOWED[part]
            if bad:
                wrong.append(f"{name}:{line} -> {target}")
    return wrong


def cycles(known: dict[str, Path]) -> list[list[str]]:
    """The import cycles among modules (at module level), each as the path round it."""
    graph = {
        name: sorted({t for t, _ in imported(name, path, known, top_level_only=True)})
        for name, path in known.items()
    }
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path.append(name)
        for target in graph[name]:
            if state.get(target) == 1:
                found.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target)
        path.pop()
        state[name] = 2

    for name in graph:
        if name not in state:
            visit(name)
    return found


def test_no_module_imports_a_layer_above_it() -> None:
    assert upward_imports(modules()) == []


def test_no_two_modules_import_each_other() -> None:
    assert cycles(modules()) == []


def test_the_checks_see_an_upward_import_and_a_cycle(tmp_path: Path) -> None:
    """The checks themselves catch what they are for, on a made-up tree."""
    fake = {
        "server.store.x": tmp_path / "x.py",
        "server.web.y": tmp_path / "y.py",
        "server.rooms.seats.a": tmp_path / "a.py",
        "server.rooms.actor.b": tmp_path / "b.py",
    }
    fake["server.store.x"].write_text("from server.web import y\n")
    fake["server.web.y"].write_text("import server.store.x\n")
    fake["server.rooms.seats.a"].write_text(
        "import typing\nif typing.TYPE_CHECKING:\n    from server.rooms.actor import b\n"
    )
    fake["server.rooms.actor.b"].write_text("def f():\n    from server.rooms.seats import a\n")
    assert sorted(upward_imports(fake)) == [
        "server.rooms.seats.a:3 -> server.rooms.actor.b",
        "server.store.x:1 -> server.web.y",
    ]
    assert cycles(fake) == [["server.store.x", "server.web.y", "server.store.x"]]
