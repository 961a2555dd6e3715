"""Limits the websocket endpoint enforces: frame size, frame rate, connections per room."""

from __future__ import annotations

from dataclasses import dataclass


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
    connections_per_room: int = 16
    hello_timeout_s: float = 10.0
    # Frames queued for a client that does not read; past this it is disconnected
    # rather than allowed to grow the server's memory.
    outbox_frames: int = 512


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

    def take(self, now: float) -> bool:
        """Spend one token if there is one; False means the caller is over its rate."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
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
