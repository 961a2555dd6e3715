"""The modules setup.py compiles with mypyc stay clear of the three constructs mypyc gets
wrong (setup.py's docstring): each behaves in Python and fails only compiled, now and
then or only in some paths, so a plain test run would not see them."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def compiled_modules() -> list[str]:
    """The paths in setup.py's COMPILED list, read without running setup.py."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets
        ):
            return [ast.literal_eval(item) for item in node.value.elts]  # type: ignore[attr-defined]
    raise AssertionError("setup.py has no COMPILED list")


def awaits_in_finally(tree: ast.AST) -> Iterator[int]:
    """Lines of the awaits (await, async for, async with) inside `finally` blocks."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Try | ast.TryStar):
            for statement in node.finalbody:
                for inner in ast.walk(statement):
                    if isinstance(inner, ast.Await | ast.AsyncFor | ast.AsyncWith):
                        yield inner.lineno


def names_bound_twice_by_except(tree: ast.AST) -> Iterator[int]:
    """Lines of `except ... as name` clauses reusing a name an earlier clause of the same
    function bound."""
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        seen: set[str] = set()
        for node in ast.walk(function):
            if isinstance(node, ast.ExceptHandler) and node.name is not None:
                if node.name in seen:
                    yield node.lineno
                seen.add(node.name)


def attribute_write_hooks(tree: ast.AST) -> Iterator[int]:
    """Lines of the `__setattr__` methods classes define."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__setattr__":
                    yield item.lineno


def test_setup_py_lists_modules_that_exist() -> None:
    modules = compiled_modules()
    assert "server/web/ws.py" in modules
    assert all((ROOT / path).is_file() for path in modules)


@pytest.mark.parametrize("path", compiled_modules())
def test_no_compiled_module_awaits_inside_finally(path: str) -> None:
    # Compiled, a coroutine that awaits inside `finally` can raise, once the await
    # returns, an exception caught earlier (seen: a websocket handler raising the
    # writer's long-suppressed CancelledError, a traceback in the server's log).
    lines = list(awaits_in_finally(ast.parse((ROOT / path).read_text())))
    assert not lines, f"{path}: await inside finally at lines {lines}"


@pytest.mark.parametrize("path", compiled_modules())
def test_no_compiled_function_binds_one_name_in_two_except_clauses(path: str) -> None:
    # Compiled, the name takes the first clause's type and the second raises TypeError.
    lines = list(names_bound_twice_by_except(ast.parse((ROOT / path).read_text())))
    assert not lines, f"{path}: an except clause reuses a name at lines {lines}"


@pytest.mark.parametrize("path", compiled_modules())
def test_no_compiled_class_hooks_its_attribute_writes(path: str) -> None:
    # Compiled, a native class's attributes are written straight into the object by
    # compiled code, without its `__setattr__`: seats/seat.py's `Watched`, compiled once,
    # missed the room's own seat changes and a save kept a covered seat uncovered.
    lines = list(attribute_write_hooks(ast.parse((ROOT / path).read_text())))
    assert not lines, f"{path}: __setattr__ at lines {lines}"
