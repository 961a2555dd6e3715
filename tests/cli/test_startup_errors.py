"""`zashiki` started with a bad setting, as an operator would: a subprocess, its exit
status and its output. Each mistake is one line naming the setting and what is wrong,
exit status 2 (3 when the store does not answer), never a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import free_port
from tests.net.conftest import ROOT


def zashiki(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m server ARGS` from the tree under test, with only `env`'s ZASHIKI_*."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ZASHIKI_")}
    return subprocess.run(
        [sys.executable, "-m", "server", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_error_line(run: subprocess.CompletedProcess[str]) -> str:
    """The single line a refused start prints (on stderr, nothing on stdout)."""
    assert "Traceback" not in run.stderr + run.stdout, run.stderr
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    return lines[0]


BAD = [
    # (flags, environment, what the line must say)
    (["--port", "99999"], {}, "--port 99999: not a port number (1-65535)"),
    (["--port", "http"], {}, "--port http: not a whole number"),
    ([], {"ZASHIKI_PORT": "0"}, "ZASHIKI_PORT=0: not a port number"),
    (["--frame-rate", "fast"], {}, "--frame-rate fast: not RATE/BURST"),
    ([], {"ZASHIKI_FRAME_RATE": "20/0"}, "ZASHIKI_FRAME_RATE=20/0: not RATE/BURST"),
    (["--rate-limits", "rooms=lots"], {}, "--rate-limits rooms=lots: not KIND=PER_MINUTE"),
    (["--rate-limits", "tables=5/5"], {}, "kinds: lookups, rooms, seats"),
    (["--lease-ms=0"], {}, "--lease-ms 0: must be a whole number above 0"),
    ([], {"ZASHIKI_LEASE_MS": "3s"}, "ZASHIKI_LEASE_MS=3s: not a whole number"),
    ([], {"ZASHIKI_WS_PING_S": "abc"}, "ZASHIKI_WS_PING_S=abc: not a number of seconds"),
    (["--spectators-per-room", "-1"], {}, "--spectators-per-room -1: must be a whole number"),
    (["--log-level", "loud"], {}, "--log-level loud: must be one of debug, info, warning"),
    ([], {"ZASHIKI_LOG_FORMAT": "xml"}, "ZASHIKI_LOG_FORMAT=xml: must be one of text, json"),
    (["--redis-url", "127.0.0.1:6379"], {}, "--redis-url 127.0.0.1:6379: not a Redis URL"),
    (["--redis-url", "redis://db:port/0"], {}, "not a Redis URL"),
    (["--redis-url", "redis://db/zero"], {}, "the database after the address must be a number"),
]


@pytest.mark.parametrize(("flags", "env", "says"), BAD, ids=[" ".join(b[0]) or b[2] for b in BAD])
def test_a_bad_setting_is_one_line_and_exit_status_2(
    flags: list[str], env: dict[str, str], says: str
) -> None:
    run = zashiki("serve", *flags, **env)
    line = one_error_line(run)
    assert run.returncode == 2, line
    assert line.startswith("zashiki serve: ") and says in line


def test_an_unreachable_store_is_one_line_and_exit_status_3() -> None:
    url = f"redis://:hunter2@127.0.0.1:{free_port()}/0"
    run = zashiki("serve", ZASHIKI_REDIS_URL=url)
    line = one_error_line(run)
    assert run.returncode == 3, line
    assert re.match(r"zashiki serve: ZASHIKI_REDIS_URL=redis://\*\*\*@127\.0\.0\.1:\d+/0: ", line)
    assert "the store does not answer" in line and "hunter2" not in line


def test_an_unknown_flag_or_command_is_one_line_and_exit_status_2() -> None:
    for args in (["serve", "--prot", "8000"], ["serv"], []):
        run = zashiki(*args)
        line = one_error_line(run)
        assert run.returncode == 2, line
        assert line.startswith("zashiki: ") and line.endswith("(see zashiki --help)")


def test_a_bad_variable_does_not_break_other_commands_or_help() -> None:
    games = zashiki("games", ZASHIKI_WS_PING_S="abc", ZASHIKI_PORT="x")
    assert games.returncode == 0 and "usunoro" in games.stdout
    helped = zashiki("serve", "--help", ZASHIKI_WS_PING_S="abc")
    assert helped.returncode == 0


def test_help_describes_serve_with_every_default_and_variable() -> None:
    run = zashiki("serve", "--help")
    assert run.returncode == 0
    text = " ".join(run.stdout.split())
    for said in (
        "Ctrl-C or SIGTERM",
        "--port PORT port to listen on (default: 8000; $ZASHIKI_PORT)",
        "(default: 127.0.0.1; $ZASHIKI_HOST)",
        "(default: 30000; $ZASHIKI_LEASE_MS)",
        "(default: 20/40; $ZASHIKI_FRAME_RATE)",
        "(default: info; $ZASHIKI_LOG_LEVEL)",
        "(default: text; $ZASHIKI_LOG_FORMAT)",
    ):
        assert said in text, said


def test_version_prints_the_package_version() -> None:
    run = zashiki("--version")
    assert run.returncode == 0
    assert re.fullmatch(r"zashiki \d+\.\d+\.\d+\S*\n", run.stdout), run.stdout
