"""Draft a game's JSON Schema from what its seeded matches produce.

    python3 -m tests.schema_draft GAME_ID > server/web/schemas/GAME_ID.json

The schema files in server/web/schemas/ began as such drafts and were then edited by
hand (descriptions, card encodings); re-draft only a new game, or to see what changed
after an engine change made tests/games/test_conformance.py fail, and merge by hand.

A draft is strict where the matches are: objects list the keys they had (required when
every sample had it, nothing else allowed), actions and events are one schema per
`type`, strings whose every value is a card of the game refer to the card encoding in
cards.json, `phase` values are listed, and a key has every shape it has anywhere in
the game's views and events.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import defaultdict
from typing import Any

from server.bots.registry import policy_for
from server.games import registry
from server.games.contract import Game
from server.games.rng import Rng
from tests.bench.bot_arena import situation
from tests.conformance import seats_to_move

Schema = dict[str, Any]
SEEDS = range(4)
ENUM_KEYS = {"phase"}


def card_patterns() -> dict[str, str]:
    """Each game's card pattern, from cards.json."""
    from server.web.schemas import load

    cards = load("cards.json")["$defs"]
    return {game: cards[game]["pattern"] for game in cards}


def samples(game: Game, seats: int, seed: int) -> dict[str, list[Any]]:
    """Every view (each seat and a spectator's), legal action, event and outcome of one
    match, played as tests/conformance.py plays it."""
    driver = random.Random(seed)
    state = game.new(seats, game.resolve_options({}), seed)
    out: dict[str, list[Any]] = defaultdict(list)
    now = 0
    for _ in range(20_000):
        out["view"].extend(game.view(state, s) for s in [*range(seats), None])
        result = game.outcome(state)
        if result is not None:
            out["outcome"].append(result)
            return out
        legal = seats_to_move(game, state, seats)
        for actions in legal.values():
            out["action"].extend(actions)
        due = game.deadline(state)
        if legal and (due is None or driver.random() < 0.97):
            now += driver.randrange(0, 400)
            if due is not None and now >= due:
                out["event"].extend(game.expire(state, now))
                continue
            seat = driver.choice(sorted(legal))
            out["event"].extend(game.apply(state, seat, driver.choice(legal[seat]), now))
        else:
            now = max(now, due or 0)
            out["event"].extend(game.expire(state, now))
    return out


def cpu_samples(game: Game, seats: int, seed: int) -> dict[str, list[Any]]:
    """The same from a match the game's CPUs play (Normal, every seat): they reach what
    random play rarely does (an Usunoro grab, a Kokuto Rum knock)."""
    policy = policy_for(game.id)
    state = game.new(seats, game.resolve_options({}), seed)
    rngs = [Rng.from_seed(seed * 31 + s + 1) for s in range(seats)]
    world_rng = random.Random(seed)
    out: dict[str, list[Any]] = defaultdict(list)
    now = 0
    for _ in range(20_000):
        out["view"].extend(game.view(state, s) for s in [*range(seats), None])
        result = game.outcome(state)
        if result is not None:
            out["outcome"].append(result)
            break
        pending = []
        for s in range(seats):
            if legal := game.actions(state, s):
                out["action"].extend(legal)
                sit = situation(game, state, s, "normal", rngs[s], world_rng)
                if (decision := policy.decide(sit)) is not None:
                    pending.append((now + max(0, decision.delay_ms), s, decision.action))
        due = game.deadline(state)
        if pending and (due is None or min(pending)[0] < due):
            now, s, action = min(pending, key=lambda p: (p[0], p[1]))
            if action in game.actions(state, s):
                out["event"].extend(game.apply(state, s, action, now))
        elif due is not None:
            now = max(now, due)
            out["event"].extend(game.expire(state, now))
        else:
            break
    return out


