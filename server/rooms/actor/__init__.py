"""One room as an actor: a single task that takes inputs, applies them, saves, publishes.

Owns the room (`room.py`) and what it is made of: the rules core that applies moves and
timers (`core.py`), the inbox of inputs (`inbox.py`), saving as journal records
(`journal.py`), the views it builds (`view_messages.py`), presence and the CPU's cover
(`presence.py`), seat administration (`seat_admin.py`), its clock (`clock.py`) and the
attachments it publishes to (`attachment.py`).

May import: `server.rooms.errors`, `server.rooms.seats`, bots, games, store. Never the
relay or the manager, which drive it.
"""
