// The waiting room of a room's page (share link, seats, the host's start), the panel of
// a visitor without a seat, and this device's seat box (its links, name, leave), which
// the settings sheet shows too. Each draws from the page's context (room.js `ctx`).

import { addStrings, t } from "./i18n.js";
import { el } from "./components.js";
import { gameName, notify } from "./page.js";
import { nameField } from "./names.js";
import { coverNote } from "./presence.js";
import { mySeatLinks } from "./seat_link.js";
import { leaveRoom } from "./your_rooms.js";
import { clockRule } from "./seat_clock.js";
import { hintsSetting } from "./hints.js";
import { cpuPaceSetting } from "./cpu_pace.js";

addStrings({
  en: {
    start_open_one: "Seat {seats} is still open for a friend: start with a CPU there?",
    start_open_many: "Seats {seats} are still open for friends: start with CPUs there?",
    start_with_cpu: "Start with CPU",
    keep_waiting: "Keep waiting",
    leave_confirm_lobby: "Leave your seat? It opens again for someone else.",
    leave_confirm_match: "Leave your seat? A CPU plays it from now on.",
    cancel: "Cancel",
    seat_revoked_left: "You left this seat.",
    seat_revoked_reissued: "The host gave this seat a new link; this device no longer holds it. Ask the host for the new link.",
    match_started_watch: "The match has started and every seat is taken. You can watch; if one of the seats is yours, open your seat link on this device.",
    room_closed: "Every player left this room, so it is closed. Host a new room to play.",
    your_seat: "Your seat",
  },
  ja: {
    start_open_one: "{seats}番席がまだ友だち用に空いています。CPUを入れて始めますか？",
    start_open_many: "{seats}番席がまだ友だち用に空いています。CPUを入れて始めますか？",
    start_with_cpu: "CPUを入れて始める",
    keep_waiting: "まだ待つ",
    leave_confirm_lobby: "席を離れますか？ 席はほかの人のために空きます。",
    leave_confirm_match: "席を離れますか？ これからはCPUがこの席で打ちます。",
    cancel: "やめる",
    seat_revoked_left: "この席を離れました。",
    seat_revoked_reissued: "ホストがこの席のリンクを再発行したため、この端末はもう席に座っていません。新しいリンクをホストにもらってください。",
    match_started_watch: "対戦が始まり、席はすべて埋まっています。観戦できます。自分の席があるなら、この端末で席リンクを開いてください。",
    room_closed: "全員が退出したため、この部屋は閉じられました。遊ぶには新しい部屋を作ってください。",
    your_seat: "あなたの席",
  },
});

/** Seats still open (1-based numbers), when starting would give them to CPUs. */
function openSeatNumbers(page) {
  const seats = (page.message && page.message.seats) || [];
  return seats.map((s, i) => (s.kind === "open" ? i + 1 : 0)).filter(Boolean);
}

/** Start from the waiting room: asks first while a seat is still open for a friend. */
function askStart(ctx) {
  const { page } = ctx;
  if (openSeatNumbers(page).length && !page.confirmStart) {
    page.confirmStart = true;
    ctx.render();
    return;
  }
  page.confirmStart = false;
  ctx.start();
}

function startConfirm(ctx) {
  const { page } = ctx;
  const open = openSeatNumbers(page);
  const seats = open.join(", ");
  return el("div", { class: "panel confirm", role: "alertdialog", "aria-labelledby": "start-open-text", id: "start-confirm" },
    el("p", { id: "start-open-text" }, t(open.length > 1 ? "start_open_many" : "start_open_one", { seats })),
    el("div", { class: "row" },
      el("button", { type: "button", id: "start-with-cpu", "data-key": "start-with-cpu", onclick: () => askStart(ctx) },
        t("start_with_cpu")),
      el("button", {
        type: "button", class: "ghost", id: "keep-waiting", "data-key": "keep-waiting",
        onclick: () => { page.confirmStart = false; ctx.render(); },
      }, t("keep_waiting"))));
}

/** Leave: a button, then a confirmation saying what becomes of the seat. */
function leaveControls(ctx) {
  const { page } = ctx;
  if (!ctx.held().length || ctx.watching()) return null;
  const lobby = !page.message || !page.message.room || page.message.room.status === "lobby";
  if (!page.confirmLeave) {
    return el("button", {
      type: "button", class: "ghost", id: "leave-seat", "data-key": "leave-seat",
      onclick: () => { page.confirmLeave = true; ctx.render(); },
    }, t("leave_seat"));
  }
  return el("div", { class: "confirm", role: "alertdialog", id: "leave-confirm", "aria-labelledby": "leave-text" },
    el("p", { id: "leave-text" }, t(lobby ? "leave_confirm_lobby" : "leave_confirm_match")),
    el("div", { class: "row" },
      el("button", {
        type: "button", id: "leave-yes", "data-key": "leave-yes",
        onclick: async () => {
          if (await leaveRoom(ctx.code)) ctx.left();
        },
      }, t("leave_seat")),
      el("button", {
        type: "button", class: "ghost", id: "leave-no", "data-key": "leave-no",
        onclick: () => { page.confirmLeave = false; ctx.render(); },
      }, t("cancel"))));
}

