"""Utsuke rulings T1-T10 of RULINGS section 3, one test (or a few) each."""

from __future__ import annotations

import random

import pytest

from server.games.contract import IllegalAction
from server.games.rng import Rng
from server.games.utsuke import GAME, UtsukeState
from server.games.utsuke.cards import CARDS, colour, sort_cards
from server.games.utsuke.scoring import judge_guesses, standings
from tests.games.utsuke_support import chip_deal, guess_all, play, play_out, played, rigged


def random_match(seats: int, seed: int) -> list[tuple[UtsukeState, list[dict]]]:
    """A seeded random match: (state after, events) for every move."""
    rng = random.Random(seed)
    state = GAME.new(seats, GAME.resolve_options({}), seed)
    steps = []
    while GAME.outcome(state) is None:
        seat = rng.choice([s for s in range(seats) if GAME.actions(state, s)])
        events = GAME.apply(state, seat, rng.choice(GAME.actions(state, seat)), 0)
        steps.append((state, events))
    return steps


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_t1_the_whole_deck_is_dealt_out_with_nothing_left_over(seats: int) -> None:
    state = GAME.new(seats, GAME.resolve_options({}), seats)
    sizes = {len(h) for h in state.hands}
    assert len(sizes) == 1 and sum(len(h) for h in state.hands) == 60


def test_t2_a_guess_is_one_integer_from_0_to_15() -> None:
    state = GAME.new(3, GAME.resolve_options({}), 0)
    GAME.apply(state, 0, {"type": "guess", "value": 13}, 0)  # cards 8 + 4 + 1 under the 0
    assert state.guesses[0] == 13 and GAME.view(state, 0)["guess"] == 13


def test_t3_a_guess_above_the_hand_size_is_allowed_and_can_win_as_closest() -> None:
    state = GAME.new(5, GAME.resolve_options({}), 0)  # 10 cards a hand
    GAME.apply(state, 0, {"type": "guess", "value": 15}, 0)
    assert judge_guesses([11, 9], 10) == [1, 0]


def test_t4_npc_rows_are_shown_in_one_canonical_order_to_every_seat() -> None:
    state = GAME.new(2, GAME.resolve_options({}), 9)
    rows = {
        (tuple(v["lord"]), tuple(v["prince"]))
        for v in map(lambda s: GAME.view(state, s), [0, 1, None])
    }
    assert rows == {(tuple(state.hands[2]), tuple(state.hands[3]))}


def test_t4_npc_rows_keep_the_order_they_were_dealt_in() -> None:
    # lord_seat 0 draws nothing before the deal, so the deal is the first shuffle.
    state = GAME.new(2, GAME.resolve_options({"lord_seat": 0}), 9)
    deck = list(CARDS)
    Rng.from_seed(9).shuffle(deck)
    lord, prince = deck[30:45], deck[45:]  # hands 2 and 3 of four 15-card hands
    assert lord != sort_cards(lord) and prince != sort_cards(prince)
    view = GAME.view(state, 0)
    assert (view["lord"], view["prince"]) == (lord, prince)
    guess_all(state, [0, 0])
    while not state.history:
        play(state, state.turn(), GAME.actions(state, state.turn())[0]["card"])
    gone = {c for _, c in state.history[0][1] + state.trick}
    view = GAME.view(state, 1)
    assert view["lord"] == [c for c in lord if c not in gone]
    assert view["prince"] == [c for c in prince if c not in gone]


def test_t5_lord_leads_leftmost_on_trick_one_and_its_chip_card_afterwards() -> None:
    state = chip_deal()
    events = play(state, 2, "R4")
    assert played(events)[-1] == ["lord", "B9"]
    assert GAME.view(state, None)["trump"] == colour("B9")


def test_t5_every_later_lord_lead_is_a_trump_in_random_matches() -> None:
    checked = 0
    for seed in range(3):
        lead = None
        for _, events in random_match(4, seed):
            for e in events:
                if e["type"] in ("tricks_begin", "trick"):
                    if e["type"] == "trick" and lead and lead[0] == "lord" and not lead[2]:
                        assert colour(lead[1]) == e["trump"]
                        checked += 1
                    first = e["type"] == "tricks_begin"
                    lead = None
                elif e["type"] == "played" and lead is None:
                    lead = (e["by"], e["card"], first)
    assert checked > 0


def test_t6_a_trump_colour_card_follows_as_its_own_colour() -> None:
    state = rigged([["B1", "R2"], ["Y1", "Y2"], ["Y3", "Y4"]], ["B5", "B4"])
    guess_all(state, [0, 0, 0])  # the Lord leads B5, the trump colour: B1 must follow it
    assert GAME.actions(state, 0) == [{"type": "play", "card": "B1"}]


def test_t6_a_player_holding_the_led_colour_cannot_trump_instead() -> None:
    state = rigged([["G2", "B12"], ["Y1", "Y2"], ["Y3", "Y4"]], ["G5", "B4"])
    guess_all(state, [0, 0, 0])
    with pytest.raises(IllegalAction, match="must_follow"):
        play(state, 0, "B12")


