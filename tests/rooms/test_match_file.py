"""Match files: exported from a room's history, valid against their JSON Schema, re-run
by `zashiki replay` for every game; an edited file fails naming what does not hold."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from server.__main__ import main
from server.games import registry
from server.rooms.history.match_file import (
    SCHEMA_PATH,
    MatchFileError,
    export_full,
    export_spectator,
    verify,
)
from server.rooms.history.matches import MatchRecord, Replayer, finished_matches
from tests.rooms.helpers import Env
from tests.rooms.history_support import GAMES, HUMAN, play_matches

SCHEMA = json.loads(SCHEMA_PATH.read_text())


async def one_match(env: Env, game_id: str, seed: int = 41) -> tuple[str, MatchRecord]:
    code, _, _ = await play_matches(env, game_id, seed=seed, matches=1)
    (match,) = finished_matches(await env.store.read_log(code))
    return code, match


def write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("game_id", GAMES)
async def test_zashiki_replay_verifies_an_exported_match(
    env: Env, game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, match = await one_match(env, game_id)
    game = registry.get(game_id)
    exported = json.loads(json.dumps(export_full(game, code, match, Replayer(game, match))))
    jsonschema.validate(exported, SCHEMA)
    assert exported["results"] and exported["outcome"] == match.outcome

    assert main(["replay", str(write(tmp_path, exported))]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("verified: ")
    assert f"seat {HUMAN + 1} (Hana) holds " in out and "Result: " in out
    rounds = sum(1 for line in out.splitlines() if line.startswith(("Round ", "Deal:")))
    assert rounds == len(exported["results"])


@pytest.mark.parametrize("game_id", GAMES)
async def test_an_edited_move_fails_with_the_first_input_that_does_not_apply(
    env: Env, game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, match = await one_match(env, game_id, seed=42)
    game = registry.get(game_id)
    exported = export_full(game, code, match, Replayer(game, match))
    edited = copy.deepcopy(exported)
    first = next(i for i, e in enumerate(edited["inputs"]) if e["k"] == "m")
    edited["inputs"][first]["a"] = {"type": "no_such_move"}

    assert main(["replay", str(write(tmp_path, edited))]) == 1
    err = capsys.readouterr().err
    assert f"FAILED: input {first + 1} does not apply: seat " in err
    assert "no_such_move" in err

    moved = copy.deepcopy(exported)
    moved["inputs"][first]["s"] = (moved["inputs"][first]["s"] + 1) % match.n
    with pytest.raises(MatchFileError, match=r"input \d+ does not apply"):
        verify(moved)


async def test_edited_results_and_outcomes_fail_and_odd_files_are_refused(
    env: Env, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, match = await one_match(env, "junocos", seed=43)
    game = registry.get("junocos")
    exported = export_full(game, code, match, Replayer(game, match))
    verify(exported)

    score = copy.deepcopy(exported)
    score["results"][0]["scores"][0] += 1
    with pytest.raises(MatchFileError, match="recorded result at step"):
        verify(score)
    outcome = copy.deepcopy(exported)
    outcome["outcome"]["places"] = list(reversed(outcome["outcome"]["places"]))
    with pytest.raises(MatchFileError, match="recorded outcome"):
        verify(outcome)
    short = copy.deepcopy(exported)
    short["inputs"] = short["inputs"][:-1]
    with pytest.raises(MatchFileError, match="before the match is over|results are recorded"):
        verify(short)
    with pytest.raises(MatchFileError, match="version"):
        verify({**exported, "version": 2})
    with pytest.raises(MatchFileError, match="unknown game"):
        verify({**exported, "game": "chess"})

    spectator = json.loads(json.dumps(export_spectator(game, code, match, Replayer(game, match))))
    jsonschema.validate(spectator, SCHEMA)
    assert "seed" not in spectator and "inputs" not in spectator
    steps = spectator["steps"]
    assert len(steps) == len(exported["inputs"]) + 1
    assert all(step["view"].get("hand") is None and "action" not in step for step in steps)
    with pytest.raises(MatchFileError, match="spectator match file"):
        verify(spectator)

    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    assert main(["replay", str(garbage)]) == 1
    assert "is not JSON" in capsys.readouterr().err


async def test_a_seed_past_2_53_is_a_string_and_the_integer_form_still_reads(
    env: Env, tmp_path: Path
) -> None:
    seed = 308398354124923978  # not a double: JSON parsers round it to ...970
    code, match = await one_match(env, "usunoro", seed=seed)
    game = registry.get("usunoro")
    exported = json.loads(json.dumps(export_full(game, code, match, Replayer(game, match))))
    assert exported["seed"] == str(seed)
    jsonschema.validate(exported, SCHEMA)
    assert main(["replay", str(write(tmp_path, exported))]) == 0
    # The file as saved before seeds were strings: a JSON integer.
    old = {**exported, "seed": seed}
    jsonschema.validate(old, SCHEMA)
    assert main(["replay", str(write(tmp_path, old))]) == 0
    # What a browser re-writing the file made of it: the rounded seed deals another match.
    rounded = {**exported, "seed": int(float(seed))}
    assert rounded["seed"] != seed
    with pytest.raises(MatchFileError):
        verify(rounded)
    for bad in ("-1", "1e5", "0x10", " 7", "٣", "9" * 21, 1.5, True):
        with pytest.raises(MatchFileError, match="'seed'"):
            verify({**exported, "seed": bad})
    for bad in ("-1", "1e5", "9" * 21, 1.5):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**exported, "seed": bad}, SCHEMA)
