"""Tests that need a tool the machine may lack (Chromium, nginx): skip or fail.

On a fresh machine the README's test command skips such tests with one line saying how
to get the tool. With the tool's `ZASHIKI_REQUIRE_*` variable set to 1 (`.ci/run` sets
them) a missing tool fails the run instead, so CI cannot pass by skipping.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterable
from typing import NoReturn

import pytest


def unavailable(reason: str, require_variable: str) -> NoReturn:
    """Skip with `reason`, or fail with it when `require_variable` is 1."""
    if os.environ.get(require_variable) == "1":
        pytest.fail(f"{reason} ({require_variable}=1 requires it)", pytrace=False)
    pytest.skip(reason)


class UnavailableModule(pytest.Module):
    """A test module whose tests cannot run here: collecting it skips (or fails) once."""

    reason = ""
    require_variable = ""

    def collect(self):  # type: ignore[no-untyped-def]
        """Skip the whole module with the tool's one-line reason, saying how many tests
        that leaves out (so "16 skipped" cannot hide a hundred tests)."""
        where = self.path.relative_to(self.config.rootpath)
        left_out = f"{where}: {self.tests_left_out()} not run"
        unavailable(f"{left_out}: {self.reason}", self.require_variable)

    def tests_left_out(self) -> str:
        """How many tests the module holds ("12 tests"), collected as usual; if it cannot
        even be imported here (the tool's Python package is missing too), its test
        functions counted instead."""
        try:
            return plural(count_items(pytest.Module.collect(self)), "test")
        except Exception:
            tree = ast.parse(self.path.read_text(encoding="utf-8"))
            functions = sum(
                isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                and node.name.startswith("test")
                for node in ast.walk(tree)
            )
            return plural(functions, "test function")


def plural(n: int, noun: str) -> str:
    """`1 test`, `2 tests`."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def count_items(nodes: Iterable[pytest.Item | pytest.Collector]) -> int:
    """The tests among `nodes`, counting into collectors (classes)."""
    return sum(
        1 if isinstance(node, pytest.Item) else count_items(node.collect()) for node in nodes
    )
