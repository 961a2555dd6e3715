"""The conformance suite, run on every registered game (and on a toy game to test it)."""

from __future__ import annotations

import os

import pytest
from jsonschema import Draft202012Validator

from server.games import registry
from server.games.contract import Game
from server.web import schemas
from tests.conformance import VALIDATED, check_match, check_worlds, conforms, positions
from tests.toy_game import ToyGame

MATCHES = int(os.environ.get("ZASHIKI_CONFORMANCE_MATCHES", "4"))


def configurations() -> list[tuple[str, int, int]]:
    """(game id, seat count, seed) for every registered game and seat count."""
    return [
        (game.id, seats, seed)
        for game in registry.games().values()
        for seats in range(game.min_seats, game.max_seats + 1)
        for seed in range(MATCHES)
    ]


@pytest.mark.parametrize(("game_id", "seats", "seed"), configurations())
def test_registered_game_conforms(game_id: str, seats: int, seed: int) -> None:
    game = registry.get(game_id)
    check_match(game, seats, {}, seed)


@pytest.mark.parametrize(
    ("game_id", "seats"),
    [(g.id, n) for g in registry.games().values() for n in range(g.min_seats, g.max_seats + 1)],
)
def test_worlds_and_cpu_decisions_depend_on_the_view_alone(game_id: str, seats: int) -> None:
    # A few positions per match: Hard searches, and the suite must stay quick.
    game = registry.get(game_id)
    for seed in range(2):
        found = positions(game, seats, game.resolve_options({}), seed, 3)
        assert found, "the random match offered no seat a choice"
        for state, seat in found:
            check_worlds(game, state, seat, seed)


def test_every_registered_game_describes_itself() -> None:
    assert registry.games(), "no game is registered"
    for game_id, game in registry.games().items():
        assert isinstance(game, Game) and game.id == game_id
        assert 1 <= game.min_seats <= game.max_seats
        assert game.resolve_options({}) == {o.name: o.default for o in game.options}


def test_toy_game_conforms() -> None:
    for seed in range(5):
        check_match(ToyGame(), 3, {}, seed)


def test_suite_catches_a_view_showing_another_seats_card() -> None:
    with pytest.raises(AssertionError, match="may not see"):
        check_match(ToyGame(leak=True), 3, {}, 0)


def test_suite_catches_a_world_that_depends_on_where_hidden_cards_are() -> None:
    toy = ToyGame(pool_in_place=True)
    for state, seat in positions(ToyGame(), 3, {}, 0, 3):
        check_worlds(ToyGame(), state, seat, 0)
    with pytest.raises(AssertionError, match="depends on where the cards it cannot see are"):
        for state, seat in positions(toy, 3, {}, 0, 3):
            check_worlds(toy, state, seat, 0)


class _LaxToy(ToyGame):
    """Lets any seat make the seat to move's move: the suite must catch it."""

    def apply(self, state, seat, action, now):  # type: ignore[no-untyped-def]
        return super().apply(state, state["turn"], action, now)


def test_suite_catches_a_move_accepted_out_of_turn() -> None:
    with pytest.raises(AssertionError):
        check_match(_LaxToy(), 3, {}, 0)


def test_every_registered_game_has_a_schema_file() -> None:
    for game_id in registry.games():
        assert (schemas.HERE / f"{game_id}.json").is_file(), f"no schema for {game_id}"
        for part in schemas.PARTS:
            schema = schemas.bundled(game_id, part)
            Draft202012Validator.check_schema(schema)  # a valid JSON Schema 2020-12
            schemas.fast_validator(game_id, part)  # every $ref resolves


def test_suite_catches_a_view_the_schema_does_not_describe() -> None:
    game = registry.get("usunoro")
    state = game.new(4, game.resolve_options({}), 0)
    view = game.view(state, 0)
    conforms(game, "view", view)
    with pytest.raises(AssertionError, match="usunoro view does not match"):
        conforms(game, "view", {**view, "secret_hands": []})
    with pytest.raises(AssertionError, match="/hand/0"):
        conforms(game, "view", {**view, "hand": ["X9", *view["hand"][1:]]})


def test_schemas_validated_every_part() -> None:
    """Runs after the matches above (file order); reported with -s."""
    print(f"\nschema validations: {sum(VALIDATED.values())} ({dict(VALIDATED)})")
    assert all(VALIDATED[part] for part in schemas.PARTS)
