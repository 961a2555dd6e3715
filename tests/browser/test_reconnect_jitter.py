"""net.js in real Chromium: reconnect pauses back off with jitter, so the clients of a
restarted server do not all come back in the same instant (issue 18, finding 16).

The page's WebSocket is replaced by one that fails at once, and setTimeout by one that
records the pause asked for: the real RoomSocket code chooses each pause.
"""

from __future__ import annotations

from typing import Any

RECORD = """
async () => {
  const waits = [];
  window.setTimeout = (fn, ms) => { waits.push(ms); return 0; };
  class Failing {
    constructor() { Promise.resolve().then(() => this.onclose({ code: 1006 })); }
    send() {}
    close() {}
  }
  window.WebSocket = Failing;
  const { RoomSocket } = await import("/net.js");
  const sockets = [];
  for (let i = 0; i < 20; i++) {
    sockets.push(new RoomSocket("ABCDEF", [], { onMessage() {}, onStatus() {} }));
  }
  await new Promise((resolve) => queueMicrotask(resolve));
  await Promise.resolve();
  return waits;
}
"""


def test_first_reconnect_pauses_are_spread_within_half_to_all_of_the_back_off(
    new_page: Any, server_url: str
) -> None:
    page = new_page()
    page.goto(server_url + "/")
    waits = page.evaluate(RECORD)
    assert len(waits) == 20  # one first pause per socket
    assert all(150 <= w <= 300 for w in waits), waits  # back-off 300 ms, jitter half of it
    assert len({round(w) for w in waits}) > 10, waits  # not all the same instant
