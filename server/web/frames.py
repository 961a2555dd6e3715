"""Websocket frames: checking what clients send, building what the server sends.

Every frame is one msgpack map with a type field `t` (see PROTOCOL.md). Parsing is pure
so it can be tested without a socket; nothing here touches the room.

>>> parse(encode({"t": "move", "seat": 1, "seq": 4, "action": {"type": "grab"}}), 4096)
{'t': 'move', 'seat': 1, 'seq': 4, 'action': {'type': 'grab'}}
>>> parse(b"\\xc1", 4096)
Traceback (most recent call last):
...
server.web.frames.FrameError: bad_frame: a frame must be one msgpack map
"""

from __future__ import annotations

from typing import Any, Final

from server.store import codec

# Error codes the endpoint itself produces (the room adds its own, e.g. illegal_action).
BAD_FRAME = "bad_frame"
TOO_LARGE = "too_large"
RATE_LIMITED = "rate_limited"
NOT_YOUR_SEAT = "not_your_seat"
BAD_TOKEN = "bad_token"
ROOM_NOT_FOUND = "room_not_found"
TOO_MANY_CONNECTIONS = "too_many_connections"
NOT_READY = "not_ready"
SPECTATOR = "spectator"


class Close:
    """Named websocket close codes (4000-4999 are ours; the rest are RFC 6455).

    Final: a class constant to mypyc too (setup.py's compiled build).
    """

    NORMAL: Final = 1000
    TOO_BIG: Final = 1009  # sent by the transport when a frame exceeds its hard cap
    SERVICE_RESTART: Final = 1012  # sent by uvicorn when the server shuts down
    TRY_AGAIN_LATER: Final = 1013  # the room cannot be served right now (e.g. run elsewhere)
    BAD_HELLO: Final = 4000
    BAD_TOKEN: Final = 4001
    NO_SPECTATORS: Final = 4003  # the host refuses spectators in this room
    ROOM_NOT_FOUND: Final = 4004
    HELLO_TIMEOUT: Final = 4008
    TOO_MANY_CONNECTIONS: Final = 4009
    ROOM_MOVED: Final = 4010  # the room stopped running on this process: reconnect
    TOO_SLOW: Final = 4011  # the client did not read its frames; reconnect to catch up


