// "Your rooms" in the lobby, the home of turn-based play: every room this browser holds a
// seat in, with its game, status, whose move it is ("your turn" stands out, and those rooms
// come first), your clock, the last move in words, Resume and Leave; the title counts the
// rooms waiting for you. One HTTP call answers for all of them (the 20 most recent; the
// server's bound). While the lobby is open the panel asks again when the page comes back
// into view or gets focus, and every REFRESH_MS while it is in view (never in a hidden tab).

import { addStrings, lang, t } from "./i18n.js";
import { el, replaceKeepingFocus } from "./components.js";
import { api, seatStore } from "./net.js";
import { errorText, gameName, notify } from "./page.js";
import { seatName } from "./names.js";
import { duration } from "./presence.js";
import { pushToggle } from "./push.js";
import { describeEvent } from "./move_log.js";
import { clockLeft, clockTime } from "./seat_clock.js";

addStrings({
  en: {
    your_rooms: "Your rooms",
    your_rooms_waiting: "{n} waiting for you",
    your_clock: "Your clock: {time}",
    last_move_words: "Last: {text}",
    your_rooms_none: "Rooms you take a seat in show up here.",
    your_turn: "Your turn",
    turn_of: "{name}'s turn",
    status_lobby: "waiting to start",
    status_playing: "playing",
    status_over: "match over",
    last_activity: "last move {time} ago",
    resume: "Resume",
    leave_seat: "Leave seat",
    left_seat: "You left the seat.",
    your_rooms_offline: "Offline: as this device last saw them.",
    your_room_unavailable: "can't be opened right now",
  },
  ja: {
    your_rooms: "参加中の部屋",
    your_rooms_waiting: "{n}部屋であなたの番",
    your_clock: "あなたの持ち時間：{time}",
    last_move_words: "直前：{text}",
    your_rooms_none: "席に座った部屋がここに表示されます。",
    your_turn: "あなたの番",
    turn_of: "{name}の番",
    status_lobby: "開始待ち",
    status_playing: "対戦中",
    status_over: "対戦終了",
    last_activity: "最後の手から{time}",
    resume: "再開",
    leave_seat: "席を離れる",
    left_seat: "席を離れました。",
    your_rooms_offline: "オフライン：この端末が最後に見たときの様子です。",
    your_room_unavailable: "いまは開けません",
  },
});

const LIMIT = 20;
// How often an open, visible lobby asks again: a turn taken elsewhere shows within this.
export const REFRESH_MS = 30_000;
// A focus or visibility change within this of the last answer asks nothing (a tab switch
// fires both).
const FRESH_MS = 2_000;
// The last answer, shown when the server cannot be reached (the app opens offline).
const LAST_KEY = "zashiki.yourRooms.last";

/** Leave every seat this browser holds in room `code`; true when done. */
export async function leaveRoom(code) {
  try {
    for (const held of seatStore.get(code)) {
      await api("POST", `/api/rooms/${code}/leave`, { token: held.token });
      seatStore.drop(code, held.seat);
    }
    notify(t("left_seat"));
    return true;
  } catch (err) {
    notify(errorText(err));
    return false;
  }
}

function lastSeen() {
  try {
    return JSON.parse(localStorage.getItem(LAST_KEY)) || [];
  } catch {
    return [];
  }
}

/**
 * The "your rooms" panel; `navigate(code)` opens a room. Returns {node, refresh, redraw,
 * stop}: the panel fills itself after one call, again on refresh() and by itself while
 * shown (see REFRESH_MS); redraw() for a new language; stop() when the lobby is left.
 */
