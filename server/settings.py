"""`zashiki serve`'s settings in one table: each one's flag, environment variable, default,
parser and help.

A value comes from the flag, else from the variable, else the default, and is parsed the
same way wherever it came from. A value that does not parse is a `SettingError` naming
where it came from (`--port 99999`, or `ZASHIKI_PORT=99999`) and what is wrong, which the
command prints as one line before exiting with status 2. To add a setting, add a row to
`SERVE` (and read it in `server/__main__.py`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from server.rooms.history.review_worker import NICE as REVIEW_NICE
from server.rooms.live import DAYS_UNLOAD_AFTER_MS, LEASE_MS
from server.store import topology
from server.web.limits import parse_rate_limits

LOG_LEVELS = ("debug", "info", "warning", "error")
LOG_FORMATS = ("text", "json")
PUSH_MODES = ("on", "off", "loopback")
# A value echoed in an error is cut here: an environment variable can hold anything.
SHOWN_MAX = 80


class SettingError(ValueError):
    """A setting's value that does not parse: `source` names the flag or variable and the
    value, `problem` what is wrong with it."""

    def __init__(self, source: str, problem: str) -> None:
        super().__init__(f"{source}: {problem}")
        self.source = source
        self.problem = problem


@dataclass(frozen=True)
class Setting:
    """One setting: `--flag`, `$env`, its default as text (None: unset, which `unset`
    explains in the help), its parser (which raises ValueError with a message saying what
    is wrong) and its help."""

    flag: str
    env: str
    default: str | None
    parse: Callable[[str], Any]
    help: str
    unset: str = "unset"

    @property
    def dest(self) -> str:
        """The attribute name argparse gives the flag."""
        return self.flag.lstrip("-").replace("-", "_")


# -- parsers: each raises ValueError whose message is the problem, for the one-line error --
def port(text: str) -> int:
    """A TCP port to listen on.

    >>> port("8000")
    8000
    >>> port("99999")
    Traceback (most recent call last):
    ValueError: not a port number (1-65535)
    """
    value = whole_number(text)
    if not 1 <= value <= 65535:
        raise ValueError("not a port number (1-65535)")
    return value


def whole_number(text: str) -> int:
    """A whole number (any sign)."""
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError("not a whole number") from None


def positive_int(text: str) -> int:
    """A whole number above zero.

    >>> positive_int("16")
    16
    >>> positive_int("0")
    Traceback (most recent call last):
    ValueError: must be a whole number above 0
    """
    value = whole_number(text)
    if value <= 0:
        raise ValueError("must be a whole number above 0")
    return value


def niceness(text: str) -> int:
    """A nice increment: 0 (the server's own priority) to 19 (the lowest).

    >>> niceness("10")
    10
    >>> niceness("20")
    Traceback (most recent call last):
    ValueError: must be a whole number from 0 to 19
    """
    value = whole_number(text)
    if not 0 <= value <= 19:
        raise ValueError("must be a whole number from 0 to 19")
    return value


def positive_seconds(text: str) -> float:
    """A number of seconds above zero.

    >>> positive_seconds("0.5")
    0.5
    >>> positive_seconds("abc")
    Traceback (most recent call last):
    ValueError: not a number of seconds above 0
    """
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise ValueError("not a number of seconds above 0")
    return value


def frame_rate(text: str) -> tuple[float, int]:
    """Frames a second and the burst: "20/40", or "20" (burst as the rate).

    >>> frame_rate("20/40"), frame_rate("5")
    ((20.0, 40), (5.0, 5))
    >>> frame_rate("fast")
    Traceback (most recent call last):
    ValueError: not RATE/BURST (frames a second above 0, a whole burst of 1 or more)
    """
    rate_text, _, burst_text = text.partition("/")
    try:
        rate = float(rate_text)
        burst = int(burst_text or round(rate))
    except ValueError:
        rate, burst = 0.0, 0
    if not (0 < rate < float("inf") and burst >= 1):
        raise ValueError("not RATE/BURST (frames a second above 0, a whole burst of 1 or more)")
    return rate, burst


def redis_url(text: str) -> str:
    """A Redis address: redis://, rediss://, unix://, redis+sentinel:// or
    redis+cluster:// (server/store/topology.py; "" keeps rooms in memory).

    >>> redis_url("redis://127.0.0.1:6379/0")
    'redis://127.0.0.1:6379/0'
    >>> redis_url("127.0.0.1:6379")
    Traceback (most recent call last):
    ValueError: not a Redis URL (redis://HOST:PORT/DB, rediss://... or unix:///PATH)
    """
    if not text:
        return text
    expected = "not a Redis URL (redis://HOST:PORT/DB, rediss://... or unix:///PATH)"
    if text.startswith(("redis+sentinel:", "redis+cluster:")):
        topology.parse(text)  # BadRedisUrl, a ValueError, says what is wrong
        return text
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (raises on a port that is not a number or out of range)
    except ValueError:
        raise ValueError(expected) from None
    if parts.scheme == "unix":
        if not parts.path:
            raise ValueError(expected)
    elif parts.scheme not in ("redis", "rediss") or not parts.hostname:
        raise ValueError(expected)
    db = parts.path.strip("/")
    if db and not db.isdigit():
        raise ValueError("the database after the address must be a number (redis://HOST:PORT/0)")
    return text


def push_contact(text: str) -> str:
    """The VAPID contact: a mailto: address or an https URL.

    >>> push_contact("mailto:ops@example.net")
    'mailto:ops@example.net'
    >>> push_contact("ops@example.net")
    Traceback (most recent call last):
    ValueError: not mailto:ADDRESS or https://...
    """
    value = text.strip()
    if value.startswith("mailto:") and "@" in value[7:]:
        return value
    if value.startswith("https://") and len(value) > 8:
        return value
    raise ValueError("not mailto:ADDRESS or https://...")


def one_of(choices: tuple[str, ...]) -> Callable[[str], str]:
    """A parser taking one of `choices` (any case)."""

    def parse(text: str) -> str:
        value = text.strip().lower()
        if value not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}")
        return value

    return parse


def text(value: str) -> str:
    """Any text, as given."""
    return value


SERVE: tuple[Setting, ...] = (
    Setting("--host", "ZASHIKI_HOST", "127.0.0.1", text, "address to listen on"),
    Setting("--port", "ZASHIKI_PORT", "8000", port, "port to listen on"),
    Setting(
        "--redis-url",
        "ZASHIKI_REDIS_URL",
        None,
        redis_url,
        "keep rooms in this Redis, e.g. redis://127.0.0.1:6379/0; a primary found by "
        "Sentinel: redis+sentinel://HOST:PORT[,HOST:PORT...]/SERVICE/DB (failovers "
        "followed); a Redis Cluster: redis+cluster://HOST:PORT[,HOST:PORT...]/ (any "
        "nodes, as seeds; rooms spread over its shards)",
        unset="unset: in process memory, rooms end with the process",
    ),
    Setting(
        "--durability",
        "ZASHIKI_DURABILITY",
        None,
        one_of(topology.DURABILITIES),
        "when a move is acknowledged: primary (once the Redis primary has it) or replica "
        "(once a replica has it too: no acknowledged move is lost when the primary is; "
        "a move waits up to 1 s for it, else it is refused and sent again)",
        unset="replica with redis+sentinel://, else primary",
    ),
    Setting(
        "--lease-ms",
        "ZASHIKI_LEASE_MS",
        str(LEASE_MS),
        positive_int,
        "how long a room's lease lasts unrenewed, so how soon another process takes over "
        "the rooms of one that died",
    ),
    Setting(
        "--days-room-idle-s",
        "ZASHIKI_DAYS_ROOM_IDLE_S",
        str(DAYS_UNLOAD_AFTER_MS // 1000),
        positive_seconds,
        "a days room (seat clocks counting wall time) with no client attached this long is "
        "saved and unloaded here; the due sweep loads it again when a seat's time runs "
        "out or a CPU must move",
    ),
    Setting(
        "--review-nice",
        "ZASHIKI_REVIEW_NICE",
        str(REVIEW_NICE),
        niceness,
        "how much lower than the server's the priority of the process that makes match "
        "reviews is (0 to 19): moves in every room come first; 0 gives reviews an equal "
        "share on a host busy with other work",
    ),
    Setting(
        "--node-id",
        "ZASHIKI_NODE_ID",
        None,
        text,
        "this process's name in room leases and on the bus; keep it across restarts (a "
        "restarted process then serves its rooms at once) and unique among running "
        "processes",
        unset="hostname:port",
    ),
    Setting(
        "--rate-limits",
        "ZASHIKI_RATE_LIMITS",
        "rooms=30/10,seats=60/20,lookups=300/60",
        parse_rate_limits,
        'per client address, per minute/burst ("off": none); kinds not named keep their defaults',
    ),
    Setting(
        "--frame-rate",
        "ZASHIKI_FRAME_RATE",
        "20/40",
        frame_rate,
        "websocket frames a second per connection, and the burst",
    ),
    Setting(
        "--ws-ping-s",
        "ZASHIKI_WS_PING_S",
        "20",
        positive_seconds,
        "websocket keep-alive: a ping this often; no pong within as long again closes the "
        "socket with 1011",
    ),
    Setting(
        "--spectators-per-room",
        "ZASHIKI_SPECTATORS_PER_ROOM",
        "16",
        positive_int,
        "spectator connections a room takes (seat holders are counted apart)",
    ),
    Setting(
        "--push",
        "ZASHIKI_PUSH",
        "on",
        one_of(PUSH_MODES),
        'Web Push "your move" notifications: on (to https push services), off, or '
        "loopback (tests only: also to http://127.0.0.1 stand-ins)",
    ),
    Setting(
        "--push-contact",
        "ZASHIKI_PUSH_CONTACT",
        "mailto:push@zashiki.invalid",
        push_contact,
        "who push services may write to about this server's pushes (VAPID sub): "
        "mailto:ADDRESS or an https URL; set a real one (some services refuse made-up ones)",
    ),
    Setting(
        "--push-gap-s",
        "ZASHIKI_PUSH_GAP_S",
        "180",
        positive_seconds,
        "the least time between two pushes to one seat of one room",
    ),
    Setting(
        "--log-level",
        "ZASHIKI_LOG_LEVEL",
        "info",
        one_of(LOG_LEVELS),
        f"the least severe log lines written: {', '.join(LOG_LEVELS)}",
    ),
    Setting(
        "--log-format",
        "ZASHIKI_LOG_FORMAT",
        "text",
        one_of(LOG_FORMATS),
        "log lines as text, or as JSON objects one a line (time, level, logger, message, "
        "and room, seat, node, event where they apply)",
    ),
    Setting(
        "--access-log",
        "ZASHIKI_ACCESS_LOG",
        "off",
        one_of(("on", "off")),
        "log every HTTP request and websocket connection (uvicorn's access lines)",
    ),
)


def add_arguments(parser: argparse.ArgumentParser, settings: tuple[Setting, ...]) -> None:
    """One flag per setting; its help says the default and the variable. The flags parse
    nothing themselves (None when absent), so `resolve` can say where a value came from."""
    for setting in settings:
        default = setting.unset if setting.default is None else setting.default
        parser.add_argument(
            setting.flag,
            default=None,
            metavar=setting.dest.upper(),
            help=f"{setting.help} (default: {default}; ${setting.env})",
        )


def resolve(
    settings: tuple[Setting, ...], args: argparse.Namespace, environ: Mapping[str, str]
) -> dict[str, Any]:
    """Every setting's parsed value by `dest`: the flag's, else the variable's, else the
    default's (None when it has none). Raises SettingError for the first that fails."""
    values: dict[str, Any] = {}
    for setting in settings:
        raw, source = given(setting, args, environ)
        if raw is None:
            values[setting.dest] = None
            continue
        try:
            values[setting.dest] = setting.parse(raw)
        except ValueError as exc:
            raise SettingError(source, str(exc)) from None
    return values


def given(
    setting: Setting, args: argparse.Namespace, environ: Mapping[str, str]
) -> tuple[str | None, str]:
    """A setting's raw value and where it came from, as an error line names it:
    `--port 99999`, `ZASHIKI_PORT=99999` or `--port (default 8000)`."""
    flag_value = getattr(args, setting.dest, None)
    if flag_value is not None:
        return flag_value, f"{setting.flag} {shown(flag_value)}"
    if setting.env in environ:
        return environ[setting.env], f"{setting.env}={shown(environ[setting.env])}"
    return setting.default, f"{setting.flag} (default {setting.default})"


def shown(value: str) -> str:
    """A value as an error line shows it: quoted when it has spaces or is empty, cut at
    SHOWN_MAX, with a password in a URL hidden.

    >>> shown("redis://:secret@db:6379/0"), shown("")
    ('redis://***@db:6379/0', "''")
    """
    if "://" in value and "@" in value:
        scheme, _, rest = value.partition("://")
        value = f"{scheme}://***@{rest.rpartition('@')[2]}"
    if len(value) > SHOWN_MAX:
        value = value[:SHOWN_MAX] + "…"
    return repr(value) if not value or any(c.isspace() for c in value) else value
