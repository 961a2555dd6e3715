"""The per-key limiter every rate limit uses (HTTP routes, and any feature keyed alike)."""

from __future__ import annotations

from server.web.ratelimit import KeyedLimiter


def test_keys_are_limited_apart_and_refill_at_the_rate() -> None:
    limiter = KeyedLimiter(rate=2.0, burst=3)
    assert [limiter.check("a", 0.0) for _ in range(3)] == [None, None, None]
    assert limiter.check("a", 0.0) == 0.5
    assert limiter.check("b", 0.0) is None
    assert limiter.check("a", 0.5) is None
    assert limiter.retry_after_s("a", 0.5) == 1


def test_memory_stays_bounded_by_max_keys() -> None:
    limiter = KeyedLimiter(rate=1.0, burst=1, max_keys=100)
    for i in range(10_000):
        limiter.check(f"k{i}", 0.0)
    assert len(limiter._buckets) == 100
