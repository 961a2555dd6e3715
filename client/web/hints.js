// Hints at a room's table (PROTOCOL.md "Hints"): while the room has hints on, the dock
// has a Hint button at this player's decisions, which asks the server for the strong
// CPU's move for their seat; the table marks that move (tables/suggest.js) and the
// status line says why, until the player's legal moves change. The dock also shows the
// engine's helper lines for the seat in one compact line, each line's figure at the move
// it is about (a gap's or a rotation's hand score, Jong's winning insertion), all of them
// in the head row's Hints sheet, whose button tells every seat (and spectator) that hints are on. At each
// round's end the result says how many hints each seat used; the waiting room shows the
// setting (the host changes it there).

import { api } from "./net.js";
import { addStrings, lang, t } from "./i18n.js";
import { el } from "./components.js";
import { errorText, notify } from "./page.js";
import { fold, refuse } from "./tables/frame.js";
import { actionKey } from "./tables/suggest.js";

addStrings({
  en: {
    hint_button: "Hint",
    hint_asking: "Thinking…",
    hint_label: "Hint: what would the strong CPU play here?",
    hints_on: "Hints on",
    hints_note: "Hints are on in this room: each player may ask what the strong CPU would play from their own seat (it sees only what that seat sees). Nobody else sees the answer; how many each player used shows at the end of each round.",
    helpers_none: "No helper lines right now.",
    hints_used: "Hints used: {list}",
    hints_used_item: "{who} {n}",
    hints_setting: "Hints: anyone may ask what the strong CPU would play",
    hints_state_on: "Hints: on (each player may ask what the strong CPU would play)",
    hints_state_off: "Hints: off",
    err_hints_off: "The host turned hints off in this room.",
    err_not_your_decision: "Nothing to decide right now: ask for a hint when it is your move.",
    hint_rate_limited: "Hints come a few at a time: wait a few seconds.",
  },
  ja: {
    hint_button: "ヒント",
    hint_asking: "考え中…",
    hint_label: "ヒント：強いCPUならここで何を出す？",
    hints_on: "ヒントあり",
    hints_note: "この部屋ではヒントが使えます。各プレイヤーは、自分の席から見て強いCPUなら何を出すかを聞けます（CPUはその席から見えるものしか見ません）。答えはほかの人には見えません。各自が使った回数は毎局の終わりに表示されます。",
    helpers_none: "いまは手がかりはありません。",
    hints_used: "ヒント使用：{list}",
    hints_used_item: "{who} {n}回",
    hints_setting: "ヒント：強いCPUならどう打つかを見られる",
    hints_state_on: "ヒント：あり（強いCPUならどう打つかを見られます）",
    hints_state_off: "ヒント：なし",
    err_hints_off: "この部屋ではホストがヒントをオフにしています。",
    err_not_your_decision: "いまは選ぶ手がありません。あなたの番にヒントを押してください。",
    hint_rate_limited: "ヒントは続けて使えません。数秒待ってください。",
  },
});

// Refusals of a hint this page asked for: said in the dock, not as a notice.
const REFUSALS = new Set(["hints_off", "not_your_decision", "rate_limited", "not_your_seat"]);

/** A sentence in the player's language from {"en", "ja"} (English when missing). */
function said(text) {
  return text ? text[lang()] || text.en || "" : "";
}

/**
 * The hints of one room page: `send(frame)` sends on its socket, `redraw()` paints the
 * page again. The page hands it every frame first (`onFrame`: true when it was a hint's
 * answer or refusal, which needs nothing more).
 */
