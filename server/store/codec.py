"""The one place that speaks msgpack: rooms, views and wire frames all pass through here.

>>> unpack(pack({"t": "move", "seq": 3}))
{'t': 'move', 'seq': 3}
>>> unpack(pack_map({"t": "view"}, pack_entries({"room": "AB", "seq": 3}), 2))
{'t': 'view', 'room': 'AB', 'seq': 3}
"""

from __future__ import annotations

from typing import Any

import msgpack
import ormsgpack


class DecodeError(ValueError):
    """Bytes that are not one well-formed msgpack value."""


# Packing is the hot path (four views and a save per move): ormsgpack writes the same
# bytes as msgpack's Packer(use_bin_type=True) in about 40 % of the time. Integer map
# keys (seats) need its non-str-keys option. Unpacking stays msgpack's: it refuses
# trailing bytes and unhashable keys, which ormsgpack accepts.
_packb = ormsgpack.packb
_OPTIONS = ormsgpack.OPT_NON_STR_KEYS
FIXMAP_MAX = 15  # a msgpack map of up to 15 entries has a one-byte header: 0x80 | count
# Those headers made once: bytes((0x80 | n,)) is a generic call, at every packed view.
_FIXMAP_HEADERS = [bytes((0x80 | n,)) for n in range(FIXMAP_MAX + 1)]


def pack(value: Any) -> bytes:
    """Encode plain data (dict, list, str, bytes, int, float, bool, None)."""
    return _packb(value, option=_OPTIONS)


def pack_entries(mapping: dict[Any, Any]) -> bytes:
    """The packed entries of a map of at most FIXMAP_MAX entries, without its header.

    Splice them into a larger map with `pack_map`: msgpack map entries simply follow
    the header, which holds the count.
    """
    if len(mapping) > FIXMAP_MAX:
        raise ValueError("only maps of at most 15 entries can be spliced")
    return _packb(mapping, option=_OPTIONS)[1:]


def pack_map(mapping: dict[Any, Any], entries: bytes, count: int) -> bytes:
    """`mapping` packed with `count` more entries from `pack_entries` (keys distinct).

    >>> len(unpack(pack_map({i: i for i in range(15)}, pack_entries({"x": 1}), 1)))
    16
    """
    packed = _packb(mapping, option=_OPTIONS)
    size, total = len(mapping), len(mapping) + count
    # Past 15 entries a map's header is 0xde and a two-byte count (msgpack's map 16).
    body = packed[1:] if size <= FIXMAP_MAX else packed[3:]
    if total <= FIXMAP_MAX:
        return _FIXMAP_HEADERS[total] + body + entries
    return b"\xde" + total.to_bytes(2, "big") + body + entries


def unpack(data: bytes) -> Any:
    """Decode one msgpack value; raises DecodeError on anything malformed.

    Callers bound the size of `data`; msgpack bounds every length inside it by that.
    """
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False)
    except (
        ValueError,
        TypeError,
        msgpack.ExtraData,
        msgpack.FormatError,
        msgpack.StackError,
    ) as exc:
        raise DecodeError(str(exc)) from exc
