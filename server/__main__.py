"""The `zashiki` command (also `python -m server`)."""

from __future__ import annotations

import argparse
import os
import sys

from server.games import registry


def cmd_games(args: argparse.Namespace) -> int:
    """Print every registered game with its seat counts."""
    for game in registry.games().values():
        print(f"{game.id:16} {game.min_seats}-{game.max_seats} seats  {game.title}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server until Ctrl-C (or SIGTERM); rooms are saved before it exits."""
    from server.web.limits import Limits, parse_rate_limits
    from server.web.serve import serve

    # Without --lease-ms (or its variable) the manager's own default applies.
    lease = {} if args.lease_ms is None else {"lease_ms": args.lease_ms}
    rate, _, burst = args.frame_rate.partition("/")
    limits = Limits(
        rate_limits=parse_rate_limits(args.rate_limits),
        spectators_per_room=args.spectators_per_room,
        frames_per_second=float(rate),
        frame_burst=int(burst or rate),
        ping_interval_s=args.ws_ping_s,
    )
    serve(
        host=args.host,
        port=args.port,
        redis_url=args.redis_url or None,
        limits=limits,
        node_id=args.node_id or None,
        **lease,
    )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Re-run a match file through its engine; print it as text, or the first fault."""
    from server.rooms.match_file import MatchFileError, load_file, verify

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


def positive_int(text: str) -> int:
    """An argument that must be a whole number above zero."""
    value = int(text)
    if value <= 0:
        raise ValueError(text)
    return value


def build_parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per job."""
    parser = argparse.ArgumentParser(prog="zashiki", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("games", help="list the games this server hosts").set_defaults(run=cmd_games)
    serve = sub.add_parser("serve", help="run the server (HTTP API, websocket, browser client)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on")
    serve.add_argument(
        "--redis-url",
        default=os.environ.get("ZASHIKI_REDIS_URL", ""),
        help="keep rooms in this Redis (default: $ZASHIKI_REDIS_URL, else in process memory)",
    )
    serve.add_argument(
        "--lease-ms",
        type=positive_int,
        default=os.environ.get("ZASHIKI_LEASE_MS"),
        help="how long a room's lease lasts unrenewed, so how soon another process takes "
        "over the rooms of one that died (default: $ZASHIKI_LEASE_MS, else 30000)",
    )
    serve.add_argument(
        "--node-id",
        default=os.environ.get("ZASHIKI_NODE_ID", ""),
        help="this process's name in room leases and on the bus; keep it across restarts "
        "(a restarted process then serves its rooms at once) and unique among running "
        "processes (default: $ZASHIKI_NODE_ID, else hostname:port)",
    )
    serve.add_argument(
        "--rate-limits",
        default=os.environ.get("ZASHIKI_RATE_LIMITS", ""),
        help='per client address: "rooms=30/10,seats=60/20,lookups=300/60" (per minute/'
        'burst; these are the defaults) or "off" (default: $ZASHIKI_RATE_LIMITS)',
    )
    serve.add_argument(
        "--frame-rate",
        default=os.environ.get("ZASHIKI_FRAME_RATE", "20/40"),
        help='websocket frames a second per connection, and the burst: "20/40" (the '
        "default; $ZASHIKI_FRAME_RATE)",
    )
    serve.add_argument(
        "--ws-ping-s",
        type=float,
        default=float(os.environ.get("ZASHIKI_WS_PING_S", "20")),
        help="websocket keep-alive: a ping this often; no pong within as long again "
        "closes the socket with 1011 (default: $ZASHIKI_WS_PING_S, else 20)",
    )
    serve.add_argument(
        "--spectators-per-room",
        type=positive_int,
        default=int(os.environ.get("ZASHIKI_SPECTATORS_PER_ROOM", "16")),
        help="spectator connections a room takes (seat holders are counted apart; "
        "default: $ZASHIKI_SPECTATORS_PER_ROOM, else 16)",
    )
    serve.set_defaults(run=cmd_serve)
    replay = sub.add_parser(
        "replay", help="re-run an exported match file through the engine and print it"
    )
    replay.add_argument("file", help="a match file (JSON) from GET /api/rooms/{code}/matches/{n}")
    replay.add_argument("--quiet", action="store_true", help="print only the verdict")
    replay.set_defaults(run=cmd_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
