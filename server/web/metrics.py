"""Server figures for `/metrics`, in the Prometheus text format.

Counters only grow; `moves_per_second` is a convenience gauge over a sliding window so a
person reading the page needs no Prometheus to see the current rate.
"""

from __future__ import annotations

import bisect
import gc
import time
from collections import Counter, deque
from typing import Any

from server.web import process_metrics

# Upper bounds (seconds) of the move-latency histogram buckets.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
RATE_WINDOW_S = 10.0

# The HELP line of each of our series (PROTOCOL.md, "/metrics", says more).
HELP = {
    "zashiki_rooms_live": "Rooms this process runs now.",
    "zashiki_connections": "Open websocket connections.",
    "zashiki_moves_total": "Moves acknowledged.",
    "zashiki_moves_per_second": "Moves acknowledged per second over the last 10 s.",
    "zashiki_move_ack_seconds": "From receiving a move to queueing its ack, save included.",
    "zashiki_saves_total": "Room saves.",
    "zashiki_save_seconds_total": "Time spent saving rooms.",
    "zashiki_save_seconds_mean": "Mean time of one save.",
    "zashiki_relay_links_out": "Connections relayed to the process that runs their room.",
    "zashiki_relay_links_in": "Other processes' connections served for rooms run here.",
    "zashiki_room_handovers_total": "Rooms handed to (given) or from (taken) another process.",
    "zashiki_relay_timeouts_total": "Requests to another process that got no answer in time.",
    "zashiki_errors_total": "Error frames and answers sent, by code.",
    "zashiki_reviews_queued": "Match reviews waiting to be made.",
    "zashiki_reviews_running": "Match reviews being made now (0 or 1).",
    "zashiki_reviews_made_total": "Match reviews made (or found already made).",
    "zashiki_reviews_failed_total": "Match reviews whose making failed.",
    "zashiki_reviews_dropped_total": "Queued match reviews dropped, the queue being full.",
    "zashiki_review_worker_alive": "1 while the review worker process runs (stops when idle).",
    "zashiki_gc_collections_total": "Garbage collections, by generation.",
    "zashiki_gc_pause_seconds_total": "Time paused in garbage collection, by generation.",
    "zashiki_gc_pause_seconds_max": "Longest garbage collection pause, by generation.",
}


def with_help(lines: list[str]) -> list[str]:
    """`lines` with a HELP line before each TYPE line whose series has one."""
    out = []
    for line in lines:
        if line.startswith("# TYPE "):
            name = line.split()[2]
            if name in HELP:
                out.append(f"# HELP {name} {HELP[name]}")
        out.append(line)
    return out


class Histogram:
    """A cumulative Prometheus histogram with fixed buckets."""

    def __init__(self, buckets: tuple[float, ...] = BUCKETS) -> None:
        self.buckets = buckets
        self.counts = [0] * (len(buckets) + 1)
        self.total = 0.0

    def observe(self, value: float) -> None:
        """Record one observation."""
        self.counts[bisect.bisect_left(self.buckets, value)] += 1
        self.total += value

    def lines(self, name: str) -> list[str]:
        """Prometheus lines for this histogram under `name`."""
        out, running = [], 0
        for bound, n in zip((*self.buckets, float("inf")), self.counts, strict=True):
            running += n
            le = "+Inf" if bound == float("inf") else repr(bound)
            out.append(f'{name}_bucket{{le="{le}"}} {running}')
        out.append(f"{name}_sum {self.total:.6f}")
        out.append(f"{name}_count {running}")
        return out


class GcPauses:
    """Times the garbage collector's pauses per generation (long ones hurt p99)."""

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.total = [0.0, 0.0, 0.0]
        self.longest = [0.0, 0.0, 0.0]
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        """The `gc.callbacks` hook."""
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause, generation = time.perf_counter() - self._started, info["generation"]
        self.count[generation] += 1
        self.total[generation] += pause
        self.longest[generation] = max(self.longest[generation], pause)

    def install(self) -> None:
        """Start timing collections."""
        gc.callbacks.append(self)

    def uninstall(self) -> None:
        """Stop timing collections."""
        gc.callbacks.remove(self)

    def lines(self) -> list[str]:
        """Prometheus lines: collections, total and longest pause, per generation."""
        out = ["# TYPE zashiki_gc_collections_total counter"]
        out += [
            f'zashiki_gc_collections_total{{generation="{g}"}} {n}'
            for g, n in enumerate(self.count)
        ]
        out.append("# TYPE zashiki_gc_pause_seconds_total counter")
        out += [
            f'zashiki_gc_pause_seconds_total{{generation="{g}"}} {t:.6f}'
            for g, t in enumerate(self.total)
        ]
        out.append("# TYPE zashiki_gc_pause_seconds_max gauge")
        out += [
            f'zashiki_gc_pause_seconds_max{{generation="{g}"}} {t:.6f}'
            for g, t in enumerate(self.longest)
        ]
        return out


