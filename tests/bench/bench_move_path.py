"""CPU per move of the room path alone: move, save, views built and packed as frames.

    python3 -m tests.bench.bench_move_path --rooms 50 --moves 20000

No sockets and no Redis (the in-process store), so the figure is steadier than
bench_load's and isolates what the room and the frame encoder cost. Rooms of four human
seats, each seat its own attachment whose listener packs its frames as the websocket
outbox does; moves go round-robin over the rooms, each the seat's bench_load move.
The attachments take view patches, as the browser's do (`--whole`: whole views only).
The collector is set as the server sets it (frozen start-up, its thresholds). Prints
process CPU microseconds per move (best of `--repeat` passes).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import time
from typing import Any

from server.rooms.actor.clock import VirtualClock
from server.rooms.manager import Attachment, RoomManager
from server.store.memory_store import MemoryStore
from server.web import frames
from server.web.app import GC_THRESHOLDS
from tests.bench.bench_load import next_move


class Seat:
    """One seat's attachment and the latest message it was sent."""

    def __init__(self) -> None:
        self.att: Attachment | None = None
        self.message: dict[str, Any] | None = None
        self.seq = 0
        self.sent = 0

    def listen(self, message: dict[str, Any]) -> None:
        """The listener: pack like the outbox, keep the message (a patch merged, as the
        client does) for the next move."""
        self.sent += len(frames.encode_view(message))
        if "patch" in message and self.message is not None:
            message = {
                "legal": self.message["legal"],
                "seats": self.message["seats"],
                **message,
                "view": {**self.message["view"], **message["patch"]},
            }
        self.message = message


async def open_room(manager: RoomManager, n: int, patches: bool) -> list[Seat]:
    """A started Usunoro room of four humans, each seat attached on its own."""
    code, _, host = await manager.create_room(
        "usunoro", {}, ["host", "open", "open", "open"], seed=n
    )
    tokens = [host] + [(await manager.take_seat(code, s, f"p{s}"))[1] for s in (1, 2, 3)]
    await manager.start_match(code, host)
    seats = []
    for seat, token in enumerate(tokens):
        made = Seat()
        made.att = await manager.attach(code, [token], made.listen, patches)
        made.att.shown()
        seats.append(made)
        assert seat in made.att.seats
    return seats


def pick_move(room: list[Seat]) -> tuple[Attachment, int, int, dict[str, Any]] | None:
    """A random seat of `room` and its bench_load move, with the seat's next move number:
    (attachment, seat, seq, action) to pass to `Attachment.move`, so a caller can time the
    move alone; None when that seat has no move now."""
    seat_no = random.randrange(4)
    seat = room[seat_no]
    action = next_move(seat.message, seat_no)
    if action is None or seat.att is None:
        return None
    seat.seq += 1
    return seat.att, seat_no, seat.seq, action


async def play(rooms: list[list[Seat]], moves: int) -> tuple[float, int]:
    """Make `moves` moves round-robin; returns CPU seconds and bytes of frames sent."""
    sent_before = sum(s.sent for room in rooms for s in room)
    started = time.process_time()
    done = 0
    while done < moves:
        for room in rooms:
            picked = pick_move(room)
            if picked is not None:
                att, seat_no, seq, action = picked
                await att.move(seat_no, seq, action)
                done += 1
    cpu = time.process_time() - started
    return cpu, sum(s.sent for room in rooms for s in room) - sent_before


async def main(rooms_n: int, moves: int, repeat: int, patches: bool) -> None:
    """Open the rooms, warm up, then measure `repeat` passes."""
    random.seed(1)
    manager = RoomManager(MemoryStore(), VirtualClock(), instance_id="bench")
    await manager.start()
    # The server's collector settings (server/web/app.py): with Python's defaults, full
    # collections walking every room would be half of what a move misses in the cache.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    rooms = [await open_room(manager, i, patches) for i in range(rooms_n)]
    await play(rooms, moves // 4)
    best = None
    for _ in range(repeat):
        cpu, sent = await play(rooms, moves)
        print(f"{cpu / moves * 1e6:7.1f} µs/move  {sent / moves:6.0f} B of frames per move")
        best = cpu if best is None else min(best, cpu)
    assert best is not None
    print(f"best: {best / moves * 1e6:.1f} µs CPU per move ({rooms_n} rooms, {moves} moves)")
    await manager.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--moves", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--whole", action="store_true", help="whole views only, no patches")
    args = parser.parse_args()
    asyncio.run(main(args.rooms, args.moves, args.repeat, not args.whole))
