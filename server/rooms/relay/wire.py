"""What both ends of a relayed link share: where a process listens, how it sends there,
and what a client is told when its link closes because the room moved."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

MOVED = "the room moved to another server; reconnect"
# Publish a message to a process's inbox, signed with the sender's id; the future gives
# how many listened there (0: nobody, the process is gone).
Send = Callable[[str, dict[str, Any]], asyncio.Future[int]]


def inbox(instance_id: str) -> str:
    """The bus channel a process listens on."""
    return f"bus:{instance_id}"
