"""View patches in a room: a listener that asks for them sees, once merged, exactly the
views a listener of the same seat without them is sent, through CPU moves, timers,
exchanges and whole matches; its first view and anything but marking come whole."""

from __future__ import annotations

from typing import Any

from tests.rooms.helpers import Env, Player


class Merging(Player):
    """A player whose attachment takes patches: it merges each into the view before,
    and counts the patches it was sent."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.patches = 0
        self.whole = 0
        self.kept = 0  # patch messages that left out the (unchanged) legal moves
        self.seats_kept = 0  # and those that left out the (unchanged) seats

    def listen(self, message: dict[str, Any]) -> None:
        if message["t"] == "view":
            message = dict(message)
            if "patch" in message:
                self.patches += 1
                before = self.last["view"]
                message["view"] = {**before, **message.pop("patch")}
                if "legal" not in message:
                    self.kept += 1
                    message["legal"] = self.last["legal"]
                if "seats" not in message:
                    self.seats_kept += 1
                    message["seats"] = self.last["seats"]
            else:
                self.whole += 1
        super().listen(message)


async def join(env: Env, code: str, tokens: list[str], player: Player, patches: bool) -> Player:
    """Attach `player` holding `tokens`, asking for patches or not."""
    player.att = await env.manager.attach(code, tokens, player.listen, patches)
    player.att.shown()
    env.players.append(player)
    return player


def same_views(merging: Player, whole: Player) -> int:
    """Assert the two saw the same views from the later one's first; returns how many."""
    count = min(len(merging.messages), len(whole.messages))
    pairs = zip(merging.messages[-count:], whole.messages[-count:], strict=True)
    for got, want in pairs:
        assert got["version"] == want["version"]
        assert got["view"] == want["view"], got["version"]
        assert got["legal"] == want["legal"]
        assert got["seats"] == want["seats"]
    return count


async def test_merged_patches_are_the_whole_views_through_a_match(env: Env) -> None:
    code, tokens = await env.usunoro(humans=2, seed=11, options={"length": "short"})
    players = [await join(env, code, [t], Merging(grabs=True), True) for t in tokens]
    twins = [await join(env, code, [t], Player(plays=False), False) for t in tokens]
    watching = await join(env, code, [], Merging(plays=False), True)
    spectator = await join(env, code, [], Player(plays=False), False)
    await env.manager.start_match(code, tokens[0])
    await env.play_out(code)
    assert players[0].last["room"]["status"] == "over"
    for merging, whole in [*zip(players, twins, strict=True), (watching, spectator)]:
        assert same_views(merging, whole) > 20
        assert merging.patches > 0, "no view went as a patch"
        assert merging.whole > 1, "exchanges and grabs must come whole"
    # Another seat's mark leaves a seat's legal moves as they were: they are left out.
    assert all(p.kept > 0 for p in players)
    assert all(m.seats_kept > 0 for m in [*players, watching])
    assert all(m["t"] == "view" and "patch" not in m for m in twins[0].messages)


async def test_a_late_listener_gets_a_whole_view_first_then_patches(env: Env) -> None:
    code, tokens = await env.usunoro(humans=2, seed=4)
    host = await join(env, code, [tokens[0]], Merging(grabs=True), True)
    await env.manager.start_match(code, tokens[0])
    await env.run(300)
    late = Merging(plays=False)
    late.att = await env.manager.attach(code, [tokens[1]], late.listen, True)
    await env.run(300)
    assert late.whole >= 1 and late.messages[0]["view"]["seat"] == 1
    assert late.patches > 0 and host.patches > 0


async def test_two_seats_on_one_connection_always_get_whole_views(env: Env) -> None:
    code, tokens = await env.usunoro(humans=2, seed=6)
    both = await join(env, code, tokens, Merging(grabs=True), True)
    await env.manager.start_match(code, tokens[0])
    await env.run(2_000)
    assert both.patches == 0 and both.whole > 3


async def test_seats_that_change_come_with_the_patch(env: Env) -> None:
    code, tokens = await env.usunoro(humans=2, seed=5)
    host = await join(env, code, [tokens[0]], Merging(grabs=True), True)
    twin = await join(env, code, [tokens[0]], Player(plays=False), False)
    other = await join(env, code, [tokens[1]], Merging(plays=False), True)
    await env.manager.start_match(code, tokens[0])
    await env.run(300)
    assert host.seats_kept > 0, "seats nobody changed are left out"
    kept, patches = host.seats_kept, host.patches
    assert other.att is not None
    other.att.visible(False)  # seat 1 is away: its away_ms changes in every publish
    await env.run(300)
    assert host.patches > patches and host.seats_kept == kept
    assert host.last["seats"][1]["presence"] == "away"
    assert same_views(host, twin) > 3
