// The one round-end screen of every table: the round's result (who won and why, the
// scores) at the top of the table. Where the game waits for "next", it names whom it
// waits for (the Next button itself sits in the dock). Where the game has moved on by
// itself, the result stays on top with a countdown before it folds away below the
// table; "Keep open" stops the countdown, "Close" folds it at once. A result this page
// did not see happen (a reload, another device, mid-round) starts folded: it is never
// put back over a round in play.
//
// It also writes the result lines every table shares, naming the players: "1st Aki, 0
// penalties", "Winners: you and CPU 3", "Aki 35 · Ben 35 · CPU 3 42".

import { el } from "../components.js";
import { addStrings, t } from "../i18n.js";
import { countdown } from "./countdown.js";
import { fold } from "./frame.js";

addStrings({
  en: {
    re_waiting_all: "Waiting for {who} to go on.",
    re_waiting_any: "Waiting for {who} to go on.",
    re_waiting_you: "The table waits for you to go on.",
    re_closes_in: "Closes in {n} s",
    re_keep_open: "Keep open",
    re_close: "Close",
    re_last_result: "Last result: {title}",
    re_sep: ", ",
    re_and: " and ",
    re_or: " or ",
    re_you: "you",
    re_place_line: "{place} {who}, {detail}",
    re_place_only: "{place} {who}",
    re_ord_1: "1st", re_ord_2: "2nd", re_ord_3: "3rd", re_ord_4: "4th",
    re_ord_5: "5th", re_ord_6: "6th", re_ord_7: "7th", re_ord_8: "8th",
    re_winner: "Winner: {who}",
    re_winners: "Winners: {who}",
    re_loser: "Loser: {who}",
    re_score_item: "{who} {n}",
    re_score_sep: " · ",
    re_penalties: "{n} penalties",
    re_penalty: "1 penalty",
  },
  ja: {
    re_waiting_all: "{who}の「次へ」を待っています。",
    re_waiting_any: "{who}のだれかが「次へ」を押すのを待っています。",
    re_waiting_you: "あなたの「次へ」を待っています。",
    re_closes_in: "あと{n}秒で閉じます",
    re_keep_open: "開いたままにする",
    re_close: "閉じる",
    re_last_result: "前の結果：{title}",
    re_sep: "、",
    re_and: "と",
    re_or: "か",
    re_you: "あなた",
    re_place_line: "{place} {who}（{detail}）",
    re_place_only: "{place} {who}",
    re_ord_1: "1位", re_ord_2: "2位", re_ord_3: "3位", re_ord_4: "4位",
    re_ord_5: "5位", re_ord_6: "6位", re_ord_7: "7位", re_ord_8: "8位",
    re_winner: "勝者：{who}",
    re_winners: "勝者：{who}",
    re_loser: "敗者：{who}",
    re_score_item: "{who} {n}",
    re_score_sep: " · ",
    re_penalties: "罰点{n}",
    re_penalty: "罰点1",
  },
});

/** "1st" / "1位". */
export function ordinal(place) {
  return t("re_ord_" + place) || String(place);
}

/** A seat's name inside a sentence: the table's label, but "you" for the player. */
export function nameIn(ctx, seat) {
  const label = ctx.seatLabel(seat);
  return label === t("you") ? t("re_you") : label;
}

/** "Aki, Ben and you" (`joiner` "re_and") or "Aki, Ben or you" ("re_or"). */
export function namesList(names, joiner = "re_and") {
  if (names.length < 2) return names.join("");
  return names.slice(0, -1).join(t("re_sep")) + t(joiner) + names[names.length - 1];
}

/** "Winner: Aki" / "Winners: you and CPU 3". */
export function winnersLine(ctx, seats) {
  return t(seats.length > 1 ? "re_winners" : "re_winner", { who: namesList(seats.map((s) => nameIn(ctx, s))) });
}

/** "Aki 35 · Ben 35 · CPU 3 42": one number (or text) per seat. */
export function scoreLine(ctx, values) {
  return values.map((n, seat) => t("re_score_item", { who: ctx.seatLabel(seat), n })).join(t("re_score_sep"));
}

/** "0 penalties" / "1 penalty". */
export function penaltiesText(n) {
  return n === 1 ? t("re_penalty") : t("re_penalties", { n });
}

