"""Each game's helper lines (issue 45), checked against the engine's own scoring and state.

Positions come from seeded matches played by the games' Normal CPUs. Jong's waits are
checked against `is_win`, its yaku and points against the engine's Ron and Tsumo
scoring; Kokuto's scores against the round end the engine scores when the line's knock
is made, and its scorer on the hand the line's move leaves; the other games' lines
against the engine's state. Every line is in English and Japanese with no raw key, and
depends on the seat's view alone.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from server.bots.registry import policy_for
from server.games import registry
from server.games.contract import Game
from server.games.kokuto_rum import scoring
from server.games.kokuto_rum.state import tables as kokuto_tables
from server.games.rng import Rng
from server.games.shirokuro_jong import rules as jong_rules
from server.games.shirokuro_jong.hands import insertions, is_win, text
from tests.bench.bot_arena import situation
from tests.games.kokuto_rum_support import do, position
from tests.games.shirokuro_jong_support import pass_all, play, table

IDS = {
    "tenpai",
    "yaku",
    "no_yaku",
    "knock",
    "rotation",
    "gap",
    "lord_tricks",
    "target",
    "team_points",
    "closest_four",
}
SEATS = {
    "usunoro": 4,
    "hachinin_meri": 8,
    "utsuke": 5,
    "junocos": 4,
    "kokuto_rum": 3,
    "shirokuro_jong": 3,
}
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
RAW = re.compile(r"[{}]|\b[a-z]+_[a-z_]+\b|\bNone\b")


def positions(
    game_id: str,
    seats: int,
    seed: int,
    moves: int,
    options: dict[str, Any] | None = None,
    random_moves: bool = False,
) -> Iterator[tuple[Game, Any]]:
    """The states of a seeded match, one per move, up to `moves`: played by Normal CPUs
    (the lowest seat with a move moves), or with `random_moves` by a random seat's
    uniformly random move, which reaches what the CPUs avoid (a Pon when Ron is offered)."""
    game = registry.get(game_id)
    state = game.new(seats, game.resolve_options(options), seed)
    policy = policy_for(game_id)
    rngs = [Rng.from_seed(seed * 31 + s) for s in range(seats)]
    worlds = random.Random(seed)
    now = 0
    for _ in range(moves):
        if game.outcome(state) is not None:
            return
        yield game, state
        movers = [s for s in range(seats) if game.actions(state, s)]
        if movers:
            s = worlds.choice(movers) if random_moves else movers[0]
            legal = game.actions(state, s)
            if random_moves:
                action = worlds.choice(legal)
            else:
                decision = policy.decide(situation(game, state, s, "normal", rngs[s], worlds))
                action = decision.action if decision and decision.action in legal else legal[0]
            now += 700
            game.apply(state, s, action, now)
            continue
        due = game.deadline(state)
        if due is None:
            return
        now = max(now, due)
        game.expire(state, now)


def lines_of(game: Game, state: Any, seat: int) -> list[dict[str, Any]]:
    """The seat's helper lines, each checked for shape, languages and its move."""
    lines = game.helpers(game.view(state, seat))
    legal = game.actions(state, seat)
    for line in lines:
        assert set(line) <= {"id", "en", "ja", "move", "short"}, line
        # A line's short figure (the table's badge at its move) comes with its move only.
        assert ("short" in line) <= ("move" in line), line
        assert line["id"] in IDS, line
        for lang in ("en", "ja"):
            assert isinstance(line[lang], str) and line[lang].strip(), line
            assert not RAW.search(line[lang]), line
        assert JAPANESE.search(line["ja"]), line
        if "move" in line:
            assert line["move"] in legal, line
        if "short" in line:
            assert short_figure(line) == line_figure(line), line
    return lines


def short_figure(line: dict[str, Any]) -> int:
    """The number in a line's short figure, the same in both languages."""
    (en,) = re.findall(r"\d+", line["short"]["en"])
    (ja,) = re.findall(r"\d+", line["short"]["ja"])
    assert en == ja, line
    return int(en)


