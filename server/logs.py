"""Log lines, as text or as JSON objects one a line, for our loggers and uvicorn's alike.

`config(level, fmt, node, access_log)` is a `logging.config.dictConfig` dictionary: one
handler on stderr, every logger (uvicorn's access and error loggers too) propagating to
it. uvicorn and the websockets library log each websocket's accept, "connection open"
and "connection closed" on uvicorn's error logger at INFO: those lines are access lines,
kept only with `access_log`. A line
carries the time (UTC), the level, the logger's name and the message, and, where the call
gave them as `extra`, the room code, the seat, the event; JSON lines carry the process's
node id as well. Callers never pass a seat token (only its holder may know it).

>>> import logging
>>> record = logging.LogRecord("zashiki.rooms", logging.INFO, "", 0, "room created", (),
...                            None)
>>> record.created, record.msecs, record.room, record.event = 0.0, 0.0, "K7QH2M", "created"
>>> TextFormatter().format(record)
'1970-01-01T00:00:00.000Z INFO zashiki.rooms room created room=K7QH2M event=created'
>>> record.node = "web-1"
>>> JsonFormatter().format(record)  # doctest: +NORMALIZE_WHITESPACE
'{"time": "1970-01-01T00:00:00.000Z", "level": "info", "logger": "zashiki.rooms",
  "message": "room created", "room": "K7QH2M", "node": "web-1", "event": "created"}'
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

# The context a line may carry, in this order, when the logging call gives it as `extra`.
CONTEXT = ("room", "seat", "node", "event")


def timestamp(record: logging.LogRecord) -> str:
    """The record's time as ISO 8601 UTC with milliseconds."""
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{seconds}.{int(record.msecs):03d}Z"


class TextFormatter(logging.Formatter):
    """`TIME LEVEL LOGGER MESSAGE room=… seat=… event=…`, a traceback on the lines after."""

    def format(self, record: logging.LogRecord) -> str:
        """One line (more only for an exception's traceback)."""
        context = " ".join(
            f"{key}={getattr(record, key)}"
            for key in CONTEXT
            if key != "node" and getattr(record, key, None) is not None
        )
        line = f"{timestamp(record)} {record.levelname} {record.name} {record.getMessage()}"
        if context:
            line += " " + context
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the context that applies,
    and `exception` (the traceback as one string) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        line: dict[str, Any] = {
            "time": timestamp(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in CONTEXT:
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class NodeFilter(logging.Filter):
    """Stamps every record with this process's node id (unless the call gave one)."""

    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def filter(self, record: logging.LogRecord) -> bool:
        """Add `node`; never drops a record."""
        if getattr(record, "node", None) is None:
            record.node = self.node
        return True


# The websockets library's own lines per connection (websockets.server / .protocol).
WEBSOCKET_LINES = frozenset({"connection open", "connection closed"})


class WebsocketAccessFilter(logging.Filter):
    """Drops uvicorn's line per websocket accepted or refused and the websockets
    library's "connection open" / "connection closed" (the access log is off).

    >>> keep = WebsocketAccessFilter().filter
    >>> line = lambda msg: logging.LogRecord("uvicorn.error", 20, "", 0, msg, (), None)
    >>> keep(line('%s - "WebSocket %s" [accepted]')), keep(line("connection closed"))
    (False, False)
    >>> keep(line("Started server process [%d]"))
    True
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """False for a websocket's access line."""
        msg = record.msg
        if not isinstance(msg, str):
            return True
        return not (msg.startswith('%s - "WebSocket %s"') or msg in WEBSOCKET_LINES)


def room_event(
    logger: logging.Logger,
    room: str,
    event: str,
    message: str,
    *args: object,
    seat: int | None = None,
) -> None:
    """Log one event of a room's life at INFO (created, started, over, closed, handed
    over, taken over, woken by the due sweep, covered, seat re-issued) with the room
    code, the event's name and the seat where there is one as context."""
    logger.info(message, *args, extra={"room": room, "event": event, "seat": seat})


LINE_MAX = 300


def one_line(what: object, limit: int = LINE_MAX) -> str:
    """`what` (an exception as "Type: message") on one line of at most `limit`
    characters, for a log line whose text comes from elsewhere (an exception's
    message, another process's output) and could hold line breaks or be of any size.

    >>> one_line(ValueError("bad\\nmove " + "x" * 400), 20)
    'ValueError: bad\\\\nmo…'
    """
    text = f"{type(what).__name__}: {what}" if isinstance(what, BaseException) else str(what)
    text = text.replace("\n", "\\n").replace("\r", "\\r")
    return text if len(text) <= limit else text[: limit - 1] + "…"


FORMATTERS: dict[str, type[logging.Formatter]] = {"text": TextFormatter, "json": JsonFormatter}


def config(level: str, fmt: str, node: str, access_log: bool = False) -> dict[str, Any]:
    """The dictConfig for `level` ("info", ...) and `fmt` ("text" or "json"); uvicorn is
    given it too, so its lines go through the same formatter. Without `access_log` the
    websockets' access lines are dropped (uvicorn drops its HTTP ones itself)."""
    propagate = {"handlers": [], "propagate": True}
    loggers: dict[str, Any] = {
        name: {**propagate, "level": level.upper()}
        for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
    }
    if not access_log:
        loggers["uvicorn.error"]["filters"] = ["websocket_access"]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "node": {"()": NodeFilter, "node": node},
            "websocket_access": {"()": WebsocketAccessFilter},
        },
        "formatters": {"line": {"()": FORMATTERS[fmt]}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "line",
                "filters": ["node"],
            }
        },
        "root": {"level": level.upper(), "handlers": ["stderr"]},
        "loggers": loggers,
    }
