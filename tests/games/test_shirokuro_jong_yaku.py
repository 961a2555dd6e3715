"""Shirokuro Jong yaku (RULINGS section 6, item 13): one test per yaku, plus S2, S6-S9."""

from __future__ import annotations

import random

from server.games.shirokuro_jong import GAME
from server.games.shirokuro_jong.hands import WinContext, best_score, parse_values
from server.games.shirokuro_jong.state import JongState
from tests.games.shirokuro_jong_support import pass_all, play, table

DISCARD0 = {"type": "discard", "index": 0}
PASS = {"type": "pass"}
DISC = "W3/B1 B6 B6 W6 W6 B2 B2 W4"  # an Oya hand whose first card shows W3
JUNK8 = "W6/B1 B6 B6 W1 W1 B2 B4 W6"
WAIT_W5 = "W2 W3 W4 B3 B3 B3 W5"  # wins with a W5 inserted at the end


def shape(hand: str, **ctx: object) -> dict[str, int]:
    """The yaku of the best reading of an 8-card concealed hand."""
    found = best_score(parse_values(hand), [], [], WinContext(**ctx))  # type: ignore[arg-type]
    assert found is not None, f"{hand} does not win"
    return dict(found[1])


def won(state: JongState) -> dict[str, int]:
    """The yaku of the first winner of the round just ended."""
    return {name: p for name, p in state.result["winners"][0]["yaku"]}


def oya_tsumo(hand: str, first_turn: bool = True, **kw: object) -> dict[str, int]:
    """Yaku of the Oya declaring Tsumo with `hand`, on the first turn or a later one."""
    state = table([hand, WAIT_W5], **kw)  # type: ignore[arg-type]
    if not first_turn:
        state.draws[0] = 3
    play(state, (0, {"type": "tsumo"}))
    return won(state)


def seat1_tsumo(pile: list[str] | None = None, draws: int = 0, **kw: object) -> dict[str, int]:
    """Yaku of seat 1 drawing W5 and declaring Tsumo after `draws` earlier draws."""
    state = table([JUNK8, WAIT_W5], pile=pile or ["W5"], **kw)  # type: ignore[arg-type]
    state.draws[1] = draws
    play(state, (0, DISCARD0))
    pass_all(state)
    play(state, (1, {"type": "insert", "index": 7, "up": "W"}), (1, {"type": "tsumo"}))
    return won(state)


def seat1_ron(draws: int = 0, **kw: object) -> dict[str, int]:
    """Yaku of seat 1 taking the Oya's W5 discard by Ron."""
    state = table(["W5/B1 B6 B6 W1 W1 B2 B4 W6", WAIT_W5], **kw)  # type: ignore[arg-type]
    state.draws[1] = draws
    play(state, (0, DISCARD0), (1, {"type": "ron"}))
    return won(state)


def test_yaku_oya() -> None:
    assert oya_tsumo("W1 W2 W3 B4 B4 B4 W5 W5", first_turn=False)["Oya"] == 1


def test_yaku_tsumo() -> None:
    assert seat1_tsumo(draws=2) == {"Tsumo": 1, "Tanyao": 1}


def test_yaku_dora_per_upright_indicator_value() -> None:
    assert shape("W2 W3 W4 B5 B5 B5 W6 W6", dora=frozenset(parse_values("W6 B5")))["Dora"] == 5


def test_yaku_chinitsu() -> None:
    assert shape("W1 W2 W3 W4 W4 W4 W5 W5") == {"Chin'itsu": 1}


def test_yaku_tanyao() -> None:
    assert shape("W2 W3 W4 B3 B3 B3 W5 W5") == {"Tanyao": 1}
    assert "Tanyao" not in shape("W2 W3 W4 B3 B3 B3 W6 W6")


def test_yaku_toitoi() -> None:
    assert shape("W1 W1 W1 B3 B3 B3 W5 W5") == {"Toitoi": 1}


