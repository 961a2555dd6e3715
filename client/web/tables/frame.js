// The frame every game table is drawn in, one screen on a phone: the table's head row
// (badges, then its controls and the buttons of its sheets), the other seats and the
// shared middle (which may scroll inside itself, never the page), and the dock at the
// bottom edge (the status line, the latest move, a refusal, the player's hand and the
// moves they can make now). A round's result lies over the middle, never over the head
// row or the dock.
// Everything else (scores, the last trick, the log, the players' details) is a sheet
// (`fold`): a button in the head row that opens its content over the table and closes
// back to it.
//
// `paint` replaces the table, animates the cards from where they were (motion.js) and
// puts keyboard focus back: on the same control when it is still there, else (the
// control was played or went away) on the dock's first enabled control, so focus never
// falls back to the page top after an action.

import { el } from "../components.js";
import { addStrings, t } from "../i18n.js";
import { explainModeButton } from "../explain.js";
import { afterPaint, beforePaint } from "../motion.js";
import { markFigure, markSuggested } from "./suggest.js";

addStrings({
  en: {
    fr_dock: "Your move",
    fr_not_now: "You cannot play that card now.",
    fr_not_your_turn: "Not your turn yet: wait for {who}.",
    fr_wait: "Not your turn yet.",
    fr_close_sheet: "Close",
    fr_seats: "The other seats",
    fr_middle: "The table",
  },
  ja: {
    fr_dock: "あなたの操作",
    fr_not_now: "そのカードはいまは出せません。",
    fr_not_your_turn: "まだあなたの番ではありません。{who}を待っています。",
    fr_wait: "まだあなたの番ではありません。",
    fr_close_sheet: "閉じる",
    fr_seats: "ほかの席",
    fr_middle: "場",
  },
});

let openSheet = null; // the id of the sheet open now (one at a time), kept across renders

// Each sheet's symbol: on a phone its button shows the symbol, its words stay its name.
const SHEET_ICONS = {
  scores: "🏆", "last-trick": "↶", log: "📜", "last-result": "🏁", ranges: "⏱", people: "👥", history: "🗂",
  coach: "🎓", hints: "💡",
};

/**
 * A sheet: `summary` is its button in the table's head row; opened, `content` lies over
 * the table (one sheet at a time) until closed with its Close button, the button again
 * or Escape. The open one stays open through the table's next renders.
 */
export function fold(id, summary, ...content) {
  const close = el("button", {
    type: "button", class: "ghost sheet-close", "data-key": "close-" + id,
    onclick: () => { node.open = false; },
  }, t("fr_close_sheet"));
  const node = el("details", { class: "fold sheet", id: "fold-" + id, open: openSheet === id },
    el("summary", { "data-key": "fold-" + id, "data-icon": SHEET_ICONS[id] || "☰" }, el("span", { class: "lbl" }, summary)),
    el("div", { class: "sheet-body", role: "region", "aria-label": typeof summary === "string" ? summary : null },
      el("div", { class: "sheet-bar" }, el("strong", {}, summary), close), ...content));
  // Made open, a details element fires "toggle" too: only the player's own change counts.
  node.addEventListener("toggle", () => {
    // A table redrawn since has replaced this sheet: its late event is not the player's.
    if (!node.isConnected) return;
    if (node.open) {
      openSheet = id;
      for (const other of document.querySelectorAll("details.sheet[open]")) if (other.id !== node.id) other.open = false;
    } else if (openSheet === id) {
      openSheet = null;
    }
  });
  node.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && node.open) {
      node.open = false;
      node.querySelector("summary").focus();
    }
  });
  return node;
}

// -- a refusal: why a tap did nothing, until the player's next action -----------------
let refusal = null;

/** Say in the dock why the tap just made did nothing; it stays until the next action. */
export function refuse(text) {
  refusal = text;
  const line = document.getElementById("refusal");
  if (line) {
    line.textContent = text;
    line.hidden = false;
  } else {
    const dockNode = document.getElementById("dock");
    const status = dockNode && dockNode.querySelector(".status-line");
    if (status) status.after(refusalLine());
  }
}

function refusalLine() {
  return el("p", { class: "refusal", id: "refusal", role: "alert", hidden: refusal === null }, refusal || "");
}