class FrameError(Exception):
    """A client frame refused before it reaches the room; nothing has changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


# Required fields per client frame type, with the Python type each must have.
_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hello": {"tokens": list},
    "move": {"seat": int, "seq": int, "action": dict},
    "shown": {},
    "visible": {"visible": bool},
    "pause": {},
    "resume": {},
    # A days room's vacation for one held seat (server/rooms/seats/timebank.py).
    "vacation": {"seat": int, "on": bool},
    "ping": {},
    # Table talk (server/rooms/seats/talk.py); the room checks the optional fields.
    "chat": {"text": str},
    "react": {"reaction": str},
    "mute": {"muted": bool},
    "deal_text": {"allowed": bool},
    # The Hard CPU's move for a held seat (server/rooms/actor/hints.py), this client only.
    "hint": {"seat": int},
    # Review together (server/rooms/actor/review_session.py); the room checks the values.
    "review_open": {"match": int},
    "review_step": {"step": int},
    "review_close": {},
}
# Frames that count against a connection's table-talk rate as well as its frame rate.
TALK_FRAMES = frozenset({"chat", "react"})
MAX_TOKENS = 2  # same-device play: one connection may hold two seats
# Move numbers are whole numbers below 2**53 (exact in JavaScript too); how far one may
# jump past the seat's last is the room's rule (`server.rooms.actor.core.MAX_SEQ_STEP`).
MAX_SEQ = 2**53
MAX_SEAT = 255
MAX_ACTION_DEPTH = 4  # a move map nests lists and maps at most this deep
MAX_MESSAGE = 200  # characters of an error message (it may quote what a client sent)


def parse(data: bytes | str, max_frame: int) -> dict[str, Any]:
    """Check one client frame and return it as a dict, or raise FrameError."""
    if isinstance(data, str):
        raise FrameError(BAD_FRAME, "text frames are not accepted: send binary msgpack")
    if len(data) > max_frame:
        raise FrameError(TOO_LARGE, f"frames are limited to {max_frame} bytes")
    try:
        frame = codec.unpack(data)
    except codec.DecodeError:
        raise FrameError(BAD_FRAME, "a frame must be one msgpack map") from None
    if not isinstance(frame, dict):
        raise FrameError(BAD_FRAME, "a frame must be one msgpack map")
    kind = frame.get("t")
    fields = _FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise FrameError(BAD_FRAME, f"unknown frame type; expected one of {sorted(_FIELDS)}")
    for name, want in fields.items():
        value = frame.get(name)
        # bool is an int in Python; a seat or seq of True is still malformed.
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise FrameError(BAD_FRAME, f"{kind}: field {name!r} must be {_name(want)}")
    if kind == "move":
        if not 0 <= frame["seq"] < MAX_SEQ:
            raise FrameError(BAD_FRAME, "move: seq must be a whole number from 0 to 2**53 - 1")
        if not 0 <= frame["seat"] <= MAX_SEAT:
            raise FrameError(BAD_FRAME, f"move: seat must be from 0 to {MAX_SEAT}")
        if not nested_at_most(frame["action"], MAX_ACTION_DEPTH):
            raise FrameError(BAD_FRAME, f"move: action nests more than {MAX_ACTION_DEPTH} deep")
    if kind == "hint" and not 0 <= frame["seat"] <= MAX_SEAT:
        raise FrameError(BAD_FRAME, f"hint: seat must be from 0 to {MAX_SEAT}")
    if kind == "shown" and "version" in frame:
        version = frame["version"]
        if type(version) is not int or version < 0:
            raise FrameError(BAD_FRAME, "shown: field 'version' must be a non-negative int")
    if kind == "hello":
        tokens = frame["tokens"]
        if len(tokens) > MAX_TOKENS or not all(isinstance(t, str) for t in tokens):
            raise FrameError(BAD_FRAME, f"hello: tokens must be at most {MAX_TOKENS} strings")
        if not isinstance(frame.get("patches", False), bool):
            raise FrameError(BAD_FRAME, "hello: field 'patches' must be bool")
    return frame


def nested_at_most(data: Any, depth: int) -> bool:
    """True if lists and maps in `data` nest at most `depth` deep (checked without
    recursion, so any depth is safe to check).

    >>> nested_at_most({"a": [1, {"b": []}]}, 4), nested_at_most([[[]]], 2)
    (True, False)
    """
    if type(data) is dict and depth >= 1:
        # The common move, a flat map of scalars, is answered without building a stack.
        for value in data.values():
            if isinstance(value, dict | list):
                break
        else:
            return True
    stack = [(data, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict | list):
            if level > depth:
                return False
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, level + 1) for item in items)
    return True


def bounded(message: str) -> str:
    """An error message cut to MAX_MESSAGE characters: never an unbounded echo.

    >>> len(bounded("x" * 5000)), bounded("short")
    (200, 'short')
    """
    if len(message) <= MAX_MESSAGE:
        return message
    return message[: MAX_MESSAGE - 1] + "…"


def _name(want: type | tuple[type, ...]) -> str:
    return want.__name__ if isinstance(want, type) else " or ".join(t.__name__ for t in want)


def encode(frame: dict[str, Any]) -> bytes:
    """One server frame as bytes."""
    return codec.pack(frame)


class ViewEncoder:
    """Packs view frames; the fields shared by one publish are packed once and spliced.

    A room delivers one publish's messages to its connections one after another, all
    holding the very same room, seats and events objects, which nothing changes after
    delivery (a patch message may have no seats: unchanged). The packed entries of the
    last such set are kept (with the objects, so their identities stay unique) and
    spliced into each message's frame.

    >>> encoder, room, seats = ViewEncoder(), {"code": "AB"}, [{"name": "a"}]
    >>> whole = {"t": "view", "room": room, "seats": seats, "events": [], "view": {}}
    >>> patch = {"t": "view", "room": room, "events": whole["events"], "patch": {"x": 1}}
    >>> [codec.unpack(encoder.encode(m)) == m for m in (whole, patch, whole)]
    [True, True, True]
    """

    def __init__(self) -> None:
        self._parts: tuple[Any, ...] = ()
        self._packed = b""

    def encode(self, message: dict[str, Any]) -> bytes:
        """The frame of one server message; equal to `encode(message)` once unpacked."""
        if message.get("t") != "view" or len(message) > codec.FIXMAP_MAX:
            return codec.pack(message)
        own = dict(message)
        room, seats, events = own.pop("room", None), own.pop("seats", None), own.pop("events", None)
        if room is None or events is None:  # not a room's view message: nothing to splice
            return codec.pack(message)
        cached = self._parts
        if not (cached and cached[0] is room and cached[1] is seats and cached[2] is events):
            self._parts = (room, seats, events)
            shared = {"room": room, "events": events}
            if seats is not None:
                shared["seats"] = seats
            self._packed = codec.pack_entries(shared)
        return codec.pack_map(own, self._packed, 2 if seats is None else 3)


encode_view = ViewEncoder().encode


def error(code: str, message: str, **context: Any) -> bytes:
    """An error frame; `context` carries e.g. the seat and seq of the refused move."""
    return codec.pack({"t": "error", "code": code, "message": bounded(message), **context})
