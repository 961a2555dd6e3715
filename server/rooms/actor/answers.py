"""What each input of a batch is told once the room has handled the batch (room.py):
its result, its own refusal, or, for an input that was accepted, the failure of the
batch's save or publish. A bug is logged here with its traceback; the client learns only
that it failed.
"""

from __future__ import annotations

import logging
from typing import Any

from server.rooms.actor.state import Input
from server.rooms.errors import RoomError

# Each input's result, or its refusal.
Answers = list[tuple[Any, RoomError | None]]
log = logging.getLogger(__name__)


def failure_of(code: str, batch: list[Input], exc: Exception) -> RoomError:
    """What a batch's inputs are told when handling it raised `exc` (in an except)."""
    if isinstance(exc, RoomError):
        return exc
    log.exception("room %s failed on %s", code, batch[0][0])
    # The detail is in the log; clients learn only that it failed.
    return RoomError("internal", "internal error")


def answer(batch: list[Input], answers: Answers, failure: RoomError | None) -> None:
    """Answer each input of a batch: a refusal stands; an accepted input fails with
    its batch's save (`failure`)."""
    for index, (_, _, future) in enumerate(batch):
        if future is None or future.done():
            continue
        result, error = answers[index] if index < len(answers) else (None, failure)
        error = error or failure
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)