def test_yaku_haitei() -> None:
    assert seat1_tsumo(draws=2, fill_pile=False)["Haitei"] == 1


def test_yaku_houtei() -> None:
    assert seat1_ron(draws=1, fill_pile=False)["Houtei"] == 1


def test_yaku_houtei_only_on_the_discard_after_the_last_draw() -> None:
    assert "Houtei" not in seat1_ron(draws=1, pile=["B6"], fill_pile=False)


def test_yaku_houtei_not_on_the_second_to_last_discard_in_play() -> None:
    # Issue 47: 3 seats, seed 1, random play until seat 2 may Ron with one card left.
    state = GAME.new(3, GAME.resolve_options({}), 1)
    driver, now = random.Random(1), 0
    while not any(a["type"] == "ron" for a in GAME.actions(state, 2)):
        legal = {s: acts for s in range(3) if (acts := GAME.actions(state, s))}
        if not legal:  # the claim window's minimum length
            now = GAME.deadline(state)
            GAME.expire(state, now)
            continue
        seat = driver.choice(sorted(legal))
        GAME.apply(state, seat, driver.choice(legal[seat]), now)
    assert len(state.pile) == 1
    GAME.apply(state, 2, {"type": "ron"}, now)
    GAME.expire(state, GAME.deadline(state))
    assert won(state) == {"Oya": 1, "Dora": 1, "Chin'itsu": 1}
    assert state.scores == [0, 0, 3]


def test_yaku_iipeikou() -> None:
    assert shape("W1 W2 W3 W1 W2 W3 B5 B5") == {"Iipeikou": 2}


def test_yaku_ikkitsuukan() -> None:
    assert shape("W1 W2 W3 W6 W5 W4 B5 B5") == {"Ikkitsuukan": 2}


def test_yaku_two_colour_doujun() -> None:
    assert shape("W2 W3 W4 B4 B3 B2 W1 W1") == {"Two-Colour Doujun": 4}


def test_yaku_two_colour_doukou() -> None:
    assert shape("W1 W1 W1 B1 B1 B1 W5 W5") == {"Toitoi": 1, "Two-Colour Doukou": 4}


def test_yaku_suutoitsu() -> None:
    assert shape("W1 W1 B2 B2 W6 W6 B4 B4") == {"Suutoitsu": 8}


def test_yaku_tenhou() -> None:
    found = oya_tsumo("W1 W2 W3 B4 B4 B4 W5 W5")
    assert found["Tenhou"] == 16 and "Chiihou" not in found


def test_yaku_chiihou() -> None:
    assert seat1_tsumo(draws=0)["Chiihou"] == 16


def test_yaku_renhou() -> None:
    assert seat1_ron(draws=0)["Renhou"] == 16


# -- worked examples and scoring ---------------------------------------------------------
def test_faq_two_upright_dora_cards_score_two() -> None:
    found = shape("W2 W3 W4 B4 B4 B4 W6 W6", dora=frozenset(parse_values("W6 B5")))
    assert found["Dora"] == 2


def test_item13_yaku_overlap_and_add_up() -> None:
    found = oya_tsumo("W2 W3 W4 W3 W3 W3 W5 W5", first_turn=False)
    assert found == {"Oya": 1, "Tsumo": 1, "Chin'itsu": 1, "Tanyao": 1}
    assert sum(found.values()) == 4


def test_item14_ron_takes_the_reading_that_scores_most() -> None:
    state = table(["W3/B1 B6 B6 W6 W6 B2 B2 W4", "B3 B3 B3 B1 B1 W3 W3"])
    state.draws[1] = 1
    play(state, (0, DISCARD0), (1, {"type": "ron"}))
    winner = state.result["winners"][0]
    assert winner["points"] == 5  # W3 upright makes Doukou (4) + Toitoi; B1 only Toitoi
    assert winner["hand"].count("W3/B1") == 1


