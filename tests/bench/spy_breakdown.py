"""Where the server's CPU goes, from a py-spy sample file: each sample put in one part
of a move's path, and each part's share printed.

    py-spy record --nonblocking -r 250 -d 10 -f raw -o spy.txt -p SERVER_PID
    python3 -m tests.bench.spy_breakdown spy.txt [--top 25]

`bench_load --profile spy.txt` records such a file during its first rate step and prints
this breakdown at the end. A sample goes to the first part (in the order of PARTS) one of
whose markers is in its stack; the functions most often on top of the stack follow.
Shares are approximate: `--nonblocking` (which keeps the server's latency as it is) reads
stacks while they change, so a few samples land in a neighbouring part, and native time
(system calls, uvloop) counts under the Python frame that called it.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# (part, markers): a marker is a function name as py-spy writes it, "Class.method (path",
# or as it names the C function of a compiled module (setup.py), "module___Class___method".
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "socket writes (four views)",
        ("ViewSender.write (server/web/ws_protocol.py", "ViewSender___write"),
    ),
    (
        "views: built and packed",
        (
            "Publisher.publish (",
            "Outbox.push_view (",
            "ViewEncoder.encode (",
            "publishing___Publisher___publish (",
            "frames___ViewEncoder___encode (",
            "ws___Outbox___push_view",
        ),
    ),
    (
        "saving: Redis client",
        (
            "RedisStore.",
            "GroupCommit.",
            "RespConnection.",
            "_Protocol.data_received (",
            "group_commit___",
            "resp___",
        ),
    ),
    ("saving: room state packed", ("Room.blob (", "room___Room___blob (")),
    (
        "rules and room logic",
        ("Room._handle (", "Room._run (", "room____handle_Room_gen", "room____run_Room_gen"),
    ),
    (
        "reading client frames",
        (
            "DirectSendProtocol.data_received (",
            "FrameReader.",
            "_take_frames (",
            "DirectSendProtocol___data_received",
            "DirectSendProtocol____take_frames",
            "ws___FrameReader___",
        ),
    ),
    ("keepalive pings", ("send_keepalive_ping (", "handle_pong (")),
)
OTHER = "event loop, timers and the rest"
# A native sample (py-spy --native) on top of one of these is the loop waiting: idle.
WAITING = ("epoll_wait (", "epoll_pwait (")


def read_samples(path: Path) -> Counter[tuple[str, ...]]:
    """Stacks (outermost first, line numbers dropped) and their sample counts."""
    stacks: Counter[tuple[str, ...]] = Counter()
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        stacks[tuple(re.sub(r":\d+\)", ")", f) for f in stack.split(";"))] += int(count)
    return stacks


def part_of(stack: tuple[str, ...]) -> str:
    """The part of the path a sample belongs to.

    >>> part_of(("Room._next (actor/room.py)", "Publisher.publish (actor/publishing.py)"))
    'views: built and packed'
    >>> part_of(("CPyDef_room___Room___blob (__native_0a1b.c)",))
    'saving: room state packed'
    >>> part_of(("Runner.run (asyncio/runners.py)",))
    'event loop, timers and the rest'
    """
    for part, markers in PARTS:
        if any(marker in frame for frame in stack for marker in markers):
            return part
    return OTHER


def breakdown(path: Path, top: int = 25) -> list[str]:
    """The report's lines: each part's share, then the `top` functions seen on top."""
    stacks = read_samples(path)
    total = sum(stacks.values())
    if not total:
        return [f"{path}: no samples"]
    parts: Counter[str] = Counter()
    tops: Counter[str] = Counter()
    idle = 0
    for stack, count in stacks.items():
        if stack[-1].startswith(WAITING):
            idle += count
            continue
        parts[part_of(stack)] += count
        tops[stack[-1]] += count
    total -= idle
    if not total:
        return [f"{path}: no busy samples"]
    lines = [f"{total} samples of the server's Python (native time under its caller)"]
    if idle:
        lines[0] += f", {idle} more of it waiting in epoll left out"
    lines += [f"{count / total:6.1%}  {part}" for part, count in parts.most_common()]
    lines.append(f"top {top} functions by own samples:")
    lines += [f"{count / total:6.1%}  {name}" for name, count in tops.most_common(top)]
    return lines


def main() -> None:
    """Print the breakdown of one sample file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="py-spy record -f raw output")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    print("\n".join(breakdown(args.path, args.top)))


if __name__ == "__main__":
    main()
