"""The room's CPU pace over HTTP: chosen at creation, shown in the summary, set by the
host in the waiting room only, refused when it is not a pace."""

from __future__ import annotations

import pytest

from client.lib import Client, ZashikiError


async def test_the_host_chooses_and_sets_the_cpu_pace(client: Client) -> None:
    quick = await client.create_room("kokuto_rum", seats=["host", "cpu"], cpu_pace="quick")
    assert (await client.room(quick.code))["cpu_pace"] == "quick"
    host = await client.create_room("kokuto_rum", seats=["host", "open"])
    assert (await client.room(host.code))["cpu_pace"] == "relaxed"
    friend = await client.take_seat(host.code)
    with pytest.raises(ZashikiError, match="not_host"):
        await client.set_cpu_pace(host.code, friend.token, "quick")
    with pytest.raises(ZashikiError, match="bad_option"):
        await client._call(
            "POST", f"/api/rooms/{host.code}/cpu-pace", {"token": host.token, "cpu_pace": "fast"}
        )
    assert (await client.set_cpu_pace(host.code, host.token, "quick"))["cpu_pace"] == "quick"
    await client.start(host.code, host.token)
    with pytest.raises(ZashikiError, match="already_started"):
        await client.set_cpu_pace(host.code, host.token, "relaxed")
    with pytest.raises(ZashikiError, match="bad_option"):
        await client._call("POST", "/api/rooms", {"game": "kokuto_rum", "cpu_pace": "fast"})
