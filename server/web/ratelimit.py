"""Per-key rate limits: one token bucket per key (a client address, a seat, a connection).

`KeyedLimiter` is the reusable piece: HTTP routes key it by client address, and any other
feature (chat, reactions) can key it by whatever it limits. Memory stays bounded: at most
`max_keys` buckets are kept, the least recently used forgotten first (a forgotten key
starts again with a full burst, which is the lenient side to err on).

>>> limiter = KeyedLimiter(rate=1.0, burst=2)
>>> [limiter.check("a", 0.0), limiter.check("a", 0.0), limiter.check("a", 0.0)]
[None, None, 1.0]
>>> limiter.check("b", 0.0), limiter.check("a", 1.0)
(None, None)
"""

from __future__ import annotations

import math
from collections import OrderedDict

from server.web.limits import TokenBucket


class KeyedLimiter:
    """`rate` actions a second per key, bursts of `burst`; see the module docstring."""

    def __init__(self, rate: float, burst: int, max_keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def check(self, key: str, now: float, cost: int = 1) -> float | None:
        """Spend `cost` actions of `key` (at most a burst) at monotonic time `now` (s).

        None when allowed; otherwise the seconds until they would be (a refused action
        spends nothing).
        """
        cost = min(cost, self.burst)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, now)
            if len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        if bucket.take(now, cost):
            return None
        return (cost - bucket.tokens) / self.rate if self.rate > 0 else math.inf

    def retry_after_s(self, key: str, now: float, cost: int = 1) -> int | None:
        """Like `check`, rounded up to whole seconds (the HTTP Retry-After header)."""
        wait = self.check(key, now, cost)
        return None if wait is None else max(1, math.ceil(wait))
