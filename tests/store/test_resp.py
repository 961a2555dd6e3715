"""The lean save connection (resp.py) against a real Redis: order, errors, db, reconnect."""

from __future__ import annotations

import uuid

import hiredis
import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from server.store.resp import RespConnection, pack_command


def key() -> str:
    return f"t-resp:{uuid.uuid4().hex}"


@pytest.mark.parametrize(
    "command",
    [
        ("PING",),
        ("SET", "k", b"", 0),
        ("EVALSHA", "a" * 40, 2, "room:AB", "log:AB", 12, b"\x00\r\n" * 100, 86_400_000, "d"),
        ("X", -3, 1.5, "すべての札", b"\xff" * 300),
    ],
)
def test_commands_are_packed_as_hiredis_packs_them(command: tuple[object, ...]) -> None:
    assert pack_command(command) == hiredis.pack_command(command)  # type: ignore[arg-type]


async def test_a_batch_gets_its_replies_in_order(redis_url: str) -> None:
    conn = RespConnection(redis_url)
    k = key()
    replies = await conn.execute([("SET", k, b"v"), ("APPEND", k, "w"), ("GET", k)])
    await conn.aclose()
    assert replies == [b"OK", 2, b"vw"]


async def test_an_error_reply_is_a_value_and_does_not_disturb_the_rest(redis_url: str) -> None:
    conn = RespConnection(redis_url)
    k = key()
    replies = await conn.execute([("SET", k, b"x"), ("INCR", k), ("GET", k)])
    await conn.aclose()
    assert isinstance(replies[1], Exception) and replies[::2] == [b"OK", b"x"]


async def test_the_database_in_the_url_is_selected(redis_url: str) -> None:
    url = redis_url.rsplit("/", 1)[0] + "/3"
    conn = RespConnection(url)
    k = key()
    await conn.execute([("SET", k, b"in-3")])
    await conn.aclose()
    other = aioredis.Redis.from_url(url)
    assert await other.get(k) == b"in-3"
    await other.aclose()


async def test_after_the_connection_is_killed_batches_go_on_over_a_new_one(
    redis_url: str,
) -> None:
    conn = RespConnection(redis_url)
    [first_id] = await conn.execute([("CLIENT", "ID")])
    admin = aioredis.Redis.from_url(redis_url)
    await admin.execute_command("CLIENT", "KILL", "ID", first_id)
    await admin.aclose()
    replies: list[object] = []
    for _ in range(3):  # a batch already on its way when the kill lands fails once
        try:
            replies = await conn.execute([("CLIENT", "ID")])
            break
        except RedisConnectionError:
            continue
    await conn.aclose()
    assert replies and replies[0] != first_id


async def test_an_unreachable_redis_raises_a_connection_error() -> None:
    conn = RespConnection("redis://127.0.0.1:1/0")
    with pytest.raises(RedisConnectionError):
        await conn.execute([("PING",)])