# -- rulings -----------------------------------------------------------------------------
def test_s02_dora_needs_the_indicator_value_upright() -> None:
    assert "Dora" not in oya_tsumo("W5 W5 W5 B6 B6 B1 B2 B3", first_turn=False)
    assert oya_tsumo("W6 W6 W6 B5 B5 B1 B2 B3", first_turn=False)["Dora"] == 5


def test_s02_either_number_option_counts_both_numbers_in_either_colour() -> None:
    found = oya_tsumo("W5 W5 W5 B6 B6 B1 B2 B3", False, options={"dora": "either_number"})
    assert found["Dora"] == 5


def test_s06_iipeikou_needs_identical_shuntsu_unless_literal() -> None:
    assert "Iipeikou" not in shape("W1 W2 W3 W2 W3 W4 B5 B5")
    assert shape("W1 W2 W3 W2 W3 W4 B5 B5", literal=True)["Iipeikou"] == 2


def test_s06_ikkitsuukan_is_not_also_iipeikou() -> None:
    assert "Iipeikou" not in shape("W1 W2 W3 W4 W5 W6 B5 B5")


def test_s06_doujun_needs_the_same_numbers_unless_literal() -> None:
    assert "Two-Colour Doujun" not in shape("W1 W2 W3 B4 B3 B2 W5 W5")
    assert shape("W1 W2 W3 B4 B3 B2 W5 W5", literal=True)["Two-Colour Doujun"] == 4


def test_s07_suutoitsu_needs_a_concealed_hand() -> None:
    found = best_score(
        parse_values("W1 W1 B2 B2 W6"), [("k", 9)], parse_values("B4 B4 B4"), WinContext()
    )
    assert found is None


def test_s07_suutoitsu_allows_identical_pairs_and_never_toitoi() -> None:
    found = shape("W2 W2 W2 W2 W3 W3 W4 W4")
    assert found == {"Suutoitsu": 8, "Chin'itsu": 1, "Tanyao": 1}


def test_s08_a_call_cancels_tenhou_chiihou_and_renhou() -> None:
    state = table([JUNK8, WAIT_W5], pile=["W5"])
    state.called = True  # as after any Pon or Chii earlier in the round
    play(state, (0, DISCARD0))
    pass_all(state)
    play(state, (1, {"type": "insert", "index": 7, "up": "W"}), (1, {"type": "tsumo"}))
    assert "Chiihou" not in won(state)


def test_s08_a_real_pon_cancels_renhou() -> None:
    # Seat 1 Pons the Oya's W3 and discards W5; seat 2 has not drawn yet and takes it by
    # Ron, which without the Pon would be Renhou.
    state = table([DISC, "W3 W3 W5 B1 B4 W1 B5", WAIT_W5])
    play(state, (0, DISCARD0), (2, PASS), (1, {"type": "pon", "index": 0}))
    play(state, (1, DISCARD0), (0, PASS), (2, {"type": "ron"}))
    assert state.draws[2] == 0 and state.result["winners"][0]["seat"] == 2
    assert won(state) == {"Tanyao": 1}


def test_s08_a_real_chii_cancels_chiihou() -> None:
    # Seat 1 Chiis the Oya's W3, so its first draw comes on its second turn: a Tsumo then
    # would be Chiihou without the call.
    state = table([DISC, "W4 W5 B2 B2 B2 W1 B6"], pile=["W6/B4", "W1"])
    play(state, (0, DISCARD0), (1, {"type": "chii", "index": 0}))
    play(state, (1, {"type": "discard", "index": 4}), (0, PASS))
    play(state, (0, {"type": "insert", "index": 0, "up": "W"}), (0, DISCARD0))
    pass_all(state)
    play(state, (1, {"type": "insert", "index": 4, "up": "W"}), (1, {"type": "tsumo"}))
    assert state.draws[1] == 1 and won(state) == {"Tsumo": 1}