def prince_deal() -> UtsukeState:
    """Two players, table 0, Lord, 1, Prince; the Prince holds Y3 and Y8."""
    return rigged([["R1", "R2"], ["G1", "G2"]], ["Y1", "B9"], prince=["Y3", "Y8"], lord_seat=1)


def test_t7_lord_leads_trick_one_at_two_players() -> None:
    state = prince_deal()
    assert played(guess_all(state, [0, 0])) == [["lord", "Y1"]]


def test_t7_prince_follows_with_its_highest_card_of_the_led_colour() -> None:
    state = prince_deal()
    guess_all(state, [0, 0])
    assert played(play(state, 1, "G1")) == [[1, "G1"], ["prince", "Y8"]]


def test_t7_prince_leads_its_rightmost_card_after_winning() -> None:
    state = prince_deal()
    guess_all(state, [0, 0])
    play(state, 1, "G1")
    events = play(state, 0, "R1")
    assert [e["winner"] for e in events if e["type"] == "trick"] == ["prince"]
    assert played(events)[-1] == ["prince", "Y3"]


def test_t7_chip_sits_only_on_the_lords_row() -> None:
    state = prince_deal()
    view = GAME.view(state, 0)
    assert view["chip"] == "B9" and view["trump"] == "B" and view["chip"] not in view["prince"]


def test_t7_only_the_lords_tricks_are_guessed_and_compared() -> None:
    # The Prince takes both tricks; the Lord none. Seat 1 guessed the Prince's count (2).
    state = rigged([["P1", "P2"], ["R1", "R2"]], ["Y1", "Y2"], prince=["Y11", "Y12"], lord_seat=1)
    guess_all(state, [0, 2])
    play_out(state)
    last = state.last_round
    assert (last["lord_tricks"], last["prince_tricks"]) == (0, 2)
    assert last["homare"] == [2, 0] and last["uchikubi"] == [0, 0]


def test_t8_npc_cards_are_played_by_the_engine_never_by_a_seat() -> None:
    for state, _ in random_match(2, 4):
        assert state.turn() is None or state.turn() < 2
    state = prince_deal()
    guess_all(state, [0, 0])
    for npc in (2, 3):
        with pytest.raises(IllegalAction):
            GAME.apply(state, npc, {"type": "play", "card": "Y8"}, 0)


def execution_without_winner(end_rule: str) -> UtsukeState:
    """Seat 0 (one Uchikubi already) takes the only trick; seats 0 and 1 guess it right."""
    state = rigged([["G9"], ["R1"], ["P1"]], ["G5"], end_rule=end_rule)
    state.uchikubi = [1, 0, 0]
    guess_all(state, [0, 0, 1])
    play_out(state)
    return state


def test_t9_executed_players_lose_and_survivors_are_ranked_by_homare() -> None:
    result = GAME.outcome(execution_without_winner("ranked"))
    assert result["losers"] == [0] and result["places"] == [3, 1, 2]
    assert result["winners"] == [1]


def test_t9_survivors_are_ranked_by_fewer_uchikubi_on_equal_homare() -> None:
    assert standings([1, 1, 1], [2, 1, 0], "ranked")["places"] == [3, 2, 1]


def test_t9_option_lets_every_survivor_share_the_win() -> None:
    result = GAME.outcome(execution_without_winner("survivors_share"))
    assert result["places"] == [3, 1, 1] and result["winners"] == [1, 2]
    assert GAME.resolve_options({})["end_rule"] == "ranked"


def test_t9_an_executed_player_with_three_homare_is_no_winner_for_the_option() -> None:
    # Seat 0 is executed holding 3 Homare: nobody won, so every survivor shares first.
    result = standings([3, 1, 0], [2, 0, 0], "survivors_share")
    assert result is not None and result["places"] == [3, 1, 1]
    assert result["winners"] == [1, 2] and result["losers"] == [0]


def test_t10_first_lord_position_can_be_chosen_by_the_host() -> None:
    state = GAME.new(4, GAME.resolve_options({"lord_seat": 2}), 0)
    table = GAME.view(state, None)["table"]
    assert table[table.index("lord") + 1] == 2  # the Lord sits just right of seat 2


def test_t10_first_lord_position_is_random_by_default() -> None:
    firsts = set()
    for seed in range(30):
        table = GAME.view(GAME.new(5, GAME.resolve_options({}), seed), None)["table"]
        firsts.add(table[(table.index("lord") + 1) % 6])
    assert GAME.resolve_options({})["lord_seat"] == "random" and len(firsts) > 1


def test_t10_a_chosen_seat_must_exist() -> None:
    with pytest.raises(IllegalAction, match="bad_option"):
        GAME.new(3, GAME.resolve_options({"lord_seat": 4}), 0)
