// Talking to the server: JSON over HTTP for rooms and seats, msgpack over the websocket
// for play (server/web/PROTOCOL.md is the reference). Seat tokens are kept in
// localStorage so a reload or a visit tomorrow gets the same seat back.

const { encode, decode } = window.MessagePack;

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/**
 * Call an HTTP route; resolves with the JSON answer or rejects with an ApiError. Each call
 * tells the page whether the server could be reached (a "zashiki:reach" event, detail
 * true or false: install.js shows what still works offline).
 */
export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    window.dispatchEvent(new CustomEvent("zashiki:reach", { detail: false }));
    throw new ApiError("network", String(err), 0);
  }
  window.dispatchEvent(new CustomEvent("zashiki:reach", { detail: true }));
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data || {};
    throw new ApiError(error.code || "http_" + response.status, error.message || response.statusText,
      response.status);
  }
  return data;
}

/** Seats this browser holds, per room code: [{seat, token}]. */
export const seatStore = {
  key: (code) => "zashiki.seats." + code,
  get(code) {
    try {
      return JSON.parse(localStorage.getItem(this.key(code))) || [];
    } catch {
      return [];
    }
  },
  add(code, seat, token) {
    const held = this.get(code).filter((s) => s.seat !== seat);
    held.push({ seat, token, at: Date.now() });
    held.sort((a, b) => a.seat - b.seat);
    localStorage.setItem(this.key(code), JSON.stringify(held));
  },
  forget(code) {
    localStorage.removeItem(this.key(code));
  },
  /** Drop one held seat of a room (left, or its token re-issued). */
  drop(code, seat) {
    const held = this.get(code).filter((s) => s.seat !== seat);
    if (held.length) localStorage.setItem(this.key(code), JSON.stringify(held));
    else this.forget(code);
  },
  /** Every room code this browser holds a seat in, most recently taken first. */
  rooms() {
    const codes = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("zashiki.seats.")) codes.push(key.slice("zashiki.seats.".length));
    }
    const latest = (code) => Math.max(0, ...this.get(code).map((s) => s.at || 0));
    return codes.filter((code) => this.get(code).length).sort((a, b) => latest(b) - latest(a));
  },
};

/** Per-seat move numbers survive reloads, so a new move is never taken for a resend. */
function nextSeq(code, seat) {
  const key = `zashiki.seq.${code}.${seat}`;
  const seq = (parseInt(localStorage.getItem(key) || "0", 10) || 0) + 1;
  localStorage.setItem(key, String(seq));
  return seq;
}

const FATAL_CLOSES = new Set([4000, 4001, 4003, 4004, 4009]);
// After a `room_unavailable` error (the room's save cannot be loaded on the server: its
// game removed, a corrupt save) the close is a 1013 like any "try again", but a fix takes
// the operators minutes or hours, not seconds: ask again once a minute instead of every
// few seconds. Each ask is cheap (the server refuses at once between its own tries, which
// back off from 30 s to an hour), and a page left open comes back within a minute of a
// fix (a restarted server tries the load at once).
export const UNAVAILABLE_RETRY_MS = 60_000;

/**
 * A room connection that reconnects by itself and resends unacknowledged moves with
 * their original sequence numbers. `handlers`: onMessage(frame), onStatus(text): "connecting",
 * "connected", "reconnecting", "refused" (with the close code and reason) or "unavailable"
 * (the room cannot be opened now; asked again every UNAVAILABLE_RETRY_MS).
 */
export class RoomSocket {
  constructor(code, tokens, handlers) {
    this.code = code;
    this.tokens = tokens;
    this.handlers = handlers;
    this.pending = new Map(); // "seat:seq" -> move frame awaiting its ack
    this.retry = 0;
    this.closed = false;
    this.unavailable = false; // the server said room_unavailable, and no view came since
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws?room=${encodeURIComponent(this.code)}`);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    // While the room is unavailable its page keeps saying so through each quiet retry.
    if (!this.unavailable) this.handlers.onStatus("connecting");
    // The game view, legal moves and seats as of this socket's last view frame: a "patch"
    // frame holds only the fields that changed since, and no "legal" or "seats" when those
    // are unchanged (PROTOCOL.md). A new socket starts with a whole view.
    let last = null;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(encode({ t: "hello", tokens: this.tokens, patches: true }));
      for (const frame of this.pending.values()) ws.send(encode(frame));
    };
    ws.onmessage = (event) => {
      let frame;
      try {
        frame = decode(new Uint8Array(event.data));
      } catch {
        return;
      }
      if (frame.t === "error" && frame.code === "room_unavailable") this.unavailable = true;
      if (frame.t === "ack" || (frame.t === "error" && frame.seq !== undefined)) {
        this.pending.delete(`${frame.seat}:${frame.seq}`);
      }
      if (frame.t === "view") {
        if ("patch" in frame) {
          frame.view = { ...last.view, ...frame.patch };
          delete frame.patch;
          if (!("legal" in frame)) frame.legal = last.legal;
          if (!("seats" in frame)) frame.seats = last.seats;
        }
        last = frame;
      }
      // The view a move caused carries its ack (no separate ack frame follows).
      if (frame.t === "view" && frame.ack) this.pending.delete(`${frame.ack.seat}:${frame.ack.seq}`);
      if (frame.t === "welcome" || frame.t === "view") {
        this.unavailable = false;
        this.handlers.onStatus("connected");
      }
      this.handlers.onMessage(frame);
    };
    ws.onclose = (event) => {
      if (this.closed) return;
      if (FATAL_CLOSES.has(event.code)) {
        this.handlers.onStatus("refused", event.code, event.reason);
        return;
      }
      if (this.unavailable) {
        this.handlers.onStatus("unavailable");
        setTimeout(() => this.closed || this.open(), UNAVAILABLE_RETRY_MS);
        return;
      }
      this.handlers.onStatus("reconnecting");
      // Jitter (half the back-off, at random): the clients of a restarted server spread
      // out instead of all reconnecting in the same instant.
      const backoff = Math.min(8000, 300 * 2 ** this.retry++);
      const wait = backoff / 2 + Math.random() * (backoff / 2);
      setTimeout(() => this.closed || this.open(), wait);
    };
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(encode(frame));
  }

  /** Send a move for one of our seats; it is resent after a reconnect until acked. */
  move(seat, action) {
    const frame = { t: "move", seat, seq: nextSeq(this.code, seat), action };
    this.pending.set(`${seat}:${frame.seq}`, frame);
    this.send(frame);
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close(1000);
  }
}