# The Oya's first discard leaves it waiting on W5 (W2 W3 W4, B3 B3 B3, W5 + W5).
OYA_WAIT_W5 = "B6/W1 W2 W3 W4 B3 B3 B3 W5"
NO_CLAIM7 = "W6 W6 B1 B2 B4 W1 B5"  # claims nothing the Oya discards below


def test_s08_the_oya_never_scores_chiihou() -> None:
    # The Oya's Tsumo on its first draw (its second turn) would be Chiihou for anyone else.
    state = table([OYA_WAIT_W5, NO_CLAIM7], pile=["W6/B2", "W5/B1"])
    play(state, (0, DISCARD0), (1, {"type": "insert", "index": 7, "up": "W"}))
    play(state, (1, {"type": "discard", "index": 7}))
    pass_all(state)
    play(state, (0, {"type": "insert", "index": 7, "up": "W"}), (0, {"type": "tsumo"}))
    assert state.draws[0] == 1 and won(state) == {"Oya": 1, "Tsumo": 1, "Tanyao": 1}


def test_s08_the_oya_never_scores_renhou() -> None:
    # The Oya's Ron before its first draw would be Renhou for anyone else.
    state = table([OYA_WAIT_W5, NO_CLAIM7], pile=["W5/B1"])
    play(state, (0, DISCARD0), (1, {"type": "insert", "index": 7, "up": "W"}))
    play(state, (1, {"type": "discard", "index": 7}), (0, {"type": "ron"}))
    assert state.draws[0] == 0 and won(state) == {"Oya": 1, "Tanyao": 1}


def test_s02_exposed_melds_count_for_dora_chinitsu_and_tanyao() -> None:
    # Seat 1 Pons, discards, then takes the Oya's W3 by Ron: W2 W3 W4 W3 W3 and the meld.
    def ron_after_pon(oya_hand: str, hand: str) -> dict[str, int]:
        state = table([oya_hand, hand], pile=["W3/B2"])
        play(state, (0, DISCARD0), (1, {"type": "pon", "index": 0}))
        play(state, (1, {"type": "discard", "index": 4}))
        pass_all(state)
        play(state, (0, {"type": "insert", "index": 0, "up": "W"}), (0, DISCARD0))
        play(state, (1, {"type": "ron"}))
        return won(state)

    # A B5 Koutsu: three Dora (indicator W6/B5), and the hand is no longer one colour.
    assert ron_after_pon("W1/B5 B6 B6 W1 W1 B2 B4 W6", "B5 B5 W2 W3 W4 W3 B4/W5") == {
        "Dora": 3,
        "Tanyao": 1,
    }
    # A W1 Koutsu: all white (Chin'itsu), but a 1 (no Tanyao).
    assert ron_after_pon("W1/B3 B6 B6 W6 W6 B2 B2 B4", "W1 W1 W2 W3 W4 W3 B4/W5") == {
        "Chin'itsu": 1
    }


def test_s06_the_yaku_reading_option_reaches_the_scorer() -> None:
    hand = "W1 W2 W3 W2 W3 W4 B1 B1"
    assert "Iipeikou" not in oya_tsumo(hand, first_turn=False)
    literal = oya_tsumo(hand, first_turn=False, options={"yaku_reading": "literal"})
    assert literal["Iipeikou"] == 2


def test_s09_a_win_with_no_yaku_is_allowed_and_scores_zero() -> None:
    state = table(["W3/B1 B6 B6 W6 W6 B2 B2 W4", "W1 W2 W4 W4 W4 B1 B1"])
    state.draws[1] = 1
    play(state, (0, DISCARD0), (1, {"type": "ron"}))
    assert state.result["winners"][0]["points"] == 0 and state.result["deltas"] == [0, 0]


def test_s11_no_kan_or_riichi_moves_exist() -> None:
    state = GAME.new(3, {}, 9)
    kinds = {a["type"] for s in range(3) for a in GAME.actions(state, s)}
    assert kinds <= {"rotate", "discard", "tsumo"}