// The next action (a tap, a click, a key that presses) puts the refusal away; the tap
// that refuses again sets it back, since this runs first (capture).
function clearRefusal(e) {
  if (refusal === null) return;
  if (e.type === "keydown" && e.key !== "Enter" && e.key !== " ") return;
  refusal = null;
  const line = document.getElementById("refusal");
  if (line) line.hidden = true;
}
document.addEventListener("click", clearRefusal, true);
document.addEventListener("keydown", clearRefusal, true);

/**
 * The dock: the status line first, the latest move (filled by the move log), a refusal,
 * then the hand and the moves; always on screen at the bottom edge.
 */
export function dock(status, ...content) {
  return el("section", { class: "dock", id: "dock", tabindex: "-1", "aria-label": t("fr_dock") },
    status, latestMove(), refusalLine(), ...content);
}

// Hints (hints.js), on every paint and taking no row of their own: the Hint button in
// the dock's top corner, with the status line and the latest move flowing beside it,
// the seat's helper line sharing the latest move's line, each helper line's figure at
// the move it is about, and the move a hint suggested
// marked (suggest.js) with its reason in the status line.
let hintSource = null;

/**
 * `source`: {button() -> node or null, helpers() -> node or null, figures() -> [{id,
 * move, short, line}], suggestion() -> {move, why} or null}; null: no hints.
 */
export function setHints(source) {
  hintSource = source;
}

function showHints(table) {
  if (!hintSource) return;
  const status = table.querySelector(".dock > #status-line");
  const suggestion = hintSource.suggestion();
  if (suggestion) {
    markSuggested(table, suggestion.move);
    // A first match's coach card says why itself (in the latest move's place).
    const coached = table.querySelector("#coach-card");
    if (status && suggestion.why && !coached) status.append(el("span", { class: "hint-why", id: "hint-why" }, suggestion.why));
  }
  for (const figure of hintSource.figures()) markFigure(table, figure);
  const latest = table.querySelector(".dock > #latest-move");
  const helpers = hintSource.helpers();
  // Not beside a first match's coach card, which needs the line for its buttons.
  if (latest && helpers && !latest.querySelector("#coach-card")) latest.append(helpers);
  const button = hintSource.button();
  if (status && button) {
    const top = el("div", { class: "dock-top" }, button);
    status.before(top);
    top.append(status);
    if (latest) top.append(latest);
  }
}

// The page's decoration of the seat panels (presence, the host's mark): set by the room.
let seatDecor = null;

/** `decorate(panel, seat)` runs on every seat panel (.seat[data-seat]) a table paints. */
export function setSeatDecor(decorate) {
  seatDecor = decorate;
}

// The move log's latest line: a slot (id latest-move) in the dock that the page fills
// (setLatestMove), filled again on every paint, the table's own redraws included.
let latestSource = null;

/** Where the latest move comes from: `make()` returns the node(s) to show (or null). */
export function setLatestMove(make) {
  latestSource = make;
}

function latestMove() {
  return el("div", { class: "latest-move", id: "latest-move" }, latestSource ? latestSource() : null);
}

// What the page does after every paint, the table's own redraws (a tap) included: the
// coach's card fits itself to the room the new table leaves (coach.js fit).
let afterPaintHook = null;

/** `run()` runs after every paint of a table, once it is in the page (null: nothing). */
export function setAfterPaint(run) {
  afterPaintHook = run;
}

// Controls the page adds to every table's head row (the move log's Log button).
let headSource = null;

/** `make()` returns the node(s) the head row's controls start with, on every paint. */
export function setHeadControls(make) {
  headSource = make;
}

/** The status line (id status-line), read out when it changes. */
export function statusLine(text, ...extra) {
  return el("p", { class: "status-line", id: "status-line", role: "status" }, text, ...extra);
}

/** The strip of the other seats' compact panels, at the top of the middle. */
export function seatStrip(panels, { cls = "" } = {}) {
  return el("section", { class: `seats seat-strip ${cls}`.trim(), id: "seat-strip", "aria-label": t("fr_seats") },
    panels);
}

const CONTROL = "button:not([disabled]):not([aria-disabled=true]), select:not([disabled]), input:not([disabled])";