class Metrics:
    """What the web layer counts; the room manager reports rooms and saves."""

    def __init__(self) -> None:
        self.connections = 0
        self.moves = 0
        self.move_latency = Histogram()
        self.errors: Counter[str] = Counter()
        self.gc = GcPauses()
        self._recent: deque[float] = deque()

    def move_done(self, now: float, latency_s: float) -> None:
        """An acknowledged move: `latency_s` from receiving it to acknowledging it."""
        self.moves += 1
        self.move_latency.observe(latency_s)
        self._recent.append(now)

    def moves_per_second(self, now: float) -> float:
        """Acknowledged moves per second over the last RATE_WINDOW_S seconds."""
        while self._recent and self._recent[0] < now - RATE_WINDOW_S:
            self._recent.popleft()
        return len(self._recent) / RATE_WINDOW_S

    def render(self, now: float, rooms: dict[str, float], reviews: dict[str, int]) -> str:
        """The whole `/metrics` page; `rooms` is the room manager's `stats()`, `reviews`
        the archive's `review_stats()`."""
        saves = int(rooms["saves"])
        lines = [
            "# TYPE zashiki_rooms_live gauge",
            f"zashiki_rooms_live {int(rooms['rooms_live'])}",
            "# TYPE zashiki_connections gauge",
            f"zashiki_connections {self.connections}",
            "# TYPE zashiki_moves_total counter",
            f"zashiki_moves_total {self.moves}",
            "# TYPE zashiki_moves_per_second gauge",
            f"zashiki_moves_per_second {self.moves_per_second(now):.1f}",
            "# TYPE zashiki_move_ack_seconds histogram",
            *self.move_latency.lines("zashiki_move_ack_seconds"),
            "# TYPE zashiki_saves_total counter",
            f"zashiki_saves_total {saves}",
            "# TYPE zashiki_save_seconds_total counter",
            f"zashiki_save_seconds_total {rooms['save_seconds']:.6f}",
            "# TYPE zashiki_save_seconds_mean gauge",
            f"zashiki_save_seconds_mean {rooms['save_seconds'] / saves if saves else 0.0:.6f}",
            "# TYPE zashiki_relay_links_out gauge",
            f"zashiki_relay_links_out {int(rooms['relay_links_out'])}",
            "# TYPE zashiki_relay_links_in gauge",
            f"zashiki_relay_links_in {int(rooms['relay_links_in'])}",
            "# TYPE zashiki_room_handovers_total counter",
            f'zashiki_room_handovers_total{{way="given"}} {int(rooms["handovers_given"])}',
            f'zashiki_room_handovers_total{{way="taken"}} {int(rooms["handovers_taken"])}',
            "# TYPE zashiki_relay_timeouts_total counter",
            f"zashiki_relay_timeouts_total {int(rooms['relay_timeouts'])}",
            "# TYPE zashiki_errors_total counter",
            *(f'zashiki_errors_total{{code="{c}"}} {n}' for c, n in sorted(self.errors.items())),
            "# TYPE zashiki_reviews_queued gauge",
            f"zashiki_reviews_queued {reviews['queued']}",
            "# TYPE zashiki_reviews_running gauge",
            f"zashiki_reviews_running {reviews['running']}",
            "# TYPE zashiki_reviews_made_total counter",
            f"zashiki_reviews_made_total {reviews['made']}",
            "# TYPE zashiki_reviews_failed_total counter",
            f"zashiki_reviews_failed_total {reviews['failed']}",
            "# TYPE zashiki_reviews_dropped_total counter",
            f"zashiki_reviews_dropped_total {reviews['dropped']}",
            "# TYPE zashiki_review_worker_alive gauge",
            f"zashiki_review_worker_alive {reviews['worker_alive']}",
            *self.gc.lines(),
        ]
        return "\n".join([*with_help(lines), *process_metrics.lines()]) + "\n"
