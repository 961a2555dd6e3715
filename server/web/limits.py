"""Limits the websocket endpoint enforces: frame size, frame rate, connections per room."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limits:
    """The knobs, with defaults sized for card games (a move is a few dozen bytes).

    `max_frame` is checked by the endpoint and answered with a `too_large` error frame;
    the transport itself drops the connection only past `transport_max_frame`.
    """

    max_frame: int = 4096
    transport_max_frame: int = 64 * 1024
    frames_per_second: float = 20.0
    frame_burst: int = 40
    # Chat messages and reactions: 20 at once, then one a second.
    talk_per_second: float = 1.0
    talk_burst: int = 20
    # Hints (each runs the Hard CPU, up to a few hundred ms of the room's process): 3 at
    # once, then one every 3 seconds.
    hint_per_second: float = 1 / 3
    hint_burst: int = 3
    # Seat holders' connections and spectators' are capped apart, so spectators (who
    # need only the room code) can never keep a player out.
    connections_per_room: int = 32
    spectators_per_room: int = 16
    hello_timeout_s: float = 10.0
    # The transport's websocket keep-alive: a ping this often, and a client that has not
    # answered within as long again is closed with 1011 (a client that reads nothing).
    ping_interval_s: float = 20.0
    # Frames queued for a client that does not read; past this it is disconnected
    # rather than allowed to grow the server's memory.
    outbox_frames: int = 512
    # Per client address, each (per minute, burst): room creations, seats taken, and
    # lookups (room summaries, the public list, websocket connections); see `RATE_LIMITS`.
    rate_limits: dict[str, tuple[float, int]] | None = field(
        default_factory=lambda: dict(RATE_LIMITS)
    )


# The defaults: generous for people, slow for scripts (guessing a 30-bit room code at
# 5 lookups a second takes years; 30 rooms a minute keeps at most 150 in memory).
RATE_LIMITS: dict[str, tuple[float, int]] = {
    "rooms": (30.0, 10),
    "seats": (60.0, 20),
    "lookups": (300.0, 60),
}


def parse_rate_limits(text: str) -> dict[str, tuple[float, int]] | None:
    """`--rate-limits` / $ZASHIKI_RATE_LIMITS: "off", or "rooms=30/10,lookups=300/60"
    (per minute / burst; unnamed kinds keep their defaults).

    >>> parse_rate_limits("off") is None
    True
    >>> parse_rate_limits("rooms=6/2")["rooms"], parse_rate_limits("")["seats"]
    ((6.0, 2), (60.0, 20))
    >>> parse_rate_limits("rooms=lots")
    Traceback (most recent call last):
    ValueError: not KIND=PER_MINUTE/BURST,... or off (kinds: lookups, rooms, seats)
    """
    if text.strip().lower() == "off":
        return None
    limits = dict(RATE_LIMITS)
    for part in filter(None, (p.strip() for p in text.split(","))):
        kind, _, value = part.partition("=")
        rate_text, _, burst_text = value.partition("/")
        try:
            rate, burst = float(rate_text), int(burst_text or 1)
        except ValueError:
            rate, burst = 0.0, 0
        if kind not in RATE_LIMITS or not 0 < rate < float("inf") or burst < 1:
            kinds = ", ".join(sorted(RATE_LIMITS))
            raise ValueError(f"not KIND=PER_MINUTE/BURST,... or off (kinds: {kinds})")
        limits[kind] = (rate, burst)
    return limits


class TokenBucket:
    """A token bucket on a caller-supplied monotonic time (seconds).

    >>> bucket = TokenBucket(rate=1.0, burst=2, now=0.0)
    >>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)]
    [True, True, False, True]
    """

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def take(self, now: float, cost: float = 1.0) -> bool:
        """Spend `cost` tokens if there are as many; False (nothing spent) means the
        caller is over its rate."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


class RoomConnections:
    """Counts open websocket connections per room code, to cap them.

    >>> rc = RoomConnections(limit=1)
    >>> rc.enter("ABCD"), rc.enter("ABCD"), rc.leave("ABCD"), rc.enter("ABCD")
    (True, False, None, True)
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.counts: dict[str, int] = {}

    def enter(self, code: str) -> bool:
        """Count one more connection to `code`; False (and nothing counted) when full."""
        n = self.counts.get(code, 0)
        if n >= self.limit:
            return False
        self.counts[code] = n + 1
        return True

    def leave(self, code: str) -> None:
        """Forget one connection to `code`."""
        n = self.counts.get(code, 0) - 1
        if n > 0:
            self.counts[code] = n
        else:
            self.counts.pop(code, None)