/**
 * Gather a freshly built table into the frame's parts: the sheets (`details.fold` among
 * its children) go into the head row, and everything between the head row and the dock
 * into the middle, which scrolls inside itself when it must.
 */
function arrange(table) {
  const head = table.querySelector(":scope > .table-head");
  const controls = head && head.querySelector(".head-controls");
  const sheets = [...table.querySelectorAll(":scope > details.fold")];
  if (controls) controls.append(explainModeButton(), ...sheets);
  if (controls && headSource) controls.prepend(...[headSource()].flat().filter(Boolean));
  const dockNode = table.querySelector(":scope > .dock");
  if (!head || !dockNode) return;
  const middle = el("div", { class: "middle", id: "middle", "aria-label": t("fr_middle"), role: "region" });
  for (let part = head.nextElementSibling; part && part !== dockNode;) {
    const next = part.nextElementSibling;
    middle.append(part);
    part = next;
  }
  const wrap = el("div", { class: "middle-wrap" }, middle);
  const result = table.querySelector(":scope > .round-end");
  if (result) wrap.prepend(result);
  dockNode.before(wrap);
  // Whatever is left after the dock (a result folded away below) joins the head's sheets too.
  for (let part = dockNode.nextElementSibling; part;) {
    const next = part.nextElementSibling;
    if (controls && part.matches("details")) controls.append(part);
    else middle.append(part);
    part = next;
  }
}

/**
 * Put `table` into `root` in place of what was there, keeping keyboard focus: on the
 * element with the same data-key, else, if focus was in the table, on the dock's
 * preferred control (data-focus-first), its first enabled one, or the dock itself.
 * `motion` tells motion.js what moved: {movers: [seat], winner: seat or null}.
 */
export function paint(root, table, motion = {}) {
  watchFocus(root);
  const active = document.activeElement;
  // The page may have moved the table (and so dropped focus to the body) before this paint.
  const lost = !active || active === document.body;
  const wasInside = (active && root.contains(active)) || (lost && root.dataset.hadFocus === "1");
  const key = active && root.contains(active) && active.dataset ? active.dataset.key : root.dataset.focusKey;
  if (seatDecor) {
    for (const panel of table.querySelectorAll(".seat[data-seat]")) seatDecor(panel, panel.dataset.seat);
  }
  arrange(table);
  showHints(table);
  const before = beforePaint(root);
  const scroll = root.querySelector("#middle");
  const scrollTop = scroll ? scroll.scrollTop : 0;
  root.replaceChildren(table);
  const middle = root.querySelector("#middle");
  if (middle) middle.scrollTop = scrollTop;
  afterPaint(root, before, motion);
  if (afterPaintHook) afterPaintHook();
  if (!wasInside) return;
  const again = key ? root.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  const target = (again && !again.disabled ? again : null)
    || root.querySelector(`#dock [data-focus-first]:not([disabled])`) || root.querySelector(`#dock :is(${CONTROL})`)
    || root.querySelector("#dock");
  if (target) target.focus({ preventScroll: true });
}

/** Remember whether keyboard focus was last in the table (and on which control). */
function watchFocus(root) {
  if (root.dataset.watched) return;
  root.dataset.watched = "1";
  root.addEventListener("focusin", (e) => {
    root.dataset.hadFocus = "1";
    root.dataset.focusKey = (e.target.dataset && e.target.dataset.key) || "";
  });
  // Focus that moved somewhere else on purpose (not dropped by a removed node) is not ours.
  root.addEventListener("focusout", (e) => {
    if (e.relatedTarget && !root.contains(e.relatedTarget)) root.dataset.hadFocus = "0";
  });
}

/**
 * What moved in a view frame, for `paint`: the seats whose events these are, and the
 * winner of a trick that just ended (its cards go to that seat).
 */
export function motionOf(message) {
  const movers = new Set();
  let winner = null;
  for (const e of (message && message.events) || []) {
    if (e.type === "trick" && e.winner !== undefined && e.winner !== null) winner = e.winner;
    else if (e.seat !== undefined && e.seat !== null) movers.add(e.seat);
    else if (e.by !== undefined && e.by !== null) movers.add(e.by);
  }
  return { movers: [...movers], winner, version: message ? message.version : null };
}