def line_figure(line: dict[str, Any]) -> int:
    """The figure the line's sentence gives for its move."""
    score = r"hand score (\d+)"
    pattern = {"rotation": score, "gap": score, "knock": r"deadwood (\d+)"}
    if line["id"] in pattern:
        return number(pattern[line["id"]], line)
    points = win_points(line)
    assert points is not None, line
    return points


def number(pattern: str, line: dict[str, Any]) -> int:
    """The number a pattern finds in the line's English."""
    found = re.search(pattern, line["en"])
    assert found, line
    return int(found.group(1))


# -- Shirokuro Jong -----------------------------------------------------------------------
def value_name(v: int) -> str:
    """A value as the lines name it in English ("White 5")."""
    return f"{'White' if text(v)[0] == 'W' else 'Black'} {text(v)[1]}"


def win_points(line: dict[str, Any]) -> int | None:
    """Points a yaku line gives, 0 for no yaku, None for a win the room would refuse."""
    if line["id"] == "yaku":
        return number(r"scores (\d+) point", line)
    return 0 if "would score 0" in line["en"] else None


def line_on(lines: list[dict[str, Any]], v: int) -> dict[str, Any] | None:
    """The line about a win on value v."""
    found = [x for x in lines if x["en"].startswith(f"A win on {value_name(v)} ")]
    found += [x for x in lines if f"a win on {value_name(v)} " in x["en"]]
    return found[0] if found else None


def check_jong(game: Game, state: Any, seat: int) -> int:
    """Check one seat's Jong lines against the engine; the number of checks made."""
    lines = lines_of(game, state, seat)
    if state.phase not in ("insert", "discard", "claim"):
        assert lines == []
        return 0
    checks = 0
    hand, exposed = state.hand_values(seat), state.exposed(seat)
    if len(hand) == 3 * (2 - len(exposed)) + 1:
        waits = [v for v in range(12) if any(is_win(h, exposed) for _, h in insertions(hand, v))]
        tenpai = [x for x in lines if x["id"] == "tenpai"]
        if waits:
            assert len(tenpai) == 1
            named = re.findall(r"(?:White|Black) \d", tenpai[0]["en"])
            assert named == [value_name(v) for v in waits]
            assert all(line_on(lines, v) for v in waits)
            checks += 1
        else:
            assert lines == []
    if state.phase == "claim" and seat in state.pending:
        truth = jong_rules.ron_score(state, seat)
        card = state.discards[state.discarder][-1]
        faces = [state.values()[card * 2 + up] for up in (0, 1)]
        said = [win_points(x) for v in faces if (x := line_on(lines, v))]
        best = max((p for p in said if p is not None), default=None)
        assert best == (truth[0] if truth else None), (lines, truth)
        checks += 1
    if (
        state.phase == "discard"
        and state.turn == seat
        and {"type": "tsumo"} in game.actions(state, seat)
    ):
        truth = jong_rules.tsumo_score(state, seat)
        assert truth is not None
        (line,) = [x for x in lines if x.get("move") == {"type": "tsumo"}]
        assert win_points(line) == truth[0], (line, truth)
        checks += 1
    for line in lines:
        if line.get("move", {}).get("type") == "insert":
            trial = game.copy(state)
            game.apply(trial, seat, line["move"], 0)
            truth = jong_rules.tsumo_score(trial, seat)
            assert truth is not None and win_points(line) == truth[0], (line, truth)
            checks += 1
    return checks


JONG_OPTIONS = [
    {},
    {"min_yaku": 2},
    {"dora": "either_number", "yaku_reading": "literal"},
]


@pytest.mark.parametrize("options", JONG_OPTIONS, ids=["default", "min_yaku_2", "either_literal"])
@pytest.mark.parametrize("seats", [2, 3])
def test_jong_waits_and_scores_match_the_engine(options: dict[str, Any], seats: int) -> None:
    checks = 0
    for seed in range(4):
        for game, state in positions("shirokuro_jong", seats, seed, 400, options):
            for seat in range(seats):
                checks += check_jong(game, state, seat)
    assert checks >= 50  # the seeded matches reach tenpai, claims and Tsumo often enough


WAIT_W5 = "W2 W3 W4 B3 B3 B3 W5"  # wins with a W5 inserted at the end


