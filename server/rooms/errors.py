"""The one error type rooms raise to their callers, with a stable machine code."""

from __future__ import annotations


class RoomError(Exception):
    """A refused request: `code` is stable and machine-readable, `message` is for people.

    Codes: room_not_found, bad_token, bad_seat, room_full, not_host, not_started,
    already_started, match_over, not_your_seat, illegal_action, stale_seq, bad_game,
    bad_option, bad_request, paused, room_elsewhere (another process runs the room and
    none that runs it could be reached, or there is no bus to reach it: retry later),
    room_moved (the room stopped running here, or on the process relayed to: taken
    over, handed over, or that process is gone; reconnect), room_unavailable (the room's
    saved state fails to load here: its game removed, a corrupt dump; tried again later).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def to_dict(self) -> dict[str, str]:
        """Plain form for an error frame."""
        return {"code": self.code, "message": self.message}
