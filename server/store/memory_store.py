"""In-process store: the same behaviour as the Redis store, for running with no Redis."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from server.store import codec
from server.store.store import IDLE_TTL_MS, RoomExists, StaleVersion, Store, StoredRoom


class MemoryStore(Store):
    """Rooms, logs, listings and leases in dicts; `wall_ms` is the expiry clock."""

    def __init__(
        self, idle_ttl_ms: int = IDLE_TTL_MS, wall_ms: Callable[[], float] | None = None
    ) -> None:
        self.idle_ttl_ms = idle_ttl_ms
        self._wall_ms = wall_ms or (lambda: time.time() * 1000)
        # code -> (version, blob, expiry, deltas)
        self._rooms: dict[str, tuple[int, bytes, float, tuple[bytes, ...]]] = {}
        # Log entries are kept packed, as Redis keeps them, so callers never share objects.
        self._logs: dict[str, list[bytes]] = {}
        self._public: dict[str, bytes] = {}
        self._due: dict[str, int] = {}  # code -> Unix ms it is next due
        self._chats: dict[str, list[bytes]] = {}
        self._leases: dict[str, tuple[str, float]] = {}
        self._push_key: bytes | None = None
        self._pushes: dict[str, dict[str, bytes]] = {}
        self._reviews: dict[str, dict[str, bytes]] = {}

    def _live(self, code: str) -> tuple[int, bytes, float, tuple[bytes, ...]] | None:
        """The room's record if it has not expired (an expired one is dropped)."""
        entry = self._rooms.get(code)
        if entry is not None and entry[2] <= self._wall_ms():
            self._drop(code)
            return None
        return entry

    def _drop(self, code: str) -> None:
        self._rooms.pop(code, None)
        self._logs.pop(code, None)
        self._chats.pop(code, None)
        self._public.pop(code, None)
        self._due.pop(code, None)
        self._leases.pop(code, None)
        self._pushes.pop(code, None)
        self._reviews.pop(code, None)

    async def ping(self) -> bool:
        return True

    async def create(self, code: str, blob: bytes) -> None:
        if self._live(code) is not None:
            raise RoomExists(code)
        self._rooms[code] = (1, bytes(blob), self._wall_ms() + self.idle_ttl_ms, ())
        self._logs[code] = []
        self._chats.pop(code, None)

    async def load(self, code: str) -> StoredRoom | None:
        entry = self._live(code)
        return None if entry is None else StoredRoom(code, entry[0], entry[1], entry[3])

    async def save(
        self,
        code: str,
        version: int,
        blob: bytes,
        log: list[dict[str, Any]] | None = None,
        delta: bool = False,
    ) -> None:
        entry = self._live(code)
        if entry is None or entry[0] != version - 1:
            raise StaleVersion(code)
        expiry = self._wall_ms() + self.idle_ttl_ms
        if delta:
            self._rooms[code] = (version, entry[1], expiry, (*entry[3], bytes(blob)))
        else:
            self._rooms[code] = (version, bytes(blob), expiry, ())
        if log:
            self._logs.setdefault(code, []).extend(codec.pack(e) for e in log)

    async def read_log(self, code: str) -> list[dict[str, Any]]:
        if self._live(code) is None:
            return []
        return [codec.unpack(e) for e in self._logs.get(code, [])]

    async def trim_log(self, code: str, keep: int) -> None:
        entries = self._logs.get(code)
        if entries is not None and len(entries) > keep:
            del entries[: len(entries) - max(0, keep)]

    async def log_length(self, code: str) -> int:
        if self._live(code) is None:
            return 0
        return len(self._logs.get(code, []))

    async def expires_in_ms(self, code: str) -> int | None:
        entry = self._live(code)
        return None if entry is None else int(entry[2] - self._wall_ms())

    async def delete(self, code: str) -> None:
        self._drop(code)

    async def keep_for(self, code: str, ttl_ms: int) -> None:
        entry = self._live(code)
        if entry is not None:
            self._rooms[code] = (entry[0], entry[1], self._wall_ms() + ttl_ms, entry[3])

    async def add_chat(self, code: str, entry: dict[str, Any], keep: int) -> None:
        # Kept while the room lives (the room's expiry stands in for the chat's own).
        if self._live(code) is not None:
            chat = self._chats.setdefault(code, [])
            chat.append(codec.pack(entry))
            del chat[:-keep]

    async def chat(self, code: str) -> list[dict[str, Any]]:
        if self._live(code) is None:
            return []
        return [codec.unpack(e) for e in self._chats.get(code, [])]

    async def save_review(self, code: str, key: str, review: dict[str, Any]) -> None:
        # Kept while the room lives (the room's expiry stands in for their own).
        if self._live(code) is not None:
            self._reviews.setdefault(code, {})[key] = codec.pack(review)

    async def review(self, code: str, key: str) -> dict[str, Any] | None:
        if self._live(code) is None:
            return None
        packed = self._reviews.get(code, {}).get(key)
        return None if packed is None else codec.unpack(packed)

    async def push_key(self, candidate: bytes) -> bytes:
        if self._push_key is None:
            self._push_key = bytes(candidate)
        return self._push_key

    async def add_push(self, code: str, key: str, entry: dict[str, Any]) -> None:
        # Kept while the room lives (the room's expiry stands in for their own).
        if self._live(code) is not None:
            self._pushes.setdefault(code, {})[key] = codec.pack(entry)

    async def push_subscriptions(self, code: str) -> dict[str, dict[str, Any]]:
        if self._live(code) is None:
            return {}
        return {key: codec.unpack(entry) for key, entry in self._pushes.get(code, {}).items()}

    async def drop_push(self, code: str, keys: list[str]) -> None:
        kept = self._pushes.get(code, {})
        for key in keys:
            kept.pop(key, None)

    async def set_public(self, code: str, summary: dict[str, Any] | None) -> None:
        if summary is None:
            self._public.pop(code, None)
        elif self._live(code) is not None:
            self._public[code] = codec.pack(summary)

    async def public_rooms(self) -> list[dict[str, Any]]:
        codes = sorted(c for c in self._public if self._live(c) is not None)
        return [codec.unpack(self._public[c]) for c in codes if c in self._public]

    async def set_due(self, code: str, at_ms: int | None) -> None:
        if at_ms is None:
            self._due.pop(code, None)
        else:
            self._due[code] = int(at_ms)

    async def claim_due(self, now_ms: int, limit: int, retry_ms: int) -> list[str]:
        due = sorted((at, code) for code, at in self._due.items() if at <= now_ms)[:limit]
        for _, code in due:
            self._due[code] = now_ms + retry_ms
        return [code for _, code in due]

    async def acquire_lease(self, code: str, owner: str, ttl_ms: int) -> bool:
        now = self._wall_ms()
        held = self._leases.get(code)
        if held is not None and held[0] != owner and held[1] > now:
            return False
        self._leases[code] = (owner, now + ttl_ms)
        return True

    async def renew_leases(self, codes: list[str], owner: str, ttl_ms: int) -> list[str]:
        now = self._wall_ms()
        lost = []
        for code in codes:
            held = self._leases.get(code)
            if held is None or held[0] != owner or held[1] <= now:
                lost.append(code)
            else:
                self._leases[code] = (owner, now + ttl_ms)
        return lost

    async def release_lease(self, code: str, owner: str) -> None:
        held = self._leases.get(code)
        if held is not None and held[0] == owner:
            del self._leases[code]

    async def lease_holder(self, code: str) -> str | None:
        held = self._leases.get(code)
        return held[0] if held is not None and held[1] > self._wall_ms() else None