def test_jong_first_turn_wins_match_the_engine() -> None:
    """Tenhou, Renhou and Chiihou: the lines read the first turn off the view as the
    engine reads it off the state."""
    game = registry.get("shirokuro_jong")
    tenhou = table(["W1 W2 W3 B4 B4 B4 W5 W5", WAIT_W5])
    assert check_jong(game, tenhou, 0) == 1
    assert "Tenhou 16" in game.helpers(game.view(tenhou, 0))[0]["en"]
    renhou = table(["W5/B1 B6 B6 W1 W1 B2 B4 W6", WAIT_W5])
    play(renhou, (0, {"type": "discard", "index": 0}))
    assert check_jong(game, renhou, 1) == 2
    assert "Renhou 16" in game.helpers(game.view(renhou, 1))[1]["en"]
    chiihou = table(["W6/B1 B6 B6 W1 W1 B2 B4 W6", WAIT_W5], pile=["W5"])
    play(chiihou, (0, {"type": "discard", "index": 0}))
    pass_all(chiihou)
    assert check_jong(game, chiihou, 1) == 2
    assert "Chiihou 16" in game.helpers(game.view(chiihou, 1))[1]["en"]
    # A first draw that does not win: a later Ron (after this turn's discard) is no Renhou.
    drew = table(["W6/B1 B6 B6 W1 W1 B2 B4 W6", WAIT_W5], pile=["B6/W1"])
    play(drew, (0, {"type": "discard", "index": 0}))
    pass_all(drew)
    assert drew.phase == "insert" and check_jong(game, drew, 1) == 1
    assert "Renhou" not in game.helpers(game.view(drew, 1))[1]["en"]


def test_jong_a_win_the_room_refuses_offers_no_move() -> None:
    """With the two-yaku minimum, a one-yaku win is said so, and no Tsumo is offered."""
    game = registry.get("shirokuro_jong")
    state = table(
        ["W6/B1 B6 B6 W1 W1 B2 B4 W6", "W1 W2 W3 B3 B3 B3 W5"],
        pile=["W5/B2"],
        options={"min_yaku": 2},
    )
    play(state, (0, {"type": "discard", "index": 0}))
    state.discards[1], state.draws[1] = [state.discards[0][0]], 1  # not the first draw
    pass_all(state)
    lines = lines_of(game, state, 1)
    assert "would have only 1 yaku" in lines[1]["en"] and "move" not in lines[1]
    play(state, (1, {"type": "insert", "index": 7, "up": "W"}))
    (line,) = lines_of(game, state, 1)
    assert line["en"].startswith("Tsumo now would have only 1 yaku") and "move" not in line


def test_jong_a_hand_a_pon_completes_offers_no_tsumo() -> None:
    """Pon instead of Ron: the hand left has a winning shape, but a call is no draw, so
    the seat may only discard; no line offers Tsumo or scores one."""
    game = registry.get("shirokuro_jong")
    state = table(["W6/B3 B6 B6 W1 W1 B2 B4 W6", "B3 B3 W2 W3 W4 W5 W5"])
    play(state, (0, {"type": "discard", "index": 0}))
    assert {"type": "ron"} in game.actions(state, 1)
    play(state, (1, {"type": "pon", "index": 0}))
    assert state.phase == "discard" and state.turn == 1
    assert is_win(state.hand_values(1), state.exposed(1))
    assert {"type": "tsumo"} not in game.actions(state, 1)
    assert game.view(state, 1)["self_drawn"] is False
    assert lines_of(game, state, 1) == []


