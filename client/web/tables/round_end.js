// The one round-end screen of every table: the round's result (who won and why, the
// scores) at the top of the table. Where the game waits for "next", it names whom it
// waits for (the Next button itself sits in the dock). Where the game has moved on by
// itself, the result stays on top with a countdown before it folds away below the
// table; "Keep open" stops the countdown, "Close" folds it at once.

import { el } from "../components.js";
import { addStrings, t } from "../i18n.js";
import { countdown } from "./countdown.js";
import { fold } from "./frame.js";

addStrings({
  en: {
    re_waiting_for: "Waiting for {who} to go on.",
    re_waiting_you: "The table waits for you to go on.",
    re_waiting_you_and: "Waiting for you and {who} to go on.",
    re_closes_in: "Closes in {n} s",
    re_keep_open: "Keep open",
    re_close: "Close",
    re_last_result: "Last result: {title}",
    re_or: " or ",
  },
  ja: {
    re_waiting_for: "{who}の「次へ」を待っています。",
    re_waiting_you: "あなたの「次へ」を待っています。",
    re_waiting_you_and: "あなたと{who}の「次へ」を待っています。",
    re_closes_in: "あと{n}秒で閉じます",
    re_keep_open: "開いたままにする",
    re_close: "閉じる",
    re_last_result: "前の結果：{title}",
    re_or: "か",
  },
});

export const AUTO_CLOSE_MS = 15_000;

/**
 * A table's round-end screen; `redraw()` draws the table again. Call `show` on every
 * render; it returns {top, below}: the panel for the top of the table, or (once closed)
 * a fold with the same result for below it.
 */
export function roundEnds(redraw) {
  let state = { key: null, at: 0, kept: false, closed: false };

  /**
   * `key`: what identifies this result (a new key is a new result); `title`, `body`
   * (nodes); `waitingFor`: the names of the other seats the game waits for ("next"), or
   * null; `waitsForMe`: it waits for this player too; `auto`: the game went on by itself
   * (countdown, Keep open, Close).
   */
  function show({ key, title, body, waitingFor = null, waitsForMe = false, auto = false }) {
    if (key === null || key === undefined) return { top: null, below: null };
    if (state.key !== key) state = { key, at: performance.now() + AUTO_MS(), kept: false, closed: false };
    const open = !auto || (!state.closed && (state.kept || performance.now() < state.at));
    if (!open) {
      return {
        top: null,
        below: fold("last-result", t("re_last_result", { title }), el("div", { class: "result" }, body)),
      };
    }
    const bar = [];
    const others = (waitingFor || []).join(t("re_or"));
    const waiting = waitsForMe ? (others ? t("re_waiting_you_and", { who: others }) : t("re_waiting_you"))
      : others ? t("re_waiting_for", { who: others }) : null;
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
        body),
      below: null,
    };
  }

  return { show };
}

/** How long a result that the game has moved on from stays open (tests may shorten it). */
function AUTO_MS() {
  return Number(window.ZASHIKI_RESULT_MS) || AUTO_CLOSE_MS;
}
