"""Table talk: quick reactions and room chat, and the host's moderation of them.

Chat is players' words only: the server never writes into it, and nothing of a game
travels in it. It lives beside the match, not in it: a message is no move, takes no
version and is saved to the store's chat list (the last `HISTORY` messages), not into the
room's blob, so a move costs what it did. What the host sets (`TalkRules`: muted seats,
muted spectators, text chat during a Hachinin Meri deal) is room state: saved with the
room and shown in every view's `room.talk`.

Hachinin Meri has no table talk in its faithful form (RULINGS §2: partners may signal
with their eyes only), so while one of its deals is being played text chat is off unless
the host turns it on; reactions stay.

>>> clean_text("  hi\\x00 there\\n\\u202e!  ")
'hi there !'
>>> clean_text("<b>bold</b>")
'<b>bold</b>'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from server.rooms.errors import RoomError

REACTIONS = ("nice", "oops", "thinking", "hurry", "gg", "thanks")
MAX_TEXT = 200  # characters of one message, after cleaning
HISTORY = 200  # messages a room keeps
# Games whose rules allow no table talk during a deal (RULINGS §2, Hachinin Meri).
QUIET_DEALS = frozenset({"hachinin_meri"})
# Format characters that reorder or hide text (bidi overrides and isolates, BOM).
_HIDING = frozenset(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C, 0xFEFF]
)
_SPACES = frozenset("\t\n\r\v\f\u0085\u2028\u2029")


def clean_text(text: Any) -> str:
    """A message as the room keeps it: line breaks become spaces, control and
    text-reordering characters go, the ends are trimmed. Markup stays as typed (clients
    show it as text). Raises RoomError bad_chat when nothing is left or it is too long."""
    if not isinstance(text, str):
        raise RoomError("bad_chat", "a chat message is text")
    kept = []
    for ch in text:
        if ch in _SPACES:
            kept.append(" ")
        elif ord(ch) not in _HIDING and unicodedata.category(ch) != "Cc":
            kept.append(ch)
    cleaned = "".join(kept).strip()
    if not cleaned:
        raise RoomError("bad_chat", "a chat message needs some text")
    if len(cleaned) > MAX_TEXT:
        raise RoomError("bad_chat", f"a chat message has at most {MAX_TEXT} characters")
    return cleaned


@dataclass
class TalkRules:
    """What the host has set: muted seats, muted spectators, text during quiet deals."""

    muted: set[int] = field(default_factory=set)
    spectators_muted: bool = False
    deal_text: bool = False

    def dump(self) -> dict[str, Any] | None:
        """Plain data for the saved room; None while nothing is set (most rooms: a save
        then costs what it did before table talk)."""
        if not (self.muted or self.spectators_muted or self.deal_text):
            return None
        return {
            "muted": sorted(self.muted),
            "spectators_muted": self.spectators_muted,
            "deal_text": self.deal_text,
        }

    @classmethod
    def load(cls, data: dict[str, Any] | None) -> TalkRules:
        """The rules `dump` produced (a room saved before table talk: the defaults)."""
        if not data:
            return cls()
        return cls(set(data["muted"]), data["spectators_muted"], data["deal_text"])


def text_open(game_id: str, status: str, rules: TalkRules) -> bool:
    """Whether text chat is open now (for whoever is not muted)."""
    return not (game_id in QUIET_DEALS and status == "playing" and not rules.deal_text)


def public(game_id: str, status: str, rules: TalkRules) -> dict[str, Any] | None:
    """The view's `room.talk`: text open now, who is muted, the quiet-deal switch
    (None for games whose rules allow talk during a deal). None when all is open and
    nobody muted in a game that allows talk (most rooms: their views stay as small)."""
    quiet = game_id in QUIET_DEALS
    if not (quiet or rules.muted or rules.spectators_muted):
        return None
    return {
        "text": text_open(game_id, status, rules),
        "muted": sorted(rules.muted),
        "spectators_muted": rules.spectators_muted,
        "deal_text": rules.deal_text if quiet else None,
    }


def speaker(held: tuple[int, ...], frame: dict[str, Any]) -> int | None:
    """The seat a chat or react frame speaks for: its `seat` (one this connection
    holds), else the first held seat; None for a spectator."""
    seat = frame.get("seat")
    if seat is None:
        return held[0] if held else None
    if seat not in held or isinstance(seat, bool):
        raise RoomError("not_your_seat", "this connection does not hold that seat")
    return int(seat)


def check_voice(rules: TalkRules, seat: int | None) -> None:
    """Refuse a muted sender, telling them so."""
    if seat is None and rules.spectators_muted:
        raise RoomError("muted", "the host has muted spectators")
    if seat is not None and seat in rules.muted:
        raise RoomError("muted", "the host has muted your seat")


def check_reaction(reaction: Any) -> str:
    """A reaction from the fixed set, or RoomError bad_chat."""
    if reaction not in REACTIONS:
        raise RoomError("bad_chat", f"reactions are {', '.join(REACTIONS)}")
    return str(reaction)


def moderate(rules: TalkRules, game_id: str, seats: int, host: int, frame: dict[str, Any]) -> bool:
    """Apply the host's `mute` or `deal_text` frame to `rules` (the caller checks that
    it comes from the host); True if anything changed."""
    if frame["t"] == "deal_text":
        if game_id not in QUIET_DEALS:
            raise RoomError("bad_request", "this game allows table talk during a deal")
        changed = rules.deal_text != frame["allowed"]
        rules.deal_text = bool(frame["allowed"])
        return changed
    muted = bool(frame["muted"])
    if frame.get("spectators") is True:
        changed = rules.spectators_muted != muted
        rules.spectators_muted = muted
        return changed
    seat = frame.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise RoomError("bad_seat", "mute needs a seat number or spectators: true")
    if seat == host:
        raise RoomError("bad_seat", "the host cannot be muted")
    if muted == (seat in rules.muted):
        return False
    if muted:
        rules.muted.add(seat)
    else:
        rules.muted.discard(seat)
    return True
