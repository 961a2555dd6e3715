"""The rooms layer: rooms that run matches, the seats and people in them, and their history.

Sub-packages, lowest first; a module imports only from its own package, the ones below
it (history and the actor side by side: neither imports the other), `errors.py`, and the
layers below (bots, games, store), never web:

- `seats/`: seats, room codes and tokens, display names, table-talk rules, "your rooms".
- `history/`: finished matches read from the move log, replays, the match file, the
  archive that serves them.
- `actor/`: one room as an actor: its inputs and batches, the rules core, saving,
  views, presence and cover, its clock and the attachments it publishes to.
- `relay/`: reaching a room another server process runs, over the store's bus.

On top, directly here: `manager.py`, what the web layer calls; `routing.py`, where each
input goes (the room here, or the process that runs it); `live.py`, the rooms this
process runs (loading, leases, housekeeping, handover), with `load_failures.py` backing
off from rooms that fail to load and `stopping.py` stopping them all at shutdown; `due.py`,
the sweep that loads days rooms whose time has come; `lobby.py`, a new room's checked
settings; `first_match.py`, each game's first match (a fixed deal, made through the
manager); `errors.py`, the RoomError every part raises. tests/test_layers.py holds every
module to these rules.
"""
