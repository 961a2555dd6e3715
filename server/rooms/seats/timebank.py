"""Seat clocks: the room option `clock` and each seat's time bank, as plain arithmetic.

A room's clock is `relaxed` (no clock: an away human is covered by a CPU after the
room's cover time), `live` (each move has an allowance, then the seat's bank runs; both
count game time, which stops while nobody is at the table) or `days` (the same in wall
time, in hours and days, with a vacation the host allows per match). When a seat's
allowance and bank are both spent, the CPU makes that one move for it; the bank stays
empty, so from then on each move has the allowance alone.

Pure: times are numbers handed in (game ms for live clocks, Unix ms for days clocks);
nothing here reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SECOND = 1000
HOUR = 3600 * SECOND
DAY = 24 * HOUR

MODES = ("relaxed", "live", "days")
# The presets a host picks from: name -> (allowance per move, bank), in ms.
LIVE_PRESETS: dict[str, tuple[int, int]] = {
    "5+20": (5 * SECOND, 20 * SECOND),
    "10+60": (10 * SECOND, 60 * SECOND),
    "30+300": (30 * SECOND, 300 * SECOND),
}
DAYS_PRESETS: dict[str, tuple[int, int]] = {
    "12h+1d": (12 * HOUR, DAY),
    "1d+3d": (DAY, 3 * DAY),
    "2d+7d": (2 * DAY, 7 * DAY),
}
# Each game's live preset when the host names none (Shirokuro Jong's turns are short,
# as on Japanese mahjong tables).
LIVE_DEFAULT = {"shirokuro_jong": "5+20"}
LIVE_FALLBACK = "10+60"
DAYS_DEFAULT = "1d+3d"
VACATION_DEFAULT_DAYS = 7
VACATION_MAX_DAYS = 30
# How long a days room is kept after its last save (other rooms: the store's idle_ttl_ms,
# 14 days): longer than the longest vacation plus the longest move and bank, so a match
# whose players are all away lives on.
DAYS_ROOM_TTL_MS = 45 * DAY


class ClockOptionError(ValueError):
    """A create-room clock option that is not one of the allowed values."""


@dataclass(frozen=True)
class ClockRules:
    """What the host chose: the mode, each move's allowance, the bank and the vacation
    a match allows (ms; vacation only in days rooms)."""

    mode: str
    move_ms: int
    bank_ms: int
    vacation_ms: int = 0

    @property
    def wall(self) -> bool:
        """Whether the clocks count wall time (days) rather than game time (live)."""
        return self.mode == "days"

    def dump(self) -> dict[str, Any]:
        """Plain data for the saved room and its views."""
        return {
            "mode": self.mode,
            "move_ms": self.move_ms,
            "bank_ms": self.bank_ms,
            "vacation_ms": self.vacation_ms,
        }

    @classmethod
    def load(cls, data: dict[str, Any] | None) -> ClockRules | None:
        """The rules `dump` gave (None: a relaxed room)."""
        return None if data is None else cls(**data)


def presets(game_id: str) -> dict[str, Any]:
    """The clock choices /api/games lists for one game: modes, presets and defaults."""

    def listed(table: dict[str, tuple[int, int]]) -> list[dict[str, Any]]:
        return [{"id": k, "move_ms": m, "bank_ms": b} for k, (m, b) in table.items()]

    return {
        "modes": list(MODES),
        "default": "relaxed",
        "live": {"presets": listed(LIVE_PRESETS), "default": live_default(game_id)},
        "days": {
            "presets": listed(DAYS_PRESETS),
            "default": DAYS_DEFAULT,
            "vacation_days": {"default": VACATION_DEFAULT_DAYS, "max": VACATION_MAX_DAYS},
        },
    }


def live_default(game_id: str) -> str:
    """The live preset a game's rooms get when the host names none."""
    return LIVE_DEFAULT.get(game_id, LIVE_FALLBACK)


def rules_from_options(
    game_id: str, mode: Any, preset: Any = None, vacation_days: Any = None
) -> ClockRules | None:
    """The create-room fields `clock`, `clock_preset` and `vacation_days` as rules
    (None: relaxed); ClockOptionError names what is wrong, without echoing the input."""
    if mode is None or mode == "relaxed":
        if preset is not None or vacation_days is not None:
            raise ClockOptionError("clock_preset and vacation_days need a live or days clock")
        return None
    if mode not in ("live", "days"):
        raise ClockOptionError('clock must be "relaxed", "live" or "days"')
    table = LIVE_PRESETS if mode == "live" else DAYS_PRESETS
    if preset is None:
        preset = live_default(game_id) if mode == "live" else DAYS_DEFAULT
    if not isinstance(preset, str) or preset not in table:
        raise ClockOptionError(f"clock_preset for a {mode} clock is one of {', '.join(table)}")
    move_ms, bank_ms = table[preset]
    if mode == "live":
        if vacation_days is not None:
            raise ClockOptionError("vacation_days is for days clocks only")
        return ClockRules(mode, move_ms, bank_ms)
    if vacation_days is None:
        vacation_days = VACATION_DEFAULT_DAYS
    if (
        not isinstance(vacation_days, int)
        or isinstance(vacation_days, bool)
        or not 0 <= vacation_days <= VACATION_MAX_DAYS
    ):
        raise ClockOptionError(f"vacation_days is a whole number from 0 to {VACATION_MAX_DAYS}")
    return ClockRules(mode, move_ms, bank_ms, vacation_days * DAY)


