"""Room options in the game contract: choices, per-seat choices, and their checks."""

from __future__ import annotations

import json

import pytest

from server.games import registry
from server.games.contract import Game, IllegalAction, Option

LORD = Option("lord_seat", "random", ("random", 0, 1, 2, 3, 4), per_seat=True)


def test_per_seat_choices_stop_at_the_last_seat() -> None:
    assert LORD.choices_for(3) == ("random", 0, 1, 2)
    assert LORD.choices_for(5) == LORD.choices
    plain = Option("min_yaku", 0, (0, 2))
    assert plain.choices_for(2) == (0, 2)  # ints that are not seats stay whatever the count


def test_describe_is_plain_data_saying_which_options_are_per_seat() -> None:
    described = LORD.describe()
    assert json.loads(json.dumps(described)) == described
    assert described["per_seat"] is True and described["choices"] == ["random", 0, 1, 2, 3, 4]
    assert Option("rotation", True, (True, False)).describe()["per_seat"] is False


def test_a_seat_choice_past_the_seat_count_is_refused_with_the_valid_ones() -> None:
    game = registry.get("utsuke")
    options = game.resolve_options({"lord_seat": 4})
    with pytest.raises(IllegalAction) as refused:
        game.check_options(options, 3)
    message = "option lord_seat must be one of ['random', 0, 1, 2] with 3 seats"
    assert (refused.value.code, refused.value.message) == ("bad_option", message)
    game.check_options(options, 5)


def test_true_is_not_taken_for_seat_one() -> None:
    with pytest.raises(IllegalAction, match="bad_option"):
        registry.get("utsuke").resolve_options({"lord_seat": True})


def per_seat_cases() -> list[tuple[str, str, int]]:
    """(game id, per-seat option, seat count) for every registered game."""
    return [
        (game.id, option.name, seats)
        for game in registry.games().values()
        for option in game.options
        if option.per_seat
        for seats in range(game.min_seats, game.max_seats + 1)
    ]


@pytest.mark.parametrize(("game_id", "name", "seats"), per_seat_cases())
def test_new_takes_exactly_the_choices_offered_for_the_seat_count(
    game_id: str, name: str, seats: int
) -> None:
    game: Game = registry.get(game_id)
    option = next(o for o in game.options if o.name == name)
    assert option.default in option.choices_for(game.min_seats)
    for choice in option.choices:
        options = game.resolve_options({name: choice})
        if choice in option.choices_for(seats):
            game.new(seats, options, 0)
        else:
            with pytest.raises(IllegalAction, match="bad_option"):
                game.new(seats, options, 0)


def test_the_games_with_seat_dependent_choices_mark_them() -> None:
    assert {(g, n) for g, n, _ in per_seat_cases()} == {
        ("utsuke", "lord_seat"),
        ("kokuto_rum", "first_dealer"),
    }
