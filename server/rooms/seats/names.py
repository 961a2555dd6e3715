"""Display names (and other short free text) from untrusted input.

A name is cleaned, never trusted (`visible_text`, which table talk's messages go through
too): NFC-normalized, every kind of white space made a plain space and runs of them
collapsed, control and format characters dropped (bidirectional overrides, zero-width
characters, Unicode tag characters, the soft hyphen, the byte order mark; a zero-width
joiner only stays between two characters it joins, as in an emoji sequence), and cut to
`NAME_MAX` characters. Input far longer than any name is refused outright rather than
cut. Markup is kept as the literal text it is: clients render names as text only.

>>> clean_name("  Ann\\x00\\u202e  <b>x</b>\\n")
'Ann <b>x</b>'
>>> clean_name("x" * 30) == "x" * NAME_MAX
True
>>> visible_text("\\u200b\\U000e0041 a\\u200d"), visible_text("Cafe\\u0301") == "Caf\\u00e9"
('a', True)
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


# Joins the characters either side of it into one (emoji sequences), else shows nothing.
ZWJ = "\u200d"


def _shown(ch: str) -> bool:
    return not ch.isspace() and unicodedata.category(ch) not in DROPPED


def visible_text(raw: str) -> str:
    """`raw` with only what shows (see the module docstring): NFC, white space made single
    spaces and trimmed, control and format characters dropped."""
    text = unicodedata.normalize("NFC", raw)
    kept: list[str] = []
    for i, ch in enumerate(text):
        if ch.isspace():
            kept.append(" ")
        elif ch == ZWJ:
            if kept and _shown(kept[-1]) and i + 1 < len(text) and _shown(text[i + 1]):
                kept.append(ch)
        elif unicodedata.category(ch) not in DROPPED:
            kept.append(ch)
    return " ".join("".join(kept).split())


def clean_text(raw: object, limit: int) -> str:
    """`raw` as safe short text of at most `limit` characters; RoomError if unusable."""
    if not isinstance(raw, str):
        raise RoomError("bad_name", "a name must be text")
    if len(raw) > INPUT_MAX:
        raise RoomError("bad_name", f"a name is at most {limit} characters")
    return visible_text(raw)[:limit].strip()


def clean_name(raw: object) -> str:
    """A player's display name, cleaned (see the module docstring); may be empty."""
    return clean_text(raw, NAME_MAX)
