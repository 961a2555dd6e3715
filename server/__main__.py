"""The `zashiki` command (also `python -m server`)."""

from __future__ import annotations

import argparse
import sys

from server.games import registry


def cmd_games(args: argparse.Namespace) -> int:
    """Print every registered game with its seat counts."""
    for game in registry.games().values():
        print(f"{game.id:16} {game.min_seats}-{game.max_seats} seats  {game.title}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per job."""
    parser = argparse.ArgumentParser(prog="zashiki", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("games", help="list the games this server hosts").set_defaults(run=cmd_games)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
