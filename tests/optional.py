"""Tests that need a tool the machine may lack (Chromium, nginx): skip or fail.

On a fresh machine the README's test command skips such tests with one line saying how
to get the tool. With the tool's `ZASHIKI_REQUIRE_*` variable set to 1 (`.ci/run` sets
them) a missing tool fails the run instead, so CI cannot pass by skipping.
"""

from __future__ import annotations

import os
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
        """Skip the whole module with the tool's one-line reason."""
        unavailable(self.reason, self.require_variable)