/** This device's seat here: its seat links, the name field and Leave. */
export function mySeatBox(ctx) {
  return el("div", { class: "my-seat" }, mySeatLinks(ctx.code),
    nameField({ onSave: ctx.renameSeats, current: ctx.myCurrentName() }), leaveControls(ctx));
}

function shareBox(code) {
  const link = `${location.origin}/?room=${code}`;
  return el("div", { class: "share" },
    el("label", { for: "share-link", class: "label" }, t("share_link")),
    el("input", { id: "share-link", readonly: true, value: link, "data-key": "share-link" }),
    el("button", {
      type: "button", "data-key": "copy",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          notify(t("copied"));
        } catch {
          document.getElementById("share-link").select();
          notify(t("copy_failed"));
        }
      },
    }, t("copy")));
}

function seatList(ctx, room, seats) {
  const mine = ctx.mySeats();
  const isHost = Boolean(room) && mine.includes(room.host);
  return el("ul", { class: "room-list", id: "seat-list" }, seats.map((s, i) => el("li", { "data-seat-row": String(i) },
    el("span", {}, t("seat_n", { n: i + 1 }), " — ",
      s.kind === "open" ? el("em", {}, t("friend_waiting"))
        : s.kind === "cpu" ? t("seat_kind_cpu")
          : mine.includes(i) ? [t("you"), s.name ? ` (${s.name})` : ""]
            : el("span", { class: "seat-name" }, s.name || t("friend_joined")),
      s.host ? el("span", { class: "badge host-badge" }, "★ " + t("host_mark")) : null),
    isHost && s.kind === "human" && !mine.includes(i) ? el("button", {
      type: "button", class: "ghost small", "data-key": "reissue-" + i, id: "reissue-" + i,
      onclick: () => ctx.seatActions.reissue(i),
    }, t("new_seat_link")) : null)));
}

/** The waiting room: the share link, the seats, the room's rule, the host's start. */
export function waitingRoom(ctx) {
  const { page } = ctx;
  const msg = page.message;
  const seats = (msg && msg.seats) || (page.summary && page.summary.seats) || [];
  const hostSeat = msg && msg.room ? msg.room.host : page.summary && page.summary.host;
  const isHost = ctx.mySeats().includes(hostSeat);
  const cover = msg && msg.room ? msg.room.cover_after_ms : page.summary && page.summary.cover_after_ms;
  const clock = ctx.roomClock();
  return el("section", { class: "panel" },
    shareBox(ctx.code),
    seatList(ctx, msg && msg.room, seats),
    el("p", { class: "muted small", id: "cover-note" }, clock ? clockRule(clock) : coverNote(cover)),
    hintsSetting(ctx, ctx.hostToken),
    cpuPaceSetting(ctx, ctx.hostToken),
    page.confirmStart && isHost ? startConfirm(ctx) : isHost
      ? el("button", { type: "button", id: "start-button", "data-key": "start", onclick: () => askStart(ctx) },
        t("start_match"))
      : el("p", { class: "muted" }, t("waiting_host")),
    page.reissued ? ctx.presence()[1] : null,
    mySeatBox(ctx));
}

/** A visitor without a seat here: take an open seat, or watch. */
export function visitorPanel(ctx) {
  const { page } = ctx;
  const summary = page.summary;
  const canSit = summary && summary.open_seats > 0 && summary.status === "lobby";
  return el("section", { class: "panel" },
    el("p", {}, gameName(summary.game)),
    page.revoked ? el("p", { class: "error", role: "alert", id: "seat-revoked" },
      t(page.revoked === "seat_left" ? "seat_revoked_left" : "seat_revoked_reissued")) : null,
    canSit ? nameField() : null,
    canSit
      ? el("button", { type: "button", id: "take-seat", "data-key": "take-seat", onclick: ctx.takeSeat },
        t("take_seat"))
      : el("p", { id: "room-full" },
        t({ lobby: "room_full", closed: "room_closed" }[summary.status] || "match_started_watch")),
    " ",
    el("button", { type: "button", class: "ghost", id: "watch", onclick: ctx.watchRoom }, t("watch")));
}
