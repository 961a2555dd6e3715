"""The codec packs with ormsgpack: its bytes must be msgpack's own, on every kind of value
the server sends or stores, so clients and stored rooms see no change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgpack
import pytest

from server.store import codec

GOLDEN = Path(__file__).resolve().parents[1] / "games" / "golden"
REFERENCE = msgpack.Packer(use_bin_type=True)

EDGES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    -32,
    -33,
    127,
    128,
    255,
    256,
    65535,
    65536,
    2**32 - 1,
    2**32,
    2**63 - 1,
    2**64 - 1,
    -(2**31),
    -(2**63),
    0.5,
    -1e300,
    "",
    "a" * 31,
    "a" * 32,
    "a" * 255,
    "a" * 256,
    "あ" * 30000,
    b"",
    b"x" * 255,
    b"x" * 256,
    b"x" * 70000,
    list(range(15)),
    list(range(16)),
    list(range(70000)),
    (1, "two"),
    {i: i for i in range(15)},
    {i: str(i) for i in range(16)},
    {"legal": {0: [{"type": "mark", "card": "S1"}], 3: []}, "seqs": {1: 4}},
]


@pytest.mark.parametrize("value", EDGES, ids=lambda v: type(v).__name__)
def test_edge_values_pack_as_msgpack_does(value: Any) -> None:
    assert codec.pack(value) == REFERENCE.pack(value)


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_every_games_views_and_states_pack_as_msgpack_does(path: Path) -> None:
    transcript = json.loads(path.read_text())
    assert codec.pack(transcript) == REFERENCE.pack(transcript)
    assert codec.unpack(codec.pack(transcript)) == transcript


def test_spliced_view_frames_are_the_plain_frame() -> None:
    shared = {"room": {"code": "AB"}, "seats": [{"kind": "human"}], "events": []}
    own = {"t": "view", "version": 3, "view": {"hand": ["S1"]}, "legal": {1: []}}
    spliced = codec.pack_map(own, codec.pack_entries(shared), len(shared))
    assert codec.unpack(spliced) == {**own, **shared}
