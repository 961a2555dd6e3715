"""Display names (and other short free text) from untrusted input.

A name is cleaned, never trusted: Unicode-normalized, every kind of white space made a
plain space and runs of them collapsed, control and format characters (including
bidirectional overrides and zero-width characters) dropped, and cut to `NAME_MAX`
characters. Input far longer than any name is refused outright rather than cut.
Markup is kept as the literal text it is: clients render names as text only.

>>> clean_name("  Ann\\x00\\u202e  <b>x</b>\\n")
'Ann <b>x</b>'
>>> clean_name("x" * 30) == "x" * NAME_MAX
True
"""

from __future__ import annotations

import unicodedata

from server.rooms.errors import RoomError

NAME_MAX = 24
ROOM_NAME_MAX = 60
# Anything longer is not a name someone typed: refused, not cut.
INPUT_MAX = 200
# Control, format, surrogate, private-use and unassigned characters.
DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def clean_text(raw: object, limit: int) -> str:
    """`raw` as safe short text of at most `limit` characters; RoomError if unusable."""
    if not isinstance(raw, str):
        raise RoomError("bad_name", "a name must be text")
    if len(raw) > INPUT_MAX:
        raise RoomError("bad_name", f"a name is at most {limit} characters")
    text = unicodedata.normalize("NFC", raw)
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch) not in DROPPED
    )
    return " ".join(kept.split())[:limit].strip()


def clean_name(raw: object) -> str:
    """A player's display name, cleaned (see the module docstring); may be empty."""
    return clean_text(raw, NAME_MAX)
