"""The game contract every rules engine implements (see shared DESIGN.md).

Engines are pure and deterministic: no I/O, no clock, no asyncio, no global random.
State is whatever object the engine likes; it only leaves the engine through `view`
(for a seat) and `dump` (for the store).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]

DIFFICULTIES = ("easy", "normal", "hard")


class IllegalAction(ValueError):
    """A move refused by the rules: `code` is machine-readable, `message` is for people.

    The message never names a hidden card.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def _is_seat_number(value: Any) -> bool:
    return type(value) is int  # True and False are ints to Python, never seats


def _among(value: Any, choices: tuple[Any, ...]) -> bool:
    """`value` is one of `choices`, of the same type (so True is not taken for 1)."""
    return any(value == c and type(value) is type(c) for c in choices)


@dataclass(frozen=True)
class Option:
    """A room option a game offers, with its default and allowed values.

    With `per_seat`, the int choices are seat numbers: a match of n seats allows only
    those below n (the others, such as "random", fit any seat count).
    """

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    description: str = ""
    per_seat: bool = False
    # For a whole-number option without choices: the smallest and largest value allowed.
    minimum: int | None = None
    maximum: int | None = None

    def choices_for(self, seats: int) -> tuple[Any, ...]:
        """The choices a match of `seats` seats allows."""
        if not self.per_seat:
            return self.choices
        return tuple(c for c in self.choices if not _is_seat_number(c) or c < seats)

    def describe(self) -> dict[str, Any]:
        """Plain-data description for the API and the browser."""
        described = {
            "name": self.name,
            "default": self.default,
            "choices": list(self.choices),
            "description": self.description,
            "per_seat": self.per_seat,
        }
        if self.minimum is not None or self.maximum is not None:
            described["minimum"], described["maximum"] = self.minimum, self.maximum
        return described

    def in_range(self, value: Any) -> bool:
        """For a ranged option: `value` is a whole number within its range."""
        if self.minimum is None and self.maximum is None:
            return True
        return (
            type(value) is int
            and (self.minimum is None or value >= self.minimum)
            and (self.maximum is None or value <= self.maximum)
        )


