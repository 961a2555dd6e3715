"""The rooms layer: rooms that run matches, the seats and people in them, and their history.

Sub-packages, lowest first; a module imports only from its own package, the ones
listed before it, `errors.py`, and the layers below (bots, games, store), never web:

- `seats/`: seats, room codes and tokens, display names, table-talk rules, "your rooms".
- `history/`: finished matches read from the move log, replays, the match file, the
  archive that serves them.
- `actor/`: one room as an actor: its inputs and batches, the rules core, saving,
  views, presence and cover, its clock and the attachments it publishes to.
- `relay/`: reaching a room another server process runs, over the store's bus.

`manager.py` sits on top: it loads rooms, holds their leases, hands them over, and is
what the web layer calls.
"""
