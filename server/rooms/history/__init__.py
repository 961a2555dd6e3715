"""A room's history: its finished matches, their replays and match files.

Owns the cutting of the store's move log into finished matches and the replayer
(`matches.py`), rebuilding a room's latest match from the log (`replay.py`), the match
file and its verification (`match_file.py`, schema `match.schema.json`), a match's
review with the Hard CPU's opinion (`review.py`), the queue that makes reviews one at a
time (`review_queue.py`) in a worker process (`review_worker.py`), and the archive any
process serves them from (`archive.py`).

May import: `server.rooms.errors`, `server.rooms.seats`, bots (the review asks
`advice`), games, store. Never the actor or the relay: history reads the store, not a
running room.
"""
