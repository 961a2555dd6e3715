"""Seats and the people in them: who sits where, what they are called, what they may say.

Owns seats, room settings, room codes and seat tokens (`seat.py`), display names and
other short free text (`names.py`), the table-talk rules and their moderation
(`talk.py`), and "your rooms", read from saves (`your_rooms.py`).

May import: `server.rooms.errors`, games, store. Nothing else of the rooms layer.
"""
