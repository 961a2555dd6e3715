"""Shirokuro Jong hidden information (RULINGS section 6) and a golden transcript.

The transcript was regenerated for RULINGS S13 and S14 (2026-12-01): the server passes
for seats with no claim, windows last a uniform minimum, and the Dora indicator is
turned up after the rotation choices. Regenerate it after an intended rules change with
``ZASHIKI_REGEN_GOLDEN=1 python -m pytest tests/games/test_shirokuro_jong_views.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any

from server.games.shirokuro_jong import GAME
from tests.games.golden import golden
from tests.games.shirokuro_jong_support import close_window, pass_all, play, table, texts

DISCARD0 = {"type": "discard", "index": 0}
JUNK8 = "W6/B1 B6 B6 W1 W1 B2 B4 W6"
WAIT_W5 = "W2 W3 W4 B3 B3 B3 W5"


def test_hidden_own_hand_in_order_with_orientation() -> None:
    state = table(["W1/B2 B3/W1 W4 W4 W4 B5 B5 B6", WAIT_W5])
    assert GAME.view(state, 0)["hand"] == texts(state, 0).split()
    assert GAME.view(state, 0)["hand"][:2] == ["W1/B2", "B3/W1"]


def test_hidden_other_hands_and_the_pile_are_not_shown() -> None:
    state = GAME.new(3, {}, 3)
    other = GAME.shuffle_unseen(state, 0, random.Random(1))
    assert texts(other, 1) != texts(state, 1) or other.pile != state.pile
    assert GAME.view(other, 0) == GAME.view(state, 0)
    assert "hand" not in GAME.view(state, None)
    assert GAME.view(state, 0)["pile"] == len(state.pile)


def test_hidden_the_drawn_card_is_shown_only_to_its_drawer() -> None:
    state = table([JUNK8, WAIT_W5], pile=["W5/B2"])
    play(state, (0, DISCARD0))
    pass_all(state)
    assert GAME.view(state, 1)["drawn"] == "W5/B2"
    assert GAME.view(state, 0)["drawn"] is None


def test_hidden_public_rows_melds_dora_pile_oya_and_scores() -> None:
    state = table(["W3/B1 B6 B6 W6 W6 B2 B2 W4", "W3 W3 B5 W1 B4 W5 B1"], dora="W6/B5")
    play(state, (0, {"type": "discard", "index": 7}))  # seat 1 cannot claim: passed
    play(state, (1, {"type": "insert", "index": 0, "up": "W"}), (1, DISCARD0))
    spectator = GAME.view(state, None)
    assert [len(row) for row in spectator["discards"]] == [1, 1]
    for key in ("discards", "melds", "dora", "pile", "oya", "scores", "hand_sizes"):
        assert spectator[key] == GAME.view(state, 0)[key] == GAME.view(state, 1)[key]
    assert spectator["dora"] == "W6/B5" and spectator["oya"] == 0
    assert spectator["scores"] == [0, 0] and spectator["pile"] == len(state.pile)


def test_s13_a_claim_window_opens_after_every_discard_for_a_uniform_minimum() -> None:
    state = table([JUNK8, WAIT_W5, "B2 B4 W1 W3 B6 W5 W5"])
    GAME.apply(state, 0, DISCARD0, 5000)
    # Nobody can claim: the server passed for both, yet the window stays open 1 s.
    assert state.phase == "claim" and state.pending == []
    assert GAME.actions(state, 1) == [] and GAME.view(state, 1)["waiting_for_me"] is False
    assert GAME.deadline(state) == 6000 and GAME.expire(state, 5999) == []
    assert GAME.expire(state, 6000)[-1]["type"] == "drew"


def test_s13_the_window_ends_when_every_seat_that_may_claim_has_answered() -> None:
    state = table(
        ["W3/B1 B6 B6 W6 W6 B2 B2 W4", "W3 W3 B5 W1 B4 W5 B1", WAIT_W5],
        options={"claim_timeout_ms": 15000},
    )
    GAME.apply(state, 0, DISCARD0, 0)
    assert state.pending == [1] and state.answers[2] == {"type": "pass"}
    assert GAME.view(state, 1)["claim_deadline"] == 15000
    assert GAME.deadline(state) == 15000  # a seat may still claim: the timeout holds
    assert GAME.apply(state, 1, {"type": "pass"}, 400) == []  # before the minimum
    assert GAME.deadline(state) == 1000
    assert GAME.expire(state, 1000)[-1]["type"] == "drew"
    state = table(["W3/B1 B6 B6 W6 W6 B2 B2 W4", "W3 W3 B5 W1 B4 W5 B1", WAIT_W5])
    GAME.apply(state, 0, DISCARD0, 0)
    events = GAME.apply(state, 1, {"type": "pon", "index": 0}, 2500)  # after it: at once
    assert events[-1]["type"] == "pon"


def test_hidden_a_claim_answer_is_seen_only_by_its_seat() -> None:
    state = table(["W3/B1 B6 B6 W6 W6 B2 B2 W4", "W3 W3 B5 W1 B4 W5 B1", WAIT_W5])
    GAME.apply(state, 0, DISCARD0, 0)
    before = GAME.view(state, 2)
    GAME.apply(state, 1, {"type": "pon", "index": 0}, 0)  # the window's minimum still runs
    assert GAME.view(state, 1)["claim_answer"] == {"type": "pon", "index": 0}
    assert GAME.view(state, 2) == before


def test_hidden_the_rotation_choice_is_secret() -> None:
    state = GAME.new(2, {"rotation": True}, 8)
    before = GAME.view(state, 1)
    play(state, (0, {"type": "rotate", "flip": True}))
    assert GAME.view(state, 1) == before
    assert GAME.view(state, 0)["rotation"] is True


def test_hidden_the_winning_hand_is_revealed() -> None:
    state = table([JUNK8, WAIT_W5], pile=["W5"])
    play(state, (0, DISCARD0))
    pass_all(state)
    play(state, (1, {"type": "insert", "index": 7, "up": "W"}), (1, {"type": "tsumo"}))
    shown = GAME.view(state, 0)["result"]["winners"][0]["hand"]
    assert shown == texts(state, 1).split()


def test_hidden_a_drawn_round_reveals_only_tenpai_hands() -> None:
    state = table(["W6/B1 B6 B2 W1 W3 B4 B5 W5", WAIT_W5], pile=["W1/B6"], fill_pile=False)
    play(state, (0, DISCARD0))
    pass_all(state)
    play(
        state, (1, {"type": "insert", "index": 7, "up": "B"}), (1, {"type": "discard", "index": 7})
    )
    pass_all(state)
    shown = GAME.view(state, None)["result"]["tenpai"]
    assert [t["seat"] for t in shown] == [1] and shown[0]["hand"] == texts(state, 1).split()
    other = GAME.shuffle_unseen(state, None, random.Random(2))
    assert texts(other, 1) == texts(state, 1)  # a revealed hand is no longer unseen


def test_hidden_sampled_worlds_forget_other_seats_answers() -> None:
    state = table(["W3/B1 B6 B6 W6 W6 B2 B2 W4", "W3 W3 B5 W1 B4 W5 B1", WAIT_W5])
    GAME.apply(state, 0, DISCARD0, 0)
    GAME.apply(state, 1, {"type": "pon", "index": 0}, 0)
    for seed in range(8):
        world = GAME.shuffle_unseen(state, 2, random.Random(seed))
        # Re-asked in the world, or passed by the server where it has no claim there.
        can_claim = len(world.claim_opts[1]) > 1
        assert world.answers[1] == (None if can_claim else {"type": "pass"})
        assert (1 in world.pending) == can_claim


# -- golden transcript -------------------------------------------------------------------
def transcript() -> dict[str, Any]:
    """A whole seeded 3-seat match: every move, its events, and the final outcome."""
    state = GAME.new(3, {}, 7)
    driver = random.Random(7)
    moves: list[Any] = []
    now = 0
    while GAME.outcome(state) is None:
        legal = {s: a for s in range(3) if (a := GAME.actions(state, s))}
        if not legal:  # S13: every seat answered, the window closes after its minimum
            now = max(now, GAME.deadline(state))
            moves.append([None, None, GAME.expire(state, now)])
            continue
        seat = driver.choice(sorted(legal))
        wins = [a for a in legal[seat] if a["type"] in ("ron", "tsumo")]
        action = wins[0] if wins else driver.choice(legal[seat])
        now += 100
        moves.append([seat, action, GAME.apply(state, seat, action, now)])
    return {"game": GAME.id, "seats": 3, "seed": 7, "moves": moves, "outcome": GAME.outcome(state)}


def test_golden_transcript_of_a_seeded_match() -> None:
    got = json.loads(json.dumps(transcript()))
    assert got == golden("shirokuro_jong_3seats_seed7.json", lambda: got)


def test_a_finished_round_names_the_seats_it_waits_for() -> None:
    state = GAME.new(3, {}, 7)
    pick = random.Random(7)
    while state.phase != "round_over":
        assert GAME.view(state, None)["next_pending"] == []
        seat = next((s for s in range(3) if GAME.actions(state, s)), None)
        if seat is None:  # S13: every seat answered, the window closes after its minimum
            close_window(state)
            continue
        GAME.apply(state, seat, pick.choice(GAME.actions(state, seat)), 0)
    assert GAME.view(state, None)["next_pending"] == [0, 1, 2]
    GAME.apply(state, 1, {"type": "next"}, 0)
    assert GAME.view(state, 0)["next_pending"] == [0, 2]


def test_s14_the_dora_indicator_is_turned_up_after_the_rotation_choices() -> None:
    state = GAME.new(2, {"rotation": True}, 8)
    assert [GAME.view(state, s)["dora"] for s in (0, 1, None)] == [None] * 3
    events = play(state, (0, {"type": "rotate", "flip": False}))
    assert GAME.view(state, 1)["dora"] is None and not any(e["type"] == "dora" for e in events)
    events = play(state, (1, {"type": "rotate", "flip": True}))
    shown = GAME.view(state, None)["dora"]
    assert shown is not None and {"type": "dora", "dora": shown} in events


def dealt_next_round(rotation: bool) -> tuple[Any, dict[str, Any]]:
    """A 2-seat match played at random to the end of round 1, then dealt again: the
    state and the "dealt" event of round 2."""
    state = GAME.new(2, {"rotation": rotation}, 8)
    pick = random.Random(8)
    while state.phase != "round_over":
        seat = next((s for s in range(2) if GAME.actions(state, s)), None)
        if seat is None:
            close_window(state)
            continue
        GAME.apply(state, seat, pick.choice(GAME.actions(state, seat)), 0)
    events = play(state, (0, {"type": "next"}), (1, {"type": "next"}))
    return state, next(e for e in events if e["type"] == "dealt")


def test_s14_the_dealt_event_shows_no_dora_while_seats_choose_their_rotation() -> None:
    state, dealt = dealt_next_round(rotation=True)
    assert state.phase == "rotate" and dealt["dora"] is None
    state, dealt = dealt_next_round(rotation=False)  # no choice to wait for: shown at once
    assert dealt["dora"] is not None and dealt["dora"] == GAME.view(state, None)["dora"]
