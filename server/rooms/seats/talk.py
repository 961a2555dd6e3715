"""Table talk: quick reactions and room chat, and the host's moderation of them.

Chat is players' words only: the server never writes into it, and nothing of a game
travels in it. It lives beside the match, not in it: a message is no move, takes no
version and is saved to the store's chat list (the last `HISTORY` messages), not into the
room's blob, so a move costs what it did. What the host sets (`TalkRules`: muted players,
muted spectators, text chat during a Hachinin Meri deal) is room state: saved with the
room and shown in every view's `room.talk`.

A mute belongs to the person, not to the seat number: the room keeps the digest of the
muted seat's token. Whoever holds that token stays muted across reconnects, reloads and
restarts; once the seat changes hands (left, re-issued, taken by someone new) its new
holder's token is another, so they are not muted. Views still list seat numbers.

Hachinin Meri has no table talk in its faithful form (RULINGS §2: partners may signal
with their eyes only), so while one of its deals is being played text chat is off unless
the host turns it on; reactions stay.

>>> clean_text("  hi\\x00 there\\n\\u202e!  ")
'hi there !'
>>> clean_text("<b>bold</b>")
'<b>bold</b>'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.rooms.errors import RoomError
from server.rooms.seats.names import visible_text
from server.rooms.seats.seat import Seat

REACTIONS = ("nice", "oops", "thinking", "hurry", "gg", "thanks")
MAX_TEXT = 200  # characters of one message, after cleaning
HISTORY = 200  # messages a room keeps
# Games whose rules allow no table talk during a deal (RULINGS §2, Hachinin Meri).
QUIET_DEALS = frozenset({"hachinin_meri"})


def clean_text(text: Any) -> str:
    """A message as the room keeps it, cleaned as names are (`names.visible_text`: NFC,
    white space made single spaces, the ends trimmed, control and format characters such
    as zero-width and tag characters dropped). Markup stays as typed (clients show it as
    text). Raises RoomError bad_chat when nothing is left or it is too long."""
    if not isinstance(text, str):
        raise RoomError("bad_chat", "a chat message is text")
    cleaned = visible_text(text)
    if not cleaned:
        raise RoomError("bad_chat", "a chat message needs some text that shows")
    if len(cleaned) > MAX_TEXT:
        raise RoomError("bad_chat", f"a chat message has at most {MAX_TEXT} characters")
    return cleaned


@dataclass
class TalkRules:
    """What the host has set: muted players (their seat tokens' digests), muted
    spectators, text during quiet deals."""

    muted: set[str] = field(default_factory=set)
    spectators_muted: bool = False
    deal_text: bool = False

    def muted_seats(self, seats: list[Seat]) -> list[int]:
        """The seats whose holder is muted now, in order."""
        if not self.muted:
            return []
        return [i for i, s in enumerate(seats) if s.kind == "human" and s.token_hash in self.muted]

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
    def load(cls, data: dict[str, Any] | None, seats: list[Seat]) -> TalkRules:
        """The rules `dump` produced (a room saved before table talk: the defaults).

        Rooms saved while mutes were kept by seat number list numbers: each becomes the
        digest of the token holding that seat now (the person it was meant for)."""
        if not data:
            return cls()
        muted = set()
        for entry in data["muted"]:
            if isinstance(entry, str):
                muted.add(entry)
            elif 0 <= entry < len(seats) and seats[entry].kind == "human":
                muted.add(seats[entry].token_hash)
        return cls(muted, data["spectators_muted"], data["deal_text"])


def text_open(game_id: str, status: str, rules: TalkRules) -> bool:
    """Whether text chat is open now (for whoever is not muted)."""
    return not (game_id in QUIET_DEALS and status == "playing" and not rules.deal_text)


def public(game_id: str, status: str, rules: TalkRules, seats: list[Seat]) -> dict[str, Any] | None:
    """The view's `room.talk`: text open now, the seats whose holder is muted, the
    quiet-deal switch (None for games whose rules allow talk during a deal). None when
    all is open and nobody seated is muted in a game that allows talk (most rooms: their
    views stay as small)."""
    quiet = game_id in QUIET_DEALS
    muted = rules.muted_seats(seats)
    if not (quiet or muted or rules.spectators_muted):
        return None
    return {
        "text": text_open(game_id, status, rules),
        "muted": muted,
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


def check_voice(rules: TalkRules, seats: list[Seat], seat: int | None) -> None:
    """Refuse a muted sender (`seat` None: a spectator), telling them so."""
    if seat is None and rules.spectators_muted:
        raise RoomError("muted", "the host has muted spectators")
    if seat is not None and seats[seat].token_hash in rules.muted:
        raise RoomError("muted", "the host has muted you")


def check_reaction(reaction: Any) -> str:
    """A reaction from the fixed set, or RoomError bad_chat."""
    if reaction not in REACTIONS:
        raise RoomError("bad_chat", f"reactions are {', '.join(REACTIONS)}")
    return str(reaction)


def moderate(
    rules: TalkRules, game_id: str, seats: list[Seat], host: int, frame: dict[str, Any]
) -> bool:
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
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(seats):
        raise RoomError("bad_seat", "mute needs a seat number or spectators: true")
    if seat == host:
        raise RoomError("bad_seat", "the host cannot be muted")
    nobody = seats[seat].kind != "human"
    if nobody and muted:
        raise RoomError("bad_seat", f"seat {seat} has no player to mute")
    # Mutes of people who have since left their seat go (the set stays as small as the room).
    before = len(rules.muted)
    rules.muted &= {s.token_hash for s in seats if s.kind == "human"}
    changed = len(rules.muted) != before
    if nobody:
        return changed  # nobody there, so nobody muted: already as asked
    token_hash = seats[seat].token_hash
    if muted == (token_hash in rules.muted):
        return changed
    if muted:
        rules.muted.add(token_hash)
    else:
        rules.muted.discard(token_hash)
    return True
