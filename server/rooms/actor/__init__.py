"""One room as an actor: a single queue of inputs, applied a batch at a time, saved, and
published as views.

Owns the room (`room.py`: the queue, batches and answers) and its parts, each a job:
the state they share and the attachments that link clients to it (`state.py`), the
table's inputs (`play.py`), seat administration (`seat_admin.py`), attachments and
presence (`clients.py`, with presence's rules and CPU cover in `presence.py`), saving
(`saving.py`, as journal records: `journal.py`), publishing views (`publishing.py`,
built by `view_messages.py`), the wake-up timer (`alarm.py`, on `clock.py`'s clocks),
the input queue (`inbox.py`), and the rules core that applies moves and timers
(`core.py`, with its CPUs' plans in `cpus.py` and each match's seeds in `seeds.py`).

May import: `server.rooms.errors`, `server.rooms.seats`, bots, games, store. Never the
relay or the manager, which drive it; within it, nothing imports `room.py`.
"""
