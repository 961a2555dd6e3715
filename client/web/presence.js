// Who is at the table: every seat's name, the host mark, and whether its human is here,
// away (for how long, and when a CPU takes over) or covered by a CPU ("CPU playing for
// NAME"); for the host, buttons to hand a seat to a CPU or re-issue its seat link. The
// times tick here once a second without redrawing the page.

import { addStrings, t } from "./i18n.js";
import { el } from "./components.js";
import { seatName } from "./names.js";
import { seatClockChip } from "./seat_clock.js";

addStrings({
  en: {
    presence_title: "Players",
    presence_here: "here",
    presence_away: "away {time}",
    presence_cover_in: "CPU plays for them in {time}",
    presence_waits: "the table waits for them",
    presence_covered: "CPU playing for {name}",
    presence_you: "you",
    table_waits_for: "Waiting for {name} to come back.",
    time_s: "{n} s",
    time_min: "{n} min",
    time_h: "{n} h",
    hand_to_cpu: "Hand to CPU",
    new_seat_link: "New seat link",
    take_back: "Take my seat back",
    cover_note_after: "If a player is away for {time}, a CPU plays for them until they return.",
    cover_note_wait: "If a player is away, the table waits for them.",
  },
  ja: {
    presence_title: "参加者",
    presence_here: "在席",
    presence_away: "離席中（{time}）",
    presence_cover_in: "{time}後にCPUが代わりに打ちます",
    presence_waits: "卓は戻りを待っています",
    presence_covered: "CPUが{name}の代わりにプレイ中",
    presence_you: "あなた",
    table_waits_for: "{name}の戻りを待っています。",
    time_s: "{n}秒",
    time_min: "{n}分",
    time_h: "{n}時間",
    hand_to_cpu: "CPUに任せる",
    new_seat_link: "席リンクを再発行",
    take_back: "自分の席に戻る",
    cover_note_after: "参加者が{time}離席すると、戻るまでCPUが代わりに打ちます。",
    cover_note_wait: "参加者が離席しても、卓は戻りを待ちます。",
  },
});

/** A duration in ms as "45 s" / "3 min" / "2 h" (in the player's language). */
export function duration(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return t("time_s", { n: s });
  if (s < 7200) return t("time_min", { n: Math.floor(s / 60) });
  return t("time_h", { n: Math.floor(s / 3600) });
}

/** The presence text of one seat at time `now` (ms, performance.now()); "" for no human. */
function presenceText(seat, i, seats, base, now, waits) {
  if (seat.kind !== "human") return "";
  if (seat.presence === "covered") return t("presence_covered", { name: seatName(seats, i) });
  if (seat.presence !== "away") return t("presence_here");
  const away = t("presence_away", { time: duration((seat.away_ms || 0) + now - base) });
  if (typeof seat.cover_in_ms === "number") {
    return away + " · " + t("presence_cover_in", { time: duration(seat.cover_in_ms - (now - base)) });
  }
  return waits ? away + " · " + t("presence_waits") : away;
}

const live = new Set(); // drawn presence lines, updated every second

function tick() {
  const now = performance.now();
  for (const line of live) {
    if (!line.node.isConnected) live.delete(line);
    else line.node.textContent = line.text(now);
  }
}
setInterval(tick, 1000);

/**
 * The presence panel for the view `msg` received at `receivedAt` (performance.now()).
 * `mine`: seats this browser holds; `actions`: {handToCpu(seat), reissue(seat),
 * takeBack()} (host buttons show only when `isHost`).
 */
export function presencePanel(msg, receivedAt, { mine = [], isHost = false, actions = {} } = {}) {
  const seats = msg.seats || [];
  const room = msg.room || {};
  const playing = room.status === "playing";
  // A room with seat clocks does not wait: the clocks say how long a seat may take.
  const waits = playing && room.cover_after_ms === null && !room.clock;
  const turn = msg.view && typeof msg.view.turn === "number" ? msg.view.turn : null;
  const items = seats.map((seat, i) => {
    const text = (now) => presenceText(seat, i, seats, receivedAt, now, waits);
    const status = el("span", { class: "presence-text", "data-presence-text": String(i) }, text(performance.now()));
    if (seat.kind === "human") live.add({ node: status, text });
    const canHand = isHost && playing && seat.kind === "human" && !seat.covered && !mine.includes(i);
    const canReissue = isHost && seat.kind === "human" && !mine.includes(i);
    return el("li", { class: "presence-seat", "data-presence-seat": String(i), "data-presence": seat.presence || seat.kind },
      el("span", { class: "presence-dot", "aria-hidden": "true" }),
      el("strong", { class: "seat-name" }, seatName(seats, i)),
      seat.host ? el("span", { class: "badge host-badge" }, "★ " + t("host_mark")) : null,
      mine.includes(i) ? el("span", { class: "muted" }, " (" + t("presence_you") + ")") : null,
      seat.kind === "human" ? [" ", status] : null,
      seatClockChip(msg, i, receivedAt, seatName(seats, i)),
      canHand ? el("button", {
        type: "button", class: "ghost small", "data-key": "hand-" + i, id: "hand-to-cpu-" + i,
        onclick: () => actions.handToCpu && actions.handToCpu(i),
      }, t("hand_to_cpu")) : null,
      canReissue ? el("button", {
        type: "button", class: "ghost small", "data-key": "reissue-" + i, id: "reissue-" + i,
        onclick: () => actions.reissue && actions.reissue(i),
      }, t("new_seat_link")) : null);
  });
  // A table that waits on an absent player says so, on the turn of the seat it waits for.
  const waitingOn = waits ? seats.findIndex((s, i) => s.kind === "human" && s.presence === "away"
    && (turn === null || turn === i)) : -1;
  const coveredMine = mine.filter((i) => seats[i] && seats[i].covered);
  return el("section", { class: "panel presence", id: "presence", "aria-label": t("presence_title") },
    el("ul", { class: "presence-list", id: "presence-list" }, items),
    waitingOn >= 0 ? el("p", { class: "badge strong", id: "table-waits", role: "status" },
      t("table_waits_for", { name: seatName(seats, waitingOn) })) : null,
    coveredMine.length && playing ? el("button", {
      type: "button", id: "take-back", "data-key": "take-back", onclick: () => actions.takeBack && actions.takeBack(),
    }, t("take_back")) : null);
}

/** One line saying what the room does when a player is away. */
export function coverNote(coverAfterMs) {
  return coverAfterMs === null || coverAfterMs === undefined
    ? t("cover_note_wait") : t("cover_note_after", { time: duration(coverAfterMs) });
}