class Drafter:
    """Infers a schema from sample values."""

    def __init__(self, card: str | None, documents: list[Any]) -> None:
        self.card = re.compile(card) if card else None
        # Every value each key had anywhere in the game: a key seen only as null in one
        # place (a trick's "combo") takes the shapes it has elsewhere.
        self.by_key: dict[str, list[Any]] = defaultdict(list)
        for document in documents:
            collect_keys(document, self.by_key)
        self.keys_done: dict[str, Schema | None] = {}

    def infer(self, values: list[Any], key: str = "") -> Schema:
        """A schema every one of `values` matches."""
        kinds: dict[str, list[Any]] = defaultdict(list)
        for value in values:
            kinds[kind_of(value)].append(value)
        schemas = [self.infer_kind(kind, vals, key) for kind, vals in sorted(kinds.items())]
        if len(schemas) == 1:
            return schemas[0]
        if all(set(s) == {"type"} for s in schemas):
            return {"type": sorted(s["type"] for s in schemas)}
        return {"anyOf": schemas}

    def infer_kind(self, kind: str, values: list[Any], key: str) -> Schema:
        """A schema for values all of one JSON type."""
        if kind == "string":
            if self.card and all(self.card.fullmatch(v) for v in values):
                return {"$ref": "#/$defs/card"}
            if key in ENUM_KEYS:
                return {"enum": sorted(set(values))}
            return {"type": "string"}
        if kind == "array":
            return self.infer_array(values, key)
        if kind == "object":
            return self.infer_object(values)
        return {"type": kind}

    def infer_array(self, values: list[list[Any]], key: str) -> Schema:
        """Arrays: one item schema, or positional ones for short fixed-length tuples."""
        items = [item for value in values for item in value]
        if not items:
            return {"type": "array"}
        lengths = {len(v) for v in values if v}
        if len(lengths) == 1 and (n := lengths.pop()) <= 4 and n > 1:
            positions = [[v[i] for v in values if v] for i in range(n)]
            kinds = [{kind_of(x) for x in pos} for pos in positions]
            if len({frozenset(k) for k in kinds}) > 1:
                return {
                    "type": "array",
                    "prefixItems": [self.infer(pos, key) for pos in positions],
                    "minItems": n,
                    "maxItems": n,
                }
        return {"type": "array", "items": self.infer(items, key)}

    def infer_object(self, values: list[dict[Any, Any]]) -> Schema:
        """Objects with fixed keys (all strings), or maps keyed by seat numbers."""
        if any(not isinstance(k, str) for v in values for k in v):
            return {
                "type": "object",
                "additionalProperties": self.infer([x for v in values for x in v.values()]),
            }
        keys = sorted({k for v in values for k in v})
        return {
            "type": "object",
            "required": [k for k in keys if all(k in v for v in values)],
            "properties": {k: self.of_key(k, [v[k] for v in values if k in v]) for k in keys},
            "additionalProperties": False,
        }

    def of_key(self, key: str, here: list[Any]) -> Schema:
        """The schema of `key` from every value it has in the game (once per key); from
        the values `here` while that key's own schema is being drafted (a key nested in
        itself)."""
        if key not in self.keys_done:
            self.keys_done[key] = None
            self.keys_done[key] = self.infer(self.by_key[key], key)
        return self.keys_done[key] or self.infer(here, key)

    def by_type(self, values: list[dict[str, Any]]) -> Schema:
        """One schema per `type` (actions, events)."""
        groups: dict[str, list[Any]] = defaultdict(list)
        for value in values:
            groups[value["type"]].append(value)
        variants = []
        for name, group in sorted(groups.items()):
            schema = self.infer_object(group)
            schema["properties"]["type"] = {"const": name}
            variants.append(schema)
        return {"oneOf": variants}


def collect_keys(value: Any, by_key: dict[str, list[Any]]) -> None:
    """Add every (key, value) pair of string-keyed objects in `value` to `by_key`."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                by_key[key].append(item)
            collect_keys(item, by_key)
    elif isinstance(value, list):
        for item in value:
            collect_keys(item, by_key)


def kind_of(value: Any) -> str:
    """The JSON type name of a plain value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def draft(game_id: str) -> Schema:
    """The draft schema document for one game."""
    game = registry.get(game_id)
    found: dict[str, list[Any]] = defaultdict(list)
    for seats in range(game.min_seats, game.max_seats + 1):
        for seed in SEEDS:
            for sampler in (samples, cpu_samples):
                for part, values in sampler(game, seats, seed).items():
                    found[part].extend(values)
    every = [v for values in found.values() for v in values]
    drafter = Drafter(card_patterns().get(game_id), every)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{game_id}.json",
        "title": f"{game.title}: view, actions, events, outcome",
        "$defs": {
            "card": {"$ref": f"cards.json#/$defs/{game_id}"},
            "view": drafter.infer(found["view"]),
            "action": drafter.by_type(found["action"]),
            "event": drafter.by_type(found["event"]),
            "outcome": drafter.infer(found["outcome"]),
        },
    }


if __name__ == "__main__":
    json.dump(draft(sys.argv[1]), sys.stdout, indent=2)
    print()
