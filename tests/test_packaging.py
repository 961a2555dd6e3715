"""The wheel carries every file the server and client need: each tracked non-Python file
under server/ and client/ matches pyproject's package data (the vendored libraries'
licences too, which must ship beside them)."""

from __future__ import annotations

import fnmatch
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_shipped_file_matches_the_package_data() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = project["tool"]["setuptools"]["package-data"]["*"]
    tracked = subprocess.run(
        ["git", "ls-files", "server", "client"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    if not tracked:  # not a git checkout (an unpacked sdist): walk the tree instead
        tracked = [
            str(p.relative_to(ROOT))
            for d in ("server", "client")
            for p in (ROOT / d).rglob("*")
            if p.is_file()
        ]
    data = [path for path in tracked if not path.endswith((".py", ".pyi"))]
    assert any(path.endswith("LICENSE.txt") for path in data)
    left_out = [
        path for path in data if not any(fnmatch.fnmatch(Path(path).name, p) for p in patterns)
    ]
    assert not left_out, f"not in the wheel (pyproject package-data): {left_out}"