export function createHints({ send, redraw }) {
  let message = null; // the latest view frame
  let asking = null; // the seat a hint was asked for, until its answer
  let askedAt = ""; // that seat's legal moves then: an answer lost (a reconnect) stops counting
  let suggestion = null; // {seat, move, why, key}: the answer, while `key` is the seat's legal moves

  const room = () => (message && message.room) || {};
  const on = () => Boolean(room().hints) && room().status === "playing";

  /** The held seat with a decision now (a legal move but "next"), or null. */
  function decidingSeat() {
    if (!on()) return null;
    for (const seat of message.you || []) {
      const legal = (message.legal || {})[seat] || [];
      if (legal.some((a) => a.type !== "next")) return seat;
    }
    return null;
  }

  const legalKey = (seat) => JSON.stringify(((message && message.legal) || {})[seat] || []);

  function onFrame(frame) {
    if (frame.t === "view") {
      message = frame;
      if (suggestion && (!on() || legalKey(suggestion.seat) !== suggestion.key)) suggestion = null;
      if (asking !== null && legalKey(asking) !== askedAt) asking = null;
      return false;
    }
    if (frame.t === "hint") {
      if (asking === frame.seat) asking = null;
      suggestion = { seat: frame.seat, move: frame.move, why: frame.why, key: legalKey(frame.seat) };
      redraw();
      return true;
    }
    if (frame.t === "error" && asking !== null && REFUSALS.has(frame.code)) {
      asking = null;
      redraw();
      refuse(frame.code === "rate_limited" ? t("hint_rate_limited") : errorText(frame));
      return true;
    }
    return false;
  }

  function ask(seat) {
    asking = seat;
    askedAt = legalKey(seat);
    suggestion = null;
    send({ t: "hint", seat });
    redraw();
  }

  /** The dock's Hint button, at a decision (null otherwise). */
  function button() {
    const seat = decidingSeat();
    return seat === null ? null : el("button", {
      type: "button", class: "hint-button", id: "hint-button", "data-key": "hint-button",
      "aria-label": t("hint_label"), title: t("hint_label"), disabled: asking !== null,
      "data-move": suggestion ? actionKey(suggestion.move) : null,
      onclick: () => ask(seat),
    }, el("span", { "aria-hidden": "true" }, "💡"),
    el("span", { class: "lbl" }, " ", asking !== null ? t("hint_asking") : t("hint_button")));
  }

  /** The seat's first helper line, compact (all of them are in the Hints sheet), or null. */
  function helpers() {
    const lines = helperLines();
    if (!lines.length) return null;
    return el("span", {
      class: "helpers-line", id: "helpers-line", "data-helper": lines[0].id, title: lines.map(said).join("\n"),
    }, "💡 ", said(lines[0]), lines.length > 1 ? el("span", { class: "more" }, ` (+${lines.length - 1})`) : null);
  }

  /** The helper lines of this page's first held seat (none without hints on). */
  function helperLines() {
    if (!on() || !message.helpers) return [];
    const seat = (message.you || [])[0];
    return message.helpers[seat] || [];
  }

  /** The helper lines about a move, each to be shown at that move on the table
   * (frame.js): [{id, move, short, line}], `short` its figure, `line` its sentence. */
  function figures() {
    return helperLines().filter((line) => line.move && line.short)
      .map((line) => ({ id: line.id, move: line.move, short: said(line.short), line: said(line) }));
  }

  /** The suggested move and why, for the table to mark (frame.js), or null. */
  function current() {
    return suggestion && on() ? { move: suggestion.move, why: "💡 " + said(suggestion.why) } : null;
  }

  /** "Hints used: Aki 2 · Ben 0" (`label(seat)` names a seat), or null without hints. */
  function usedLine(label) {
    const r = room();
    if (!r.hints || !message || !message.seats) return null;
    const used = r.hints_used || message.seats.map(() => 0);
    const list = used.map((n, seat) => t("hints_used_item", { who: label(seat), n })).join(" · ");
    return t("hints_used", { list });
  }

  /** The head row's Hints sheet (every seat and spectator sees hints are on), or null. */
  function sheet(label) {
    if (!room().hints || !message || !message.view) return null;
    const lines = helperLines();
    const used = usedLine(label);
    return fold("hints", t("hints_on"),
      el("p", { class: "muted small" }, t("hints_note")),
      (message.you || []).length && on()
        ? el("ul", { class: "helpers-list", id: "helpers-list" },
          lines.length ? lines.map((line) => el("li", { "data-helper": line.id }, said(line)))
            : el("li", { class: "muted" }, t("helpers_none")))
        : null,
      used ? el("p", { class: "small", id: "hints-used-sheet" }, used) : null);
  }

  return { onFrame, button, helpers, figures, suggestion: current, usedLine, sheet };
}

/**
 * The room's hints setting in the waiting room: the host's checkbox (it changes the
 * room at once), else the setting in words. `ctx` is the page's (room.js).
 */
export function hintsSetting(ctx, hostToken) {
  const { page } = ctx;
  const roomFacts = page.message && page.message.room;
  const onNow = roomFacts ? roomFacts.hints !== false : !page.summary || page.summary.hints !== false;
  const token = hostToken();
  if (!token || (roomFacts && roomFacts.status !== "lobby")) {
    return el("p", { class: "muted small", id: "hints-state" }, t(onNow ? "hints_state_on" : "hints_state_off"));
  }
  return el("label", { class: "row", id: "hints-setting" }, el("input", {
    type: "checkbox", checked: onNow, id: "hints-toggle", "data-key": "hints-toggle",
    onchange: async (e) => {
      try {
        page.summary = await api("POST", `/api/rooms/${ctx.code}/hints`, { token, hints: e.target.checked });
      } catch (err) {
        notify(errorText(err));
      }
      ctx.render();
    },
  }), t("hints_setting"));
}
