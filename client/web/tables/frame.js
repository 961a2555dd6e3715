// The frame every game table is drawn in, phone first: the round's result on top, the
// board, a dock that stays on screen (status line, the player's hand, the moves they can
// make now) and folds for the other seats, logs and scores that open on demand (closed
// on a phone, open on a wide screen, and remembered while the page lives).
//
// `paint` replaces the table and puts keyboard focus back: on the same control when it
// is still there, else (the control was played or went away) on the dock's first
// enabled control, so focus never falls back to the page top after an action. It also
// keeps the board clear of the dock (see clearBoard).

import { el } from "../components.js";
import { addStrings, t } from "../i18n.js";

addStrings({
  en: {
    fr_dock: "Your move",
    fr_players: "Players",
    fr_log: "What happened",
    fr_scores: "Scores",
    fr_more: "More",
    fr_not_now: "You cannot play that card now.",
    fr_not_your_turn: "Not your turn yet: wait for {who}.",
    fr_wait: "Not your turn yet.",
  },
  ja: {
    fr_dock: "あなたの操作",
    fr_players: "プレイヤー",
    fr_log: "これまでの流れ",
    fr_scores: "得点",
    fr_more: "その他",
    fr_not_now: "そのカードはいまは出せません。",
    fr_not_your_turn: "まだあなたの番ではありません。{who}を待っています。",
    fr_wait: "まだあなたの番ではありません。",
  },
});

const WIDE = "(min-width: 760px)";
const foldOpen = new Map(); // fold id -> open, as the player last left it

/** A fold-away section: `summary` always shown, the content on demand. */
export function fold(id, summary, ...content) {
  const wide = window.matchMedia(WIDE).matches;
  const open = foldOpen.has(id) ? foldOpen.get(id) : wide;
  const node = el("details", { class: "fold", id: "fold-" + id, open },
    el("summary", { "data-key": "fold-" + id }, summary), ...content);
  // Made open, a details element fires "toggle" too: only the player's own change counts.
  node.addEventListener("toggle", () => { if (node.open !== open) foldOpen.set(id, node.open); });
  return node;
}

/** The dock: the status line first, then the hand and the moves; stays on screen. */
export function dock(status, ...content) {
  return el("section", { class: "dock", id: "dock", tabindex: "-1", "aria-label": t("fr_dock") }, status, ...content);
}

/** The status line (id status-line), read out when it changes. */
export function statusLine(text, ...extra) {
  return el("p", { class: "status-line", id: "status-line", role: "status" }, text, ...extra);
}

const CONTROL = "button:not([disabled]):not([aria-disabled=true]), select:not([disabled]), input:not([disabled])";

/**
 * Put `table` into `root` in place of what was there, keeping keyboard focus: on the
 * element with the same data-key, else, if focus was in the table, on the dock's
 * preferred control (data-focus-first), its first enabled one, or the dock itself.
 */
