"""The `zashiki` command (also `python -m server`)."""

from __future__ import annotations

import argparse
import os
import sys
from importlib import metadata
from typing import NoReturn

from server.games import registry
from server.settings import SERVE, SettingError, add_arguments, given, resolve

# Exit statuses: a setting that does not parse (argparse's own status for a bad flag), and
# a store that does not answer at start-up.
BAD_SETTING = 2
NO_STORE = 3
REDIS_URL = next(setting for setting in SERVE if setting.flag == "--redis-url")


def cmd_games(args: argparse.Namespace) -> int:
    """Print every registered game with its seat counts."""
    for game in registry.games().values():
        print(f"{game.id:16} {game.min_seats}-{game.max_seats} seats  {game.title}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server until Ctrl-C (or SIGTERM); rooms are saved before it exits."""
    try:
        settings = resolve(SERVE, args, os.environ)
    except SettingError as exc:
        return fail("serve", str(exc), BAD_SETTING)
    if settings["redis_url"]:
        problem = store_problem(settings["redis_url"])
        if problem is not None:
            _, source = given(REDIS_URL, args, os.environ)
            return fail("serve", f"{source}: the store does not answer: {problem}", NO_STORE)
    from server.web.limits import Limits
    from server.web.push import PushConfig
    from server.web.serve import serve

    frames_per_second, frame_burst = settings["frame_rate"]
    limits = Limits(
        rate_limits=settings["rate_limits"],
        spectators_per_room=settings["spectators_per_room"],
        frames_per_second=frames_per_second,
        frame_burst=frame_burst,
        ping_interval_s=settings["ws_ping_s"],
    )
    push = PushConfig(settings["push"], settings["push_contact"], settings["push_gap_s"])
    serve(
        host=settings["host"],
        port=settings["port"],
        redis_url=settings["redis_url"] or None,
        limits=limits,
        node_id=settings["node_id"] or None,
        lease_ms=settings["lease_ms"],
        days_idle_ms=settings["days_room_idle_s"] * 1000.0,
        review_nice=settings["review_nice"],
        log_level=settings["log_level"],
        log_format=settings["log_format"],
        access_log=settings["access_log"] == "on",
        durability=settings["durability"],
        push=push,
    )
    return 0


def store_problem(redis_url: str) -> str | None:
    """Why the Redis at `redis_url` does not answer a PING within 3 s, or None if it does
    (under Sentinel: the primary the sentinels name)."""
    from server.store.topology import problem

    return problem(redis_url)


def fail(command: str, problem: str, status: int) -> int:
    """Print one line saying what is wrong; returns the exit status."""
    print(f"zashiki {command}: {problem}", file=sys.stderr)
    return status


def cmd_replay(args: argparse.Namespace) -> int:
    """Re-run a match file through its engine; print it as text, or the first fault."""
    from server.rooms.history.match_file import MatchFileError, load_file, verify

    try:
        verified = verify(load_file(args.file))
    except MatchFileError as exc:
        print(f"zashiki replay: {args.file}: FAILED: {exc}", file=sys.stderr)
        return 1
    if not args.quiet:
        print("\n".join(verified.lines))
    inputs = len(verified.match.entries)
    print(f"verified: {inputs} inputs re-ran; every recorded result and the outcome match")
    return 0


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake on the command line is one line (and exit status 2)."""

    def error(self, message: str) -> NoReturn:
        """Print `PROG: MESSAGE (PROG --help)` and exit 2."""
        self.exit(BAD_SETTING, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per job."""
    parser = Parser(prog="zashiki", description="Zashiki: online rooms for six card games.")
    parser.add_argument("--version", action="version", version=f"zashiki {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    games = sub.add_parser(
        "games", help="list the games this server hosts", description=cmd_games.__doc__
    )
    games.set_defaults(run=cmd_games)
    serve = sub.add_parser(
        "serve",
        help="run the server (HTTP API, websocket, browser client)",
        description="Run the server: the HTTP API, the websocket and the browser client, "
        "until Ctrl-C or SIGTERM (rooms are saved on the way out). Every setting is a flag "
        "or an environment variable; the flag wins.",
    )
    add_arguments(serve, SERVE)
    serve.set_defaults(run=cmd_serve)
    replay = sub.add_parser(
        "replay",
        help="re-run an exported match file through the engine and print it",
        description=cmd_replay.__doc__,
    )
    replay.add_argument("file", help="a match file (JSON) from GET /api/rooms/{code}/matches/{n}")
    replay.add_argument("--quiet", action="store_true", help="print only the verdict")
    replay.set_defaults(run=cmd_replay)
    return parser


def package_version() -> str:
    """The installed distribution's version."""
    try:
        return metadata.version("zashiki")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
