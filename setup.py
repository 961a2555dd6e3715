"""Optional compiled build of the move path (mypyc); everything else is in pyproject.toml.

A plain `pip install .` installs pure Python. With ZASHIKI_COMPILE=1 the modules in
COMPILED (the rules, the room, its clock and its views, the frame codec, the websocket
endpoint and protocol, the group-committed saves and their Redis connection: most of the
Python a move runs) are compiled to C extensions by mypyc, which cuts the server's CPU per
move (docs/PERFORMANCE.md, "Where a move's CPU goes"). mypyc builds only what mypy
accepts, so tests/test_compiled_types.py runs mypy over COMPILED in the plain test run.
It needs mypy and a C compiler:

    pip install mypy setuptools
    ZASHIKI_COMPILE=1 pip install --no-build-isolation .
    ZASHIKI_COMPILE=1 python setup.py build_ext --inplace   # in a checkout, beside the .py

The compiled modules behave as the Python ones, but for one thing: mypyc checks the
type annotations at run time, so `.ci/run` runs the room and network tests against a
compiled copy too. Three traps, each guarded by tests/test_compiled_traps.py: a name
bound by two `except ... as` clauses takes the first clause's type, so the second
raises TypeError (give each clause its own name); after an `await` inside a
`finally` block, a coroutine can raise an exception caught earlier, even its own or
another coroutine's long handled (await after the `try` instead); and compiled code
writes a compiled class's attributes without its `__setattr__` (so seats/seat.py, whose
`Watched` counts writes that way, stays interpreted).
Built in place, a module's .so shadows its .py: delete them (`git clean -fX server`)
before changing the code.
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED = [
    "server/games/cards.py",
    "server/games/usunoro/engine.py",
    "server/games/usunoro/rules.py",
    "server/games/usunoro/views.py",
    "server/rooms/actor/alarm.py",
    "server/rooms/actor/answers.py",
    "server/rooms/actor/clients.py",
    "server/rooms/actor/clock.py",
    "server/rooms/actor/core.py",
    "server/rooms/actor/cpus.py",
    "server/rooms/actor/dumps.py",
    "server/rooms/actor/inbox.py",
    "server/rooms/actor/journal.py",
    "server/rooms/actor/play.py",
    "server/rooms/actor/presence.py",
    "server/rooms/actor/publishing.py",
    "server/rooms/actor/room.py",
    "server/rooms/actor/saving.py",
    "server/rooms/actor/seeds.py",
    "server/rooms/actor/state.py",
    "server/rooms/actor/view_messages.py",
    "server/rooms/seats/talk.py",
    "server/store/codec.py",
    "server/store/group_commit.py",
    "server/store/resp.py",
    "server/web/frames.py",
    "server/web/limits.py",
    "server/web/metrics.py",
    "server/web/ws.py",
    "server/web/ws_protocol.py",
]

ext_modules = []
if os.environ.get("ZASHIKI_COMPILE") == "1":
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        raise SystemExit(
            "ZASHIKI_COMPILE=1 needs mypy (pip install mypy) and, for pip, --no-build-isolation"
        ) from exc
    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules)