export function paint(root, table) {
  watchFocus(root);
  const active = document.activeElement;
  // The page may have moved the table (and so dropped focus to the body) before this paint.
  const lost = !active || active === document.body;
  const wasInside = (active && root.contains(active)) || (lost && root.dataset.hadFocus === "1");
  const key = active && root.contains(active) && active.dataset ? active.dataset.key : root.dataset.focusKey;
  root.replaceChildren(table);
  clearBoard();
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

// -- the board clear of the dock --------------------------------------------------------
// The dock sticks to the bottom of the window, so on a small screen it lies over the end
// of the board until the page is scrolled. The page scrolls itself just far enough for
// the board to end where the dock begins, measured on every paint and whenever the dock
// or the window changes size, but never past the top of the table, nor past anything
// above the table that the page has not marked data-scroll-away (the room's title and
// players' line may go; Settings, Play again or a replay's controls stay in sight). It
// never works against the player: once they scroll the page themselves (wheel, touch,
// keys) it waits until they are back at that resting place, and while their focus is
// elsewhere on the page (a dialog, the chat) it leaves the page alone.
const SCROLL_KEYS = new Set(["PageUp", "PageDown", "Home", "End", "ArrowUp", "ArrowDown", " "]);
let playerScrolled = false;
let resting = null; // where clearBoard last wanted the page
window.addEventListener("scroll", () => {
  if (playerScrolled && resting !== null && Math.abs(window.scrollY - resting) <= 1) playerScrolled = false;
}, { passive: true });
for (const type of ["wheel", "touchmove"]) {
  window.addEventListener(type, () => { playerScrolled = true; }, { passive: true });
}
window.addEventListener("keydown", (e) => {
  // Keys scroll the page only while nothing on it has focus.
  if (SCROLL_KEYS.has(e.key) && (e.target === document.body || e.target === document.documentElement)) {
    playerScrolled = true;
  }
});
window.addEventListener("resize", () => {
  playerScrolled = false;
  clearBoard();
});
const watchDock = new ResizeObserver(() => clearBoard());
let watched = null;

function clearBoard() {
  const dock = document.getElementById("dock");
  if (dock !== watched) {
    watchDock.disconnect();
    if (dock) watchDock.observe(dock);
    watched = dock;
  }
  const board = dock && dock.previousElementSibling;
  if (!board) return;
  settle(dock, board);
  if (fitResult(dock)) settle(dock, board); // the board moved up with the result's new height
}

// -- a round's result above the dock on a phone -------------------------------------------
// A round-end result on top of the table that is taller than the room between its top
// and the docked dock would end under the dock, out of reach (in a replay the controls
// above the table stay in sight, so the page cannot scroll it clear). On a phone it is
// then held to that room and scrolls inside, its heading and buttons first; the dock
// and its Next stay where they are. Wide screens keep their layout.
const PHONE = "(max-width: 480px)";

function fitResult(dock) {
  const result = dock.parentElement.querySelector(":scope > .round-end");
  if (!result) return false;
  let wanted = "";
  if (window.matchMedia(PHONE).matches) {
    const gap = parseFloat(getComputedStyle(dock.parentElement).rowGap) || 0;
    // Where the dock sits while it sticks to the bottom of the window.
    const room = window.innerHeight - dock.offsetHeight - gap - Math.max(result.getBoundingClientRect().top, 0);
    const natural = result.scrollHeight + result.offsetHeight - result.clientHeight;
    // Never smaller than its heading and bar (a phone turned sideways has little room).
    if (natural > room + 0.5) wanted = `${Math.max(Math.floor(room), 120)}px`;
  }
  if (wanted === result.style.maxHeight) return false;
  result.style.maxHeight = wanted;
  result.classList.toggle("fitted", wanted !== "");
  // A region that scrolls is reachable from the keyboard too (never dropping its focus).
  if (wanted) result.tabIndex = 0;
  else if (document.activeElement !== result) result.removeAttribute("tabindex");
  return true;
}

/** Scroll the page just far enough for `board` to end where `dock` begins (see above). */
function settle(dock, board) {
  const table = dock.parentElement;
  const holder = dock.closest("#table-root") || table;
  const focus = document.activeElement;
  if (focus && !focus.contains(holder) && !holder.contains(focus)) return; // the player is elsewhere
  let limit = table.getBoundingClientRect().top;
  for (let above = holder.previousElementSibling; above; above = above.previousElementSibling) {
    if (!above.hasAttribute("data-scroll-away")) limit = Math.min(limit, above.getBoundingClientRect().top);
  }
  const gap = parseFloat(getComputedStyle(table).rowGap) || 0;
  const needed = board.getBoundingClientRect().bottom + gap - (window.innerHeight - dock.offsetHeight);
  const wanted = Math.max(0, window.scrollY + Math.min(limit, needed));
  const off = Math.abs(wanted - window.scrollY) > 1;
  if (playerScrolled && off) return;
  // Back where the table would put the page (now, or when last asked): it keeps it there.
  playerScrolled = false;
  resting = wanted;
  if (off) window.scrollTo(0, wanted);
}
