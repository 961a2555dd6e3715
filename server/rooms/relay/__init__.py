"""Reaching a room that another server process runs, over the store's bus.

Owns this process's end of the bus (`endpoint.py`), the asking side (`asker.py`), the
owning side that serves links and hands rooms over (`owner.py`), and what both share on
the wire (`wire.py`).

May import: `server.rooms.errors`, `server.rooms.seats`, `server.rooms.actor`, store.
Never the manager, which uses it.
"""