class TimeBanks:
    """Every seat's clock in one room's match.

    Per seat: what is left of the current move's allowance (`move`) and of the bank,
    since when it runs (`since`, None: stopped; it is the seat's move while set), the
    vacation left and since when the seat is on vacation (`away`; its clock is then
    frozen). Times are in the rules' unit (game ms or Unix ms).
    """

    __slots__ = ("rules", "move", "bank", "since", "vacation", "away")

    def __init__(self, rules: ClockRules, seats: int) -> None:
        self.rules = rules
        self.move = [float(rules.move_ms)] * seats
        self.bank = [float(rules.bank_ms)] * seats
        self.since: list[float | None] = [None] * seats
        self.vacation = [float(rules.vacation_ms)] * seats
        self.away: list[float | None] = [None] * seats

    def running(self, s: int) -> bool:
        """Whether seat `s`'s clock runs: its move, and not on vacation."""
        return self.since[s] is not None and self.away[s] is None

    def start(self, s: int, t: float) -> None:
        """A move of seat `s` begins at `t`: a fresh allowance (the bank as it is)."""
        self._charge(s, t)
        self.move[s] = float(self.rules.move_ms)
        self.since[s] = t

    def stop(self, s: int, t: float) -> None:
        """Seat `s` has no move to make from `t`: charge the time used, stop."""
        self._charge(s, t)
        self.since[s] = None

    def _charge(self, s: int, t: float) -> None:
        """Take the time run since `since` from the allowance, then the bank."""
        since = self.since[s]
        if since is None or self.away[s] is not None:
            return
        used = max(0.0, t - since)
        from_move = min(used, self.move[s])
        self.move[s] -= from_move
        self.bank[s] = max(0.0, self.bank[s] - (used - from_move))
        self.since[s] = t

    def left(self, s: int, t: float) -> tuple[float, float]:
        """(allowance, bank) seat `s` has left at `t`."""
        move, bank = self.move[s], self.bank[s]
        since = self.since[s]
        if since is not None and self.away[s] is None:
            used = max(0.0, t - since)
            from_move = min(used, move)
            move, bank = move - from_move, max(0.0, bank - (used - from_move))
        return move, bank

    def runs_out(self, s: int) -> float | None:
        """When seat `s`'s allowance and bank are spent, if its clock runs."""
        since = self.since[s]
        if since is None or self.away[s] is not None:
            return None
        return since + self.move[s] + self.bank[s]

    def ran_out(self, s: int, t: float) -> None:
        """Seat `s`'s time ran out (the CPU moves for it): both spent, the clock stopped."""
        self.move[s] = self.bank[s] = 0.0
        self.since[s] = None

    # -- vacation (days clocks) ---------------------------------------------------------
    def vacation_start(self, s: int, t: float) -> bool:
        """Seat `s` goes on vacation at `t` (its clock freezes); False if it has none
        left or is on one already."""
        if self.away[s] is not None or self.vacation[s] <= 0:
            return False
        self._charge(s, t)
        self.away[s] = t
        return True

    def vacation_end(self, s: int, t: float) -> bool:
        """Seat `s` is back at `t` (the vacation used is gone; a running move goes on
        from where it froze); False if it was not away."""
        away = self.away[s]
        if away is None:
            return False
        self.vacation[s] = max(0.0, self.vacation[s] - max(0.0, t - away))
        self.away[s] = None
        if self.since[s] is not None:
            self.since[s] = t
        return True

    def vacation_ends(self, s: int) -> float | None:
        """When seat `s`'s vacation is used up, if it is on one."""
        away = self.away[s]
        return None if away is None else away + self.vacation[s]

    def vacation_left(self, s: int, t: float) -> float:
        """The vacation seat `s` has left at `t`."""
        away = self.away[s]
        used = 0.0 if away is None else max(0.0, t - away)
        return max(0.0, self.vacation[s] - used)

    # -- views and saves ----------------------------------------------------------------
    def public(self, t: float) -> list[dict[str, Any]]:
        """Each seat's clock as every view shows it, at `t` (whole ms)."""
        seats = []
        for s in range(len(self.move)):
            move, bank = self.left(s, t)
            seats.append(
                {
                    "move_ms": int(move),
                    "bank_ms": int(bank),
                    "running": self.running(s),
                    "vacation": self.away[s] is not None,
                    "vacation_ms": int(self.vacation_left(s, t)),
                }
            )
        return seats

    def dump(self) -> dict[str, Any]:
        """Plain data for the saved room (times as they are: a days clock's Unix ms
        counts on across a restart; a live clock's game ms stop with the game)."""
        return {
            "move": list(self.move),
            "bank": list(self.bank),
            "since": list(self.since),
            "vacation": list(self.vacation),
            "away": list(self.away),
        }

    @classmethod
    def load(cls, rules: ClockRules, data: dict[str, Any]) -> TimeBanks:
        """The banks `dump` gave."""
        banks = cls(rules, len(data["move"]))
        banks.move = [float(v) for v in data["move"]]
        banks.bank = [float(v) for v in data["bank"]]
        banks.since = [None if v is None else float(v) for v in data["since"]]
        banks.vacation = [float(v) for v in data["vacation"]]
        banks.away = [None if v is None else float(v) for v in data["away"]]
        return banks