# -- Kokuto Rum ---------------------------------------------------------------------------
def check_kokuto(game: Game, state: Any, seat: int) -> int:
    """Check one seat's Kokuto lines against the engine's scoring; the checks made."""
    lines = lines_of(game, state, seat)
    values = kokuto_tables(state.options["deck"]).values
    checks = 0
    for line in lines:
        move = line["move"]
        if line["id"] == "rotation":
            held = [h ^ move["flip"] for h in state.hands[seat]]
            assert number(r"hand score (\d+)", line) == scoring.score([values[h] for h in held])
        elif line["id"] == "gap":
            trial = game.copy(state)
            game.apply(trial, seat, move, 0)
            hand = [values[h] for h in trial.hands[seat]]
            assert number(r"hand score (\d+)", line) == scoring.score(hand)
            after = min(
                scoring.score(hand[: a["pos"]] + hand[a["pos"] + 1 :])
                for a in game.actions(trial, seat)
                if a["type"] == "discard" and not a["knock"]
            )
            assert number(r"(\d+) after your best discard", line) == after
            # ... and the other way up at that gap leaves no less.
            (other,) = [
                a
                for a in game.actions(state, seat)
                if a["pos"] == move["pos"] and a["card"] != move["card"]
            ]
            trial = game.copy(state)
            game.apply(trial, seat, other, 0)
            hand = [values[h] for h in trial.hands[seat]]
            assert after <= min(
                scoring.score(hand[: a["pos"]] + hand[a["pos"] + 1 :])
                for a in game.actions(trial, seat)
                if a["type"] == "discard" and not a["knock"]
            )
        else:
            trial = game.copy(state)
            events = game.apply(trial, seat, move, 0)
            (end,) = [e for e in events if e["type"] == "round_end"]
            assert number(r"deadwood (\d+)", line) == end["scores"][seat]
            knocks = [a for a in game.actions(state, seat) if a.get("knock", True)]
            least = min(
                scoring.score(
                    [values[h] for h in state.hands[seat]][: a.get("pos", 99)]
                    + [values[h] for h in state.hands[seat]][a.get("pos", 99) + 1 :]
                )
                for a in knocks
            )
            assert end["scores"][seat] == least
        checks += 1
    kinds = Counter(x["id"] for x in lines)
    if state.phase == "insert" and state.turn == seat:
        assert kinds["gap"] == len(state.hands[seat]) + 1
    if state.phase == "discard" and state.turn == seat:
        assert kinds["knock"] == 1
    if state.phase == "rotate" and state.flips[seat] is None:
        assert kinds["rotation"] == 2
    return checks


@pytest.mark.parametrize(
    "options", [{}, {"knock_before_discard": False, "discard_taken_card": False}]
)
@pytest.mark.parametrize("seats", [2, 3])
def test_kokuto_scores_match_the_scorer(options: dict[str, Any], seats: int) -> None:
    checks = 0
    for seed in range(3):
        for game, state in positions("kokuto_rum", seats, seed, 150, options):
            for seat in range(seats):
                checks += check_kokuto(game, state, seat)
    assert checks >= 100


