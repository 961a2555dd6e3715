"""The one place that speaks msgpack: rooms, views and wire frames all pass through here.

>>> unpack(pack({"t": "move", "seq": 3}))
{'t': 'move', 'seq': 3}
"""

from __future__ import annotations

from typing import Any

import msgpack


class DecodeError(ValueError):
    """Bytes that are not one well-formed msgpack value."""


_packer = msgpack.Packer(use_bin_type=True)


def pack(value: Any) -> bytes:
    """Encode plain data (dict, list, str, bytes, int, float, bool, None)."""
    return _packer.pack(value)


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