class Game:
    """Base class of a rules engine; subclasses override the contract methods.

    A module under `server/games/` exposes one instance as `GAME`; the registry finds it.
    """

    id: str = ""
    title: str = ""
    min_seats: int = 0
    max_seats: int = 0
    options: tuple[Option, ...] = ()

    # -- options ---------------------------------------------------------------------
    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and check values; unknown or bad options raise IllegalAction."""
        given = dict(options or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise IllegalAction("bad_option", f"unknown option(s) for {self.id}: {unknown}")
        resolved = {}
        for name, opt in known.items():
            value = given.get(name, opt.default)
            if opt.choices and not _among(value, opt.choices):
                raise IllegalAction(
                    "bad_option", f"option {name} must be one of {list(opt.choices)}"
                )
            if not opt.in_range(value):
                raise IllegalAction(
                    "bad_option",
                    f"option {name} must be a whole number from {opt.minimum} to {opt.maximum}",
                )
            resolved[name] = value
        return resolved

    def check_options(
        self, options: dict[str, Any], seats: int, cpu_seats: Sequence[int] = ()
    ) -> None:
        """Refuse resolved `options` a match of `seats` seats cannot use (a per-seat
        choice past its last seat) with IllegalAction("bad_option").

        `cpu_seats` are the seats a CPU plays, for games whose options may name only
        human seats."""
        for opt in self.options:
            allowed = opt.choices_for(seats)
            if opt.per_seat and not _among(options[opt.name], allowed):
                raise IllegalAction(
                    "bad_option",
                    f"option {opt.name} must be one of {list(allowed)} with {seats} seats",
                )

    def describe(self) -> dict[str, Any]:
        """Plain-data description: id, title, seat counts and options."""
        return {
            "id": self.id,
            "title": self.title,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "options": [o.describe() for o in self.options],
        }

    # -- the contract ----------------------------------------------------------------
    def new(
        self, seats: int, options: dict[str, Any], seed: int, cpu_seats: Sequence[int] = ()
    ) -> Any:
        """A fresh match for `seats` seats; all randomness comes from `seed`.

        `cpu_seats` are the seats a CPU plays from the start (most games ignore it; a
        game may refuse options with it or tell automatic input from a human's).
        """
        raise NotImplementedError

    def actions(self, state: Any, seat: int) -> list[Action]:
        """The moves `seat` may make now (possibly none)."""
        raise NotImplementedError

    def apply(self, state: Any, seat: int, action: Action, now: int) -> list[Event]:
        """Check and apply a move, or raise IllegalAction leaving `state` untouched."""
        raise NotImplementedError

    def apply_cpu(self, state: Any, seat: int, action: Action, now: int) -> list[Event]:
        """`apply` for a move a CPU made: for a CPU seat, or covering an away human's.

        The same move as `apply`; a game that tells automatic input from a human's (such
        as Usunoro's idle void) overrides it.
        """
        return self.apply(state, seat, action, now)

    def deadline(self, state: Any) -> int | None:
        """Game time (ms) of the next rule timer, if any."""
        return None

    def expire(self, state: Any, now: int) -> list[Event]:
        """Fire the rule timers due at `now`."""
        return []

    def view(self, state: Any, seat: int | None) -> View:
        """Everything `seat` may know and nothing more; None is a spectator."""
        raise NotImplementedError

    def views(self, state: Any, seats: Sequence[int | None]) -> dict[int | None, View]:
        """`view(state, s)` for each of `seats`, equal to them one by one.

        The room asks for every connected seat's view at once after each move; an engine
        may build what they show alike once. The views may then share those parts, so
        nobody may change a view after it is made.
        """
        return {s: self.view(state, s) for s in seats}

    def view_patches(
        self,
        state: Any,
        seats: Sequence[int | None],
        moves: Sequence[tuple[int, Action]],
        events: Sequence[Event],
    ) -> dict[int | None, View] | None:
        """Each of `seats`' views as a change to its views before `moves`, or None.

        `moves` are the (seat, action) pairs applied since those views were made, in
        order, and `events` what they caused; nothing else touched the state. A patch
        holds the top-level fields whose values changed (it may hold unchanged ones
        too): `{**before, **patch}` equals `view(state, seat)`. The room sends patches
        instead of whole views to the clients that ask for them, so a patch must show
        no more than the view would. None (the default) means "send whole views": an
        engine answers only for the moves it can describe cheaply.
        """
        return None

    def actions_kept(
        self, state: Any, seat: int, moves: Sequence[tuple[int, Action]], events: Sequence[Event]
    ) -> bool:
        """True if `actions(state, seat)` is what it was before `moves` (asked only where
        `view_patches` gave patches for them), so a patch message may leave out `seat`'s
        legal moves. False (the default) means "send them"; never True when unsure.
        """
        return False

    def helpers(self, view: View) -> list[dict[str, Any]]:
        """Plain sentences that help the seat whose view this is, from the view alone.

        Each item is {"id": kind, "en": ..., "ja": ...} with an optional "move" (the
        action dict the line is about). None by default.
        """
        return []

    def shuffle_unseen(self, state: Any, seat: int | None, rng: Any) -> Any:
        """A copy with every card `seat` cannot see re-dealt among the places it cannot see.

        The copy depends on `seat`'s view and `rng` alone, not on where the unseen cards
        really are (pool them in a canonical order before dealing them again)."""
        raise NotImplementedError

    def dump(self, state: Any) -> dict[str, Any]:
        """Plain msgpack-safe data (dicts, lists, str, int, float, bool, None)."""
        raise NotImplementedError

    def load(self, data: dict[str, Any]) -> Any:
        """The state `dump` produced; behaves exactly like the original."""
        raise NotImplementedError

    def packable(self, state: Any) -> Any:
        """What `dump` gives, for packing at once: it may share parts with the state
        (an engine whose state is plain data already returns the state itself), so it
        must be packed before the state changes. Packs to the same bytes as `dump`."""
        return self.dump(state)

    def outcome(self, state: Any) -> dict[str, Any] | None:
        """Standings once the match is over, else None.

        Always holds `"places"`: one int per seat, 1 for the best, equal places shared
        (a team game gives every member the team's place). Anything else is per game.
        """
        raise NotImplementedError

    # -- conveniences with sensible defaults -----------------------------------------
    def copy(self, state: Any) -> Any:
        """An independent copy of `state` (engines may override with a faster one)."""
        return self.load(self.dump(state))

    def seat_count(self, state: Any) -> int:
        """Number of seats in this match."""
        return int(self.dump(state)["seats"])