def test_kokuto_knock_before_discarding_when_nine_cards_score_least() -> None:
    """Nine cards in three melds score 0; any discard breaks one: the knock comes first."""
    game = registry.get("kokuto_rum")
    state = game.new(2, game.resolve_options({}), 0)
    texts = kokuto_tables("A").held_text
    used: set[int] = set()
    hand = []
    for want in ["W1", "W2", "W3", "B4", "B4", "B4", "W6", "W5", "W4"]:
        h = next(h for h, t in enumerate(texts) if t.startswith(want) and h // 2 not in used)
        used.add(h // 2)
        hand.append(h)
    state.hands[0], state.known[0] = hand, [False] * len(hand)
    state.phase, state.turn = "discard", 0
    (line,) = lines_of(game, state, 0)
    assert line["move"] == {"type": "knock"} and "deadwood 0" in line["en"]
    assert check_kokuto(game, state, 0) == 1


def test_kokuto_a_twin_of_the_taken_card_may_be_the_knock_discard() -> None:
    """With the card just taken kept (K3 option), its twin (deck B holds five of each
    card) is still a discard, and here the best knock's."""
    game = registry.get("kokuto_rum")
    hand = ["W1/B6", "W2/B5", "W3/B4", "W6/B1", "B2/W5", "B3/W4", "B4/W3", "W1/B6"]
    options = {"deck": "B", "discard_taken_card": False}
    state = position([hand, hand], discards=["W6/B1"], options=options)
    do(state, 0, {"type": "draw", "from": "discard"})
    do(state, 0, {"type": "insert", "pos": 0, "card": "W6/B1"})
    assert game.view(state, 0)["taken_at"] == 0
    assert game.view(state, 1)["taken_at"] is None
    (line,) = lines_of(game, state, 0)
    assert line["move"] == {"type": "discard", "pos": 4, "card": "W6/B1", "knock": True}
    assert "deadwood 7" in line["en"]
    assert check_kokuto(game, state, 0) == 1


# -- the other games: lines against the engine's state --------------------------------------
def expected_other(game_id: str, state: Any, seat: int) -> str | None:
    """What the seat's one line must say (a fragment of its English), or None for none."""
    if game_id == "usunoro":
        if state["phase"] != "passing":
            return None
        counts = Counter(card[1:] for card in state["hands"][seat])
        most = max(counts.values())
        return (
            "You hold four"
            if most == 4
            else f"{4 - most} more to go".replace("1 more", "one more")
            .replace("2 more", "two more")
            .replace("3 more", "three more")
        )
    if game_id == "hachinin_meri":
        if state["phase"] != "play":
            return None
        team = seat % 2
        ours, theirs = state["deal_score"][team], state["deal_score"][1 - team]
        return f"this deal: {ours} (the other team: {theirs})"
    if game_id == "utsuke":
        guess = state.guesses[seat]
        if state.phase != "play" or guess is None:
            return None
        return f"The Lord has taken {state.tricks[state.seats]} trick"
    if state["phase"] != "play":
        return None
    return f"You have taken {state['won'][seat]} trick"


@pytest.mark.parametrize("game_id", ["usunoro", "hachinin_meri", "utsuke", "junocos"])
def test_other_games_lines_follow_the_state(game_id: str) -> None:
    seats = SEATS[game_id]
    checks = 0
    for seed in range(2):
        for game, state in positions(game_id, seats, seed, 250):
            for seat in range(seats):
                lines = lines_of(game, state, seat)
                want = expected_other(game_id, state, seat)
                if want is None:
                    assert lines == []
                    continue
                (line,) = lines
                assert want in line["en"], (want, line)
                checks += 1
    assert checks >= 100


def test_usunoro_four_of_a_rank_says_grab() -> None:
    game = registry.get("usunoro")
    state = game.new(4, game.resolve_options({}), 1)
    state["hands"] = [["S2", "H2", "C2", "D2"], *state["hands"][1:]]
    (line,) = lines_of(game, state, 0)
    assert line["en"] == "You hold four Twos: grab now!"


def test_junocos_target_is_the_last_open_card() -> None:
    seen = 0
    for game, state in positions("junocos", 3, 5, 400):
        for seat in range(3):
            opens = state["open"][seat]
            if state["phase"] == "play" and len(opens) == 1:
                (line,) = lines_of(game, state, seat)
                assert f"your target of {opens[0][1]}" in line["en"], line
                seen += 1
    assert seen > 10


# -- random play ---------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_a_line_offers_only_a_move_legal_now_in_random_play(game_id: str) -> None:
    """Every line's move is among its seat's legal moves (`lines_of` checks), in
    positions random play reaches."""
    game = registry.get(game_id)
    # The defaults, then each option's other choices in turn.
    choices = [{}] + [
        {o.name: c} for o in game.options if not o.per_seat for c in o.choices if c != o.default
    ]
    for seed in range(8):
        options = choices[seed % len(choices)]
        for _, state in positions(game_id, SEATS[game_id], seed, 300, options, random_moves=True):
            for seat in range(SEATS[game_id]):
                lines_of(game, state, seat)


# -- from the view alone -------------------------------------------------------------------
@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_helpers_depend_on_the_view_alone(game_id: str) -> None:
    """Re-dealing every card a seat cannot see (its view unchanged) changes no line."""
    seats = SEATS[game_id]
    rng = random.Random(7)
    compared = 0
    for game, state in positions(game_id, seats, 11, 120):
        for seat in range(seats):
            view = game.view(state, seat)
            world = game.shuffle_unseen(state, seat, rng)
            assert game.helpers(game.view(world, seat)) == game.helpers(view)
            compared += bool(game.helpers(view))
    assert compared > 20


def test_spectators_get_no_lines() -> None:
    for game_id, seats in SEATS.items():
        for game, state in positions(game_id, seats, 3, 40):
            assert game.helpers(game.view(state, None)) == []
