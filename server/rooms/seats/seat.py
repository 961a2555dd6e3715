"""Seats, room codes and seat tokens.

Room codes are short and readable: six characters from an alphabet without 0/O and
1/I. Seat tokens are 128-bit random secrets; rooms keep only their SHA-256 digest.

>>> len(new_code()), set(new_code()) <= set(CODE_ALPHABET)
(6, True)
>>> t = new_token(); hash_token(t) == hash_token(t) and hash_token(t) != t
True
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, ClassVar

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
SEAT_KINDS = ("human", "cpu", "open")


def new_code() -> str:
    """A fresh random room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """A typed code as stored: trimmed and upper-case."""
    return code.strip().upper()


def new_token() -> str:
    """A fresh 128-bit seat token, URL-safe text."""
    return secrets.token_urlsafe(16)


def hash_token(token: str) -> str:
    """The digest a room stores instead of the token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Watched:
    """Base of a room's rarely changed records, its seats and settings: setting any
    attribute of any of them, in any room, advances `Watched.changes`.

    What is worked out from them alone (the packed copy a save splices in, the public
    seats every view carries) is kept while that count stands, instead of being read
    again from these objects on every move. A change anywhere costs each room one
    rebuild, and changes are rare: joins, leaves, renames, CPU cover. This module is
    not compiled (setup.py): compiled code writes attributes without `__setattr__`.
    """

    changes: ClassVar[int] = 0

    def __setattr__(self, name: str, value: Any) -> None:
        Watched.changes += 1
        object.__setattr__(self, name, value)


@dataclass
class Seat(Watched):
    """One seat: `kind` is human, cpu or open; `covered` means a CPU plays for a human.

    A CPU covers a human who is away (until they return) or whose seat the host `handed`
    to it (until the human moves or takes the seat back).
    """

    kind: str = "open"
    name: str = ""
    token_hash: str = ""
    difficulty: str = "normal"
    covered: bool = False
    handed: bool = False

    def dump(self) -> dict[str, Any]:
        """Plain data for the saved room (the token only as its digest)."""
        return {
            "kind": self.kind,
            "name": self.name,
            "token": self.token_hash,
            "difficulty": self.difficulty,
            "covered": self.covered,
            "handed": self.handed,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Seat:
        """The seat `dump` produced."""
        return cls(
            data["kind"],
            data["name"],
            data["token"],
            data["difficulty"],
            data["covered"],
            data.get("handed", False),  # saves from before hand-overs have none
        )

    def public(
        self,
        connected: bool,
        *,
        host: bool = False,
        present: bool = False,
        away_ms: int | None = None,
        cover_in_ms: int | None = None,
    ) -> dict[str, Any]:
        """What every view says about this seat.

        `connected`: some connection holds it; `present`: one of them shows the board.
        A human seat's `presence` is "covered" (a CPU plays for them), "connected" or
        "away" (`away_ms` so far; `cover_in_ms` until a CPU covers them, None when the
        room waits); other seats have none.
        """
        presence = None
        if self.kind == "human":
            presence = "covered" if self.covered else "connected" if present else "away"
        away = presence != "connected" and self.kind == "human"
        return {
            "kind": self.kind,
            "name": self.name,
            "host": host,
            "difficulty": self.difficulty if self.kind == "cpu" or self.covered else None,
            "covered": self.covered,
            "handed": self.handed,
            "connected": connected,
            "presence": presence,
            "away_ms": away_ms if away else None,
            "cover_in_ms": cover_in_ms if presence == "away" else None,
        }


@dataclass
class RoomSettings(Watched):
    """What the host chose; fixed for the room's life (but for `host`, which passes to
    another human when the host leaves, and `hints` and `cpu_pace`, which the host may
    change in the waiting room)."""

    game_id: str
    options: dict[str, Any]
    seed: int
    host: int
    public: bool = False
    name: str = ""
    difficulty: str = "normal"
    cover_after_ms: int | None = None
    spectators: bool = True  # whether connections without a seat token may watch
    hints: bool = True  # whether seats may ask for hints (the Hard CPU's move) and see helpers
    # How long CPUs take over their moves (actor/cpus.py CPU_PACES); saves from before
    # the setting load as "relaxed", the pace they were played at.
    cpu_pace: str = "relaxed"
    # The seat clocks (`timebank.ClockRules.dump`); None: relaxed, no clock.
    clock: dict[str, Any] | None = None
    # Secret salt of later matches' seeds and of every match's CPU streams (see
    # actor/seeds.py); 0 with a fixed seed.
    series_key: int = 0

    def dump(self) -> dict[str, Any]:
        """Plain data for the saved room."""
        return dict(self.__dict__)