/**
 * The final places, best first ("1st Aki, 0 penalties"; id match-places): `detail(seat)`
 * adds what the game counts, or nothing.
 */
export function placeLines(ctx, places, detail = null) {
  return el("ol", { class: "places", id: "match-places" }, places
    .map((place, seat) => [place, seat])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([place, seat]) => el("li", {}, detail
      ? t("re_place_line", { place: ordinal(place), who: nameIn(ctx, seat), detail: detail(seat) })
      : t("re_place_only", { place: ordinal(place), who: nameIn(ctx, seat) }))));
}

export const AUTO_CLOSE_MS = 15_000;

// A line the page adds to every result (the hints each seat used): set by the room.
let noteSource = null;

/** `make()` returns the text every round's result ends with (or null). */
export function setRoundNote(make) {
  noteSource = make;
}

function roundNote() {
  const text = noteSource ? noteSource() : null;
  return text ? el("p", { class: "round-note small", id: "round-note" }, text) : null;
}

/**
 * A table's round-end screen; `redraw()` draws the table again. Call `show` on every
 * render; it returns {top, below}: the panel for the top of the table, or (once closed)
 * a fold with the same result for below it.
 */
export function roundEnds(redraw) {
  let state = { key: null, at: 0, kept: false, closed: false };
  let drawn = false; // this page has drawn the table before (it sees results happen)

  /**
   * `key`: what identifies this result (a new key is a new result); `title`, `body`
   * (nodes); `waitingFor`: the names of the other seats the game waits for ("next"), or
   * null; `waitsForMe`: it waits for this player too; `waitAll`: each of them must go on
   * (else any one of them may); `auto`: the game went on by itself (countdown, Keep
   * open, Close).
   */
  function show({ key, title, body, waitingFor = null, waitsForMe = false, waitAll = false, auto = false }) {
    const seen = drawn;
    drawn = true;
    if (key === null || key === undefined) return { top: null, below: null };
    if (state.key !== key) {
      // A result already there at this page's first draw happened before it came: the game
      // has moved on, so it starts folded instead of covering the round in play.
      state = { key, at: performance.now() + AUTO_MS(), kept: false, closed: auto && !seen };
    }
    const open = !auto || (!state.closed && (state.kept || performance.now() < state.at));
    if (!open) {
      return {
        top: null,
        below: fold("last-result", t("re_last_result", { title }), el("div", { class: "result" }, body, roundNote())),
      };
    }
    const bar = [];
    const waiting = waitingLine(waitingFor || [], waitsForMe, waitAll);
    if (waiting) bar.push(el("p", { class: "waiting-for", id: "waiting-for", role: "status" }, waiting));
    // Close first: on a narrow phone the bar may wrap, and the buttons must stay on top.
    if (auto) {
      bar.push(el("button", {
        type: "button", id: "close-result", "data-key": "close-result",
        onclick: () => { state.closed = true; redraw(); },
      }, t("re_close")));
    }
    if (auto && !state.kept) {
      bar.push(el("button", {
        type: "button", class: "ghost", id: "keep-result", "data-key": "keep-result",
        onclick: () => { state.kept = true; redraw(); },
      }, t("re_keep_open")));
      bar.push(countdown({
        id: "result-countdown", at: state.at, total: AUTO_MS(),
        label: (n) => t("re_closes_in", { n }), onDone: redraw,
      }));
    }
    return {
      top: el("section", { class: "result round-end", id: "round-result", "aria-label": title },
        el("h2", {}, title),
        bar.length ? el("div", { class: "round-end-bar" }, bar) : null,
        body, roundNote()),
      below: null,
    };
  }

  return { show };
}

/** Whom the table waits for, as a sentence (null: nobody). */
function waitingLine(others, me, all) {
  if (!others.length) return me ? t("re_waiting_you") : null;
  const names = me ? [t("re_you"), ...others] : others;
  return t(all ? "re_waiting_all" : "re_waiting_any", { who: namesList(names, all ? "re_and" : "re_or") });
}

/** How long a result that the game has moved on from stays open (tests may shorten it). */
function AUTO_MS() {
  return Number(window.ZASHIKI_RESULT_MS) || AUTO_CLOSE_MS;
}
