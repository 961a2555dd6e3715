"""The modules setup.py compiles type-check under mypy, as mypyc requires.

mypyc refuses to build a module mypy rejects, and CI's compiled step only builds after
the whole README suite has run; this test runs the same check (mypy over setup.py's
COMPILED list, with pyproject's [tool.mypy] config) in seconds, so a type slip fails
early with mypy's own messages.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from tests.test_compiled_traps import ROOT, compiled_modules


def test_compiled_modules_type_check() -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e '.[test]' brings it)")
    # A subprocess, as mypyc's build is: mypy's in-process state stays out of the suite.
    # Its cache (mypy's default .mypy_cache, which ignores itself in git) makes reruns fast.
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            *compiled_modules(),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        pytest.fail(
            "mypyc would refuse to build setup.py's COMPILED modules; mypy says:\n"
            + result.stdout
            + result.stderr,
            pytrace=False,
        )
