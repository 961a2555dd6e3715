"""The Store interface: rooms as versioned blobs, their move logs, the public list, leases,
when each room next needs a process (the due index), and what Web Push needs (the
deployment's key, the rooms' subscriptions).

The store knows nothing of games. A room is an opaque `bytes` blob with an integer
version, and the deltas saved since that blob (opaque too; the rooms' journal.py makes
and reads them); every save is a compare-and-set on that version together with an
append of the room's new log entries, done atomically. Idle rooms expire `idle_ttl_ms` after their
last save. Two backends implement it: `RedisStore` (production, and the tests) and
`MemoryStore` (zero setup, nothing survives a restart).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

IDLE_TTL_MS = 14 * 24 * 3600 * 1000
"""Default expiry of a room after its last save: 14 days."""


class StaleVersion(Exception):
    """A save whose expected version is not the stored one (someone else saved first)."""


class RoomExists(Exception):
    """A create for a code that is already taken."""


class StoreError(Exception):
    """The store could not be reached or did not answer (an outage): nothing was done
    that the caller can rely on; try again later. The message is for logs, not clients."""


@dataclass(frozen=True)
class StoredRoom:
    """One room as the store holds it."""

    code: str
    version: int
    blob: bytes
    # The deltas saved after `blob`, oldest first (the last one is at `version`).
    deltas: tuple[bytes, ...] = ()


class Store:
    """What the rooms need from persistence: a handful of verbs, nothing Redis-specific.

    Log entries and public-room summaries are plain msgpack-safe data.
    """

    idle_ttl_ms: int = IDLE_TTL_MS

    async def start(self) -> None:
        """Connect or prepare; call once before use."""

    async def aclose(self) -> None:
        """Flush anything pending and release connections."""

    async def ping(self) -> bool:
        """True when the backend answers (for health checks)."""
        raise NotImplementedError

    # -- rooms ---------------------------------------------------------------------
    async def create(self, code: str, blob: bytes) -> None:
        """Store a new room at version 1; raises RoomExists if the code is taken."""
        raise NotImplementedError

    async def load(self, code: str) -> StoredRoom | None:
        """The room's latest save, or None if there is none (never created, or expired)."""
        raise NotImplementedError

    async def save(
        self,
        code: str,
        version: int,
        blob: bytes,
        log: list[dict[str, Any]] | None = None,
        delta: bool = False,
    ) -> None:
        """Replace the room with `blob` at `version`, appending `log` entries to its log.
        With `delta`, `blob` is kept after the room's blob and earlier deltas instead;
        the next full save drops them.

        Succeeds only if the stored version is `version - 1`; otherwise raises
        StaleVersion and changes nothing. Refreshes the room's expiry.
        """
        raise NotImplementedError

    async def read_log(self, code: str) -> list[dict[str, Any]]:
        """Every log entry of the room, oldest first."""
        raise NotImplementedError

    async def trim_log(self, code: str, keep: int) -> None:
        """Drop the room's oldest log entries, keeping the newest `keep`."""
        raise NotImplementedError

    async def log_length(self, code: str) -> int:
        """How many entries the room's log holds (0 for no room); cheap, for caches."""
        raise NotImplementedError

    async def expires_in_ms(self, code: str) -> int | None:
        """Milliseconds until the room expires, or None if it does not exist."""
        raise NotImplementedError

    async def delete(self, code: str) -> None:
        """Remove the room, its log, its chat, its reviews, its lease, its public listing
        and its due time."""
        raise NotImplementedError

    async def keep_for(self, code: str, ttl_ms: int) -> None:
        """Let the room, its log, its chat and its reviews expire `ttl_ms` from now instead (a days
        room's longer life; the next save sets `idle_ttl_ms` again)."""
        raise NotImplementedError

    # -- chat: the last messages said in a room ----------------------------------------
    async def add_chat(self, code: str, entry: dict[str, Any], keep: int) -> None:
        """Append one chat message to the room's chat, keeping only the last `keep`.

        The chat expires `idle_ttl_ms` after its last message, and goes when the room is
        deleted or its code is created afresh.
        """
        raise NotImplementedError

    async def chat(self, code: str) -> list[dict[str, Any]]:
        """The room's kept chat messages, oldest first."""
        raise NotImplementedError

    # -- reviews: the CPU's opinion on a finished match, made once ---------------------
    async def save_review(self, code: str, key: str, review: dict[str, Any]) -> None:
        """Keep a finished match's review (server/rooms/history/review.py) under `key`
        (the match's number, seed and the review's version). It expires `idle_ttl_ms`
        after the last one kept, goes when the room is deleted, and is not kept for a
        room that is gone."""
        raise NotImplementedError

    async def review(self, code: str, key: str) -> dict[str, Any] | None:
        """The review kept under `key`, or None."""
        raise NotImplementedError

    # -- Web Push: the deployment's key and each room's subscriptions -----------------
    async def push_key(self, candidate: bytes) -> bytes:
        """The deployment's Web Push (VAPID) private key: the one stored, else `candidate`,
        stored now and never expiring. Whichever process asks first stores its candidate;
        every process gets the same key back."""
        raise NotImplementedError

    async def add_push(self, code: str, key: str, entry: dict[str, Any]) -> None:
        """Keep one push subscription of the room under `key` (replacing what was kept
        there). The room's subscriptions expire `idle_ttl_ms` after the last one was kept
        or read, and go when the room is deleted."""
        raise NotImplementedError

    async def push_subscriptions(self, code: str) -> dict[str, dict[str, Any]]:
        """The room's push subscriptions by key (reading them keeps them as long again)."""
        raise NotImplementedError

    async def drop_push(self, code: str, keys: list[str]) -> None:
        """Forget these push subscriptions of the room (keys not kept are ignored)."""
        raise NotImplementedError

    # -- public room list ------------------------------------------------------------
    async def set_public(self, code: str, summary: dict[str, Any] | None) -> None:
        """List the room publicly with `summary`, or unlist it (None)."""
        raise NotImplementedError

    async def public_rooms(self) -> list[dict[str, Any]]:
        """Summaries of the listed rooms that still exist, in code order."""
        raise NotImplementedError

    # -- due rooms: when a room next needs a process, loaded or not ------------------
    async def set_due(self, code: str, at_ms: int | None) -> None:
        """Note that the room next needs a process running it at `at_ms` (Unix ms: a
        days clock running out, a CPU's move due), or never (None: unlisted)."""
        raise NotImplementedError

    async def claim_due(self, now_ms: int, limit: int, retry_ms: int) -> list[str]:
        """The codes of at most `limit` rooms due by `now_ms`, earliest first, each put
        off to `now_ms + retry_ms` in the same step: another sweep takes it again only if
        this one's process did not get it running (a running room sets its own time)."""
        raise NotImplementedError

    # -- leases: which process runs a room -------------------------------------------
    async def acquire_lease(self, code: str, owner: str, ttl_ms: int) -> bool:
        """Take (or re-take) the room's lease for `owner`; False if another owner holds it."""
        raise NotImplementedError

    async def renew_leases(self, codes: list[str], owner: str, ttl_ms: int) -> list[str]:
        """Extend `owner`'s leases; returns the codes whose lease `owner` no longer holds."""
        raise NotImplementedError

    async def release_lease(self, code: str, owner: str) -> None:
        """Give the lease up if `owner` holds it."""
        raise NotImplementedError

    async def lease_holder(self, code: str) -> str | None:
        """Who holds the room's lease now (the owner id given when taking it), if anyone."""
        raise NotImplementedError