export function yourRoomsPanel(navigate) {
  const list = el("div", { id: "your-rooms-list" });
  const title = el("h2", { id: "your-rooms-title" });
  const node = el("section", { class: "panel", "aria-labelledby": "your-rooms-title", id: "your-rooms" },
    title, list);
  let rooms = [];
  let offline = false;
  let fetchedAt = Date.now();

  /** Whose move it is: yours first, else the seats with one (or the public turn). */
  function whoseMove(room) {
    if (room.your_turn) return el("span", { class: "badge strong your-turn" }, t("your_turn"));
    if (room.status !== "playing") return null;
    const seats = (room.to_move && room.to_move.length) ? room.to_move : room.turn !== null ? [room.turn] : [];
    return seats.length ? el("span", { class: "badge" },
      t("turn_of", { name: seats.map((s) => seatName(room.seats, s)).join(", ") })) : null;
  }

  /** This seat's clock, counted to now from when the answer came. */
  function yourClock(room) {
    const clock = room.clock;
    const own = clock && clock.seats && clock.seats[room.seat];
    if (!own || room.status !== "playing") return null;
    const [move, bank] = clockLeft(own, Date.now() - fetchedAt);
    const time = `${clockTime(move, clock.mode)} + ${clockTime(bank, clock.mode)}`;
    return el("span", { class: `seat-clock${own.running ? " running" : ""}`, "data-your-clock": room.code },
      (own.running ? "⏱ " : "") + t("your_clock", { time }));
  }

  /** The last move in words, as the room's move log says it. */
  function lastMove(room) {
    const ctx = { game: room.game, seats: room.seats, you: [room.seat], events: room.last_events || [] };
    const said = (room.last_events || []).map((e) => describeEvent(e, ctx)).filter((s) => s.known);
    if (!said.length || room.status === "lobby") return null;
    const text = said.slice(0, 2).map((s) => s[lang()] || s.en).join(" ");
    return el("span", { class: "muted small last-move-words" }, t("last_move_words", { text }));
  }

  /** A room whose save the server cannot load now: its code (and game, as last seen), the
   * note, and Resume (the room's page explains and tries again). */
  function unavailableRow(room) {
    return el("li", { "data-room": room.code, class: "unavailable-row" },
      el("span", {}, el("strong", {}, room.code), room.game ? " · " + gameName(room.game) : "", " · ",
        el("span", { class: "badge", "data-unavailable": room.code }, t("your_room_unavailable"))),
      el("span", { class: "row" },
        el("button", { type: "button", "data-key": "resume-" + room.code, onclick: () => navigate(room.code) },
          t("resume"))));
  }

  function row(room) {
    if (room.unavailable) return unavailableRow(room);
    const ago = Date.now() / 1000 - room.last_activity;
    return el("li", { "data-room": room.code, class: room.your_turn ? "your-turn-row" : null },
      el("span", {}, el("strong", {}, room.code), " · ", gameName(room.game), " · ",
        t("status_" + room.status), " ", whoseMove(room), " ", yourClock(room),
        el("span", { class: "muted small" }, " · " + t("last_activity", { time: duration(ago * 1000) })),
        el("br"), lastMove(room)),
      el("span", { class: "row" },
        el("button", { type: "button", "data-key": "resume-" + room.code, onclick: () => navigate(room.code) },
          t("resume")),
        el("button", {
          type: "button", class: "ghost", "data-key": "leave-" + room.code,
          onclick: async () => { if (await leaveRoom(room.code)) refresh(); },
        }, t("leave_seat"))),
      pushToggles(room.code));
  }

  function pushToggles(code) {
    const held = seatStore.get(code);
    return held.map((seat) => pushToggle(code, seat, {
      short: true, label: held.length > 1 ? t("seat_n", { n: seat.seat + 1 }) : null,
    }));
  }

  function draw() {
    const waiting = rooms.filter((r) => r.your_turn).length;
    title.replaceChildren(t("your_rooms"), " ", waiting ? el("span", { class: "badge strong", id: "your-rooms-waiting" },
      t("your_rooms_waiting", { n: waiting })) : "");
    // A keyboard player's focus on a row's button stays on it through a refresh.
    replaceKeepingFocus(list, offline && rooms.length ? el("p", { class: "muted" }, t("your_rooms_offline")) : "",
      rooms.length
        ? el("ul", { class: "room-list" }, rooms.map(row))
        : el("p", { class: "muted" }, t("your_rooms_none")));
  }

  let asking = null; // the refresh in flight
  let again = false; // asked meanwhile (a seat left): ask again once it is done
  let askedAt = 0;

  /** Ask the server again; `soft`: not when an ask is already on its way. */
  function refresh({ soft = false } = {}) {
    if (asking) {
      again = again || !soft;
      return asking;
    }
    askedAt = Date.now();
    asking = ask().finally(() => {
      asking = null;
      if (again) {
        again = false;
        refresh();
      }
    });
    return asking;
  }

  async function ask() {
    const seats = [];
    for (const code of seatStore.rooms()) {
      for (const held of seatStore.get(code)) if (seats.length < LIMIT) seats.push({ code, token: held.token });
    }
    if (!seats.length) {
      rooms = [];
      draw();
      return;
    }
    try {
      const answer = await api("POST", "/api/your-rooms", { seats });
      const byCode = new Map();
      answer.rooms.forEach((entry, i) => {
        if (entry.error === "room_unavailable") {
          // The room exists but its save cannot be loaded now: keep the seat (the operators
          // may mend it) and show the room as last seen, marked.
          const before = lastSeen().find((room) => room.code === entry.code) || {};
          byCode.set(entry.code, { code: entry.code, game: before.game, last_activity: before.last_activity || 0,
            your_turn: false, unavailable: true });
          return;
        }
        if (entry.error) {
          // Left or re-issued elsewhere, or the room expired: this seat is not ours now.
          const held = seatStore.get(seats[i].code).find((s) => s.token === seats[i].token);
          if (held) seatStore.drop(seats[i].code, held.seat);
          return;
        }
        const seen = byCode.get(entry.code);
        if (seen) seen.your_turn = seen.your_turn || entry.your_turn;
        else byCode.set(entry.code, entry);
      });
      // Your-move rooms first, then the most recently active.
      rooms = [...byCode.values()].sort((a, b) => Number(b.your_turn) - Number(a.your_turn)
        || (b.last_activity || 0) - (a.last_activity || 0));
      fetchedAt = Date.now();
      offline = false;
      localStorage.setItem(LAST_KEY, JSON.stringify(rooms));
    } catch (err) {
      // Unreachable: the last answer, for the rooms still held. Any other failure: none.
      offline = err.code === "network";
      rooms = offline ? lastSeen().filter((room) => seatStore.get(room.code).length) : [];
    }
    draw();
  }

  // Back in view: ask. Focus: ask unless an answer just came (a tab switch fires both).
  const shown = () => { if (!document.hidden) refresh({ soft: true }); };
  const focused = () => { if (!document.hidden && Date.now() - askedAt > FRESH_MS) refresh({ soft: true }); };
  const timer = setInterval(() => { if (!document.hidden) refresh({ soft: true }); }, REFRESH_MS);
  document.addEventListener("visibilitychange", shown);
  window.addEventListener("focus", focused);
  function stop() {
    clearInterval(timer);
    document.removeEventListener("visibilitychange", shown);
    window.removeEventListener("focus", focused);
  }

  draw();
  refresh();
  return { node, refresh, redraw: draw, stop };
}
