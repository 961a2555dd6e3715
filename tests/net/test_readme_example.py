"""The README's Python example, run as it is written against a real server: it plays
whole rounds (marks, exchanges, grabs only with four of a kind or in the race)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.net.conftest import ROOT, ServerProcess


def readme_example() -> str:
    """The first Python block under "Use it from Python"."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Use it from Python", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readme_example_plays_a_match_with_exchanges(
    server: ServerProcess, tmp_path: Path
) -> None:
    # As the README says: saved as example.py, run with the server's address. The
    # checkout is the working directory, so `client` imports from the tree under test.
    example = tmp_path / "example.py"
    example.write_text(readme_example(), encoding="utf-8")
    # A short match can end before any card is passed: a hand dealt four of a kind
    # is grabbed at once. So a match without exchanges is played again, up to three.
    for _ in range(3):
        run = subprocess.run(
            [sys.executable, str(example), server.url],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert run.returncode == 0, run.stderr
        found = re.search(r"^(\d+) exchanges; places \[([\d, ]+)\]$", run.stdout, re.M)
        assert found, run.stdout
        assert sorted(int(p) for p in found[2].split(","))[0] == 1
        if int(found[1]) > 0:
            return
    raise AssertionError("no card ever changed hands in three matches: no round was played")
