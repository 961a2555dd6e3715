"""Utsuke guess quality: the CPU's mean absolute guess error next to a random guess's.

    python -m tests.bench.bench_utsuke_guess [--matches 40] [--seats 5]

Two figures per difficulty, over every round of seeded matches (CPU at seat 0, uniform
random players elsewhere):
- "in play": |CPU guess - Lord's tricks| with the CPU then steering the round, next to
  the random seats' |guess - Lord's tricks| in the same rounds;
- "prediction": the CPU guesses on fresh deals that are then played out by random play
  at every seat, so the error measures the forecast alone.
"""

from __future__ import annotations

import argparse
import random
from statistics import fmean

from server.bots.random_policy import RandomPolicy
from server.bots.utsuke import POLICY
from server.games.contract import DIFFICULTIES
from server.games.rng import Rng
from server.games.utsuke import GAME
from tests.bench.bot_arena import situation


def in_play(seats: int, difficulty: str, matches: int) -> tuple[float, float, int]:
    """(CPU error, random error, rounds) over whole matches with the CPU at seat 0."""
    cpu: list[int] = []
    rand: list[int] = []
    for seed in range(matches):
        state = GAME.new(seats, GAME.resolve_options({}), seed)
        rngs = [Rng(seed * 31 + s) for s in range(seats)]
        world_rng = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = min(s for s in range(seats) if GAME.actions(state, s))
            sit = situation(GAME, state, seat, difficulty, rngs[seat], world_rng)
            policy = POLICY if seat == 0 else RandomPolicy()
            decision = policy.decide(sit)
            assert decision is not None
            for event in GAME.apply(state, seat, decision.action, 0):
                if event["type"] == "judged":
                    lord = event["lord_tricks"]
                    cpu.append(abs(event["guesses"][0] - lord))
                    rand += [abs(g - lord) for g in event["guesses"][1:]]
    return fmean(cpu), fmean(rand), len(cpu)


def prediction(seats: int, difficulty: str, deals: int) -> tuple[float, float]:
    """(CPU error, random error) when every seat, the CPU included, then plays randomly."""
    cpu: list[int] = []
    rand: list[int] = []
    for seed in range(deals):
        state = GAME.new(seats, GAME.resolve_options({}), 10_000 + seed)
        driver = random.Random(seed)
        sit = situation(GAME, state, 0, difficulty, Rng(seed), random.Random(seed))
        decision = POLICY.decide(sit)
        assert decision is not None
        guess = decision.action["value"]
        GAME.apply(state, 0, decision.action, 0)
        for s in range(1, seats):
            GAME.apply(state, s, {"type": "guess", "value": driver.randrange(16)}, 0)
        while state.round == 1:
            seat = state.turn()
            GAME.apply(state, seat, driver.choice(GAME.actions(state, seat)), 0)
        lord = state.last_round["lord_tricks"]
        cpu.append(abs(guess - lord))
        rand.append(abs(driver.randrange(16) - lord))
    return fmean(cpu), fmean(rand)


def main() -> None:
    """Print one line per difficulty."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--seats", type=int, default=5)
    args = parser.parse_args()
    print(f"utsuke guess error, {args.seats} seats (mean |guess - Lord's tricks|)")
    for difficulty in DIFFICULTIES:
        cpu, rand, rounds = in_play(args.seats, difficulty, args.matches)
        p_cpu, p_rand = prediction(args.seats, difficulty, args.matches * 5)
        print(
            f"{difficulty:7} in play: cpu {cpu:5.2f}  random {rand:5.2f}  ({rounds} rounds)   "
            f"prediction: cpu {p_cpu:5.2f}  random {p_rand:5.2f}  ({args.matches * 5} deals)",
            flush=True,
        )


if __name__ == "__main__":
    main()
