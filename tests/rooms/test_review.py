"""感想戦: the review of a finished match (server/rooms/history/review.py, archive.py).

Matches are played in real rooms (two human seats held by one seeded random player, the
rest CPUs), then reviewed through the archive. The agreement rates are recomputed here
from the players' match file alone (engine + `advise`, not the review's code), and what
each viewer is sent is checked for cards and moves it may not see.
"""

from __future__ import annotations

import json
import re

import pytest

from server.games import registry
from server.rooms.errors import RoomError
from server.rooms.history import review
from server.rooms.history.archive import Archive
from tests.browser.recorded_match import canonical
from tests.rooms.helpers import Env
from tests.rooms.review_support import GAMES, HUMANS, finished_room, recomputed_rates


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_agreement_rates_equal_a_recomputation_from_the_match_file(
    env: Env, game_id: str
) -> None:
    code, tokens = await finished_room(env, game_id, seed=11)
    archive = Archive(env.store, registry.get)
    data = await archive.match_file(code, 1, tokens[0])
    shown = await archive.review(code, 1, tokens[0], "open")
    counts = recomputed_rates(data)
    assert [p["seat"] for p in shown["players"]] == list(HUMANS)
    for player in shown["players"]:
        agreed, moves = counts[player["seat"]]
        assert moves > 0 and (player["agreed"], player["moves"]) == (agreed, moves)
        assert player["rate"] == round(agreed / moves, 4)
        differ = [m for m in shown["marks"] if m["seat"] == player["seat"] and not m["agree"]]
        assert set(player["largest"]) <= {m["step"] for m in differ}
        assert len(player["largest"]) == min(review.LARGEST, len(differ))
    for mark in shown["marks"]:
        if mark["agree"] is False:
            assert mark["cpu"] != data["inputs"][mark["step"] - 1]["a"]
            assert set(mark["why"]) == {"en", "ja"} and 0 < mark["size"] <= 1


async def test_each_viewer_sees_only_the_cpu_moves_of_the_seat_it_looks_from(env: Env) -> None:
    code, tokens = await finished_room(env, "kokuto_rum", seed=5)
    archive = Archive(env.store, registry.get)
    full = await archive.review(code, 1, tokens[0], "open")
    differences = [m for m in full["marks"] if m["agree"] is False]
    assert {m["seat"] for m in differences} == set(HUMANS)  # both seats have some to hide
    replayer = archive.replay(code, await archive.history(code), 1).replayer
    card = re.compile(r"[WB][1-6]/[WB][1-6]")

    def cards(text: str) -> set[str]:  # one text per card, whichever end is written first
        return {canonical("kokuto_rum", c) for c in card.findall(text)}

    views = {i: cards(json.dumps(replayer.step(i, s, 0)["view"])) for i, s in replayer.states(0)}
    for asked, me in (("0", 0), ("spectator", None)):
        seen = await archive.review(code, 1, tokens[0] if me is not None else None, asked)
        for mark in seen["marks"]:
            if mark["seat"] == me:
                continue
            assert not set(mark) & {"cpu", "card", "why"}, mark
            if mark["agree"] is False:
                assert ("size" in mark) == (me is not None)
        for mark in seen["marks"]:
            # Every card a mark names was in the viewer's own view just before the move.
            for named in cards(json.dumps(mark)):
                assert me is not None and named in views[mark["step"] - 1], (named, mark)
        assert seen["players"] == full["players"]  # the rates are public


async def test_a_review_is_made_once_and_kept_in_the_store(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, tokens = await finished_room(env, "utsuke", seed=3)
    made = []
    analyse = review.analyse
    monkeypatch.setattr(review, "analyse", lambda *a: made.append(1) or analyse(*a))
    first = await Archive(env.store, registry.get).review(code, 1, tokens[0], "0")
    # Another process (a fresh archive) reads it from the store, not making it again.
    again = await Archive(env.store, registry.get).review(code, 1, tokens[1], "0")
    assert made == [1] and first == again
    with pytest.raises(RoomError, match="bad_token"):
        await Archive(env.store, registry.get).review(code, 1, "not-a-seat", "0")
    with pytest.raises(RoomError, match="match_not_found"):
        await Archive(env.store, registry.get).review(code, 2, tokens[0], "0")
