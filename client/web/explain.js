// Explaining what is on the screen, only when asked: a long press on anything marked
// with data-term (every card face, and the terms the tables mark), a right click or the
// keyboard's menu key on it, a tap on one that is not a move (a label, a card on the
// table), or any tap while the table's "?" mode is on. A tap that plays or selects a card
// never explains. A small panel names the thing in full and gives its role, taken from
// the game's glossary (its rules page); "More" opens that page at the entry. It keeps
// clear of the dock, where the moves and a refusal are. A table's "?" button (termHelp)
// opens the same panel with its own sentences, by tap, click or key alike. The Rules
// panel shows a game's rules page over whatever is on screen: the table keeps running
// and the seat stays connected.

import { addStrings, lang, onLangChange, t } from "./i18n.js";
import { el } from "./components.js";
import { richText, rulesHref } from "./learn.js";
import { gameName } from "./page.js";

addStrings({
  en: {
    rules_button: "Rules",
    rules_title: "How to play {game}",
    explain_more: "More in How to play",
    explain_close: "Close explanation",
    explain_what: "Explain {name}",
    explain_mode: "Explain: tap anything to learn what it is",
    explain_mode_on: "Explain mode is on: taps explain instead of playing.",
  },
  ja: {
    rules_button: "ルール",
    rules_title: "{game}の遊び方",
    explain_more: "遊び方で詳しく",
    explain_close: "説明を閉じる",
    explain_what: "{name}とは？",
    explain_mode: "説明モード：タップしたものを説明します",
    explain_mode_on: "説明モード中：タップすると出さずに説明します。",
  },
});

let currentGame = null;
const glossaries = new Map(); // "game.lang" -> Promise of the rules page's document (or null)

/** The game whose glossary explains the terms on screen (null: none). */
export function setExplainGame(gameId) {
  currentGame = gameId;
  if (!gameId) {
    hideExplain();
    closeRules();
  }
}

function glossary(game) {
  const key = `${game}.${lang()}`;
  if (!glossaries.has(key)) {
    glossaries.set(key, fetch(rulesHref(game))
      .then((answer) => (answer.ok ? answer.text() : ""))
      .then((html) => new DOMParser().parseFromString(html, "text/html"))
      .catch(() => null));
  }
  return glossaries.get(key);
}

/** A glossary entry of `game`: {term, text}, or null when the page has none. */
export async function glossaryEntry(game, term) {
  const doc = await glossary(game);
  const dt = doc && doc.getElementById("g-" + term);
  if (!dt) return null;
  const dd = dt.nextElementSibling;
  return { term: dt.textContent.trim(), text: dd ? dd.textContent.trim() : "" };
}

// -- the explanation panel --------------------------------------------------------
let explainBox = null;
let shownFor = null; // the element explained now
let shownHelp = null; // the data-key of the "?" button whose explanation is shown

function hideExplain() {
  if (explainBox) explainBox.hidden = true;
  shownFor = null;
  setHelpShown(null);
}

// A language switch redraws the page at once: an explanation still open (the switch
// was pressed from the keyboard; a pointer elsewhere has closed it already) opens again
// from its redrawn "?" button, in the new language; one of a glossary term closes.
onLangChange(() => {
  if (!explainBox || explainBox.hidden) return;
  const key = shownHelp;
  hideExplain();
  if (key) setTimeout(() => document.querySelector(`button.term-help[data-key="${key}"]`)?.click());
});

// The "?" buttons say whether their explanation is open (the table may have redrawn
// them since: they are found by their key).
function setHelpShown(key) {
  shownHelp = key;
  for (const button of document.querySelectorAll("button.term-help")) {
    button.setAttribute("aria-expanded", String(button.dataset.key === key));
  }
}

/** Open the panel for `target`: `name` in bold, then `lines` (nodes), then "More" at `term`. */
function showPanel(target, game, term, name, lines) {
  if (!explainBox) {
    explainBox = el("div", { class: "explain", id: "explain", role: "status", "aria-live": "polite" });
    explainBox.addEventListener("keydown", (e) => { if (e.key === "Escape") hideExplain(); });
    document.body.append(explainBox);
  }
  shownFor = target;
  explainBox.replaceChildren(
    el("div", { class: "explain-head" },
      el("strong", { id: "explain-name" }, name),
      el("button", {
        type: "button", class: "ghost explain-x", "aria-label": t("explain_close"), onclick: hideExplain,
      }, "×")),
    ...lines,
    el("a", {
      href: rulesHref(game, term), class: "explain-more", "data-rules-game": game, "data-rules-term": term,
    }, t("explain_more")));
  explainBox.hidden = false;
  place(explainBox, target);
}

const MIN_PANEL = 120; // px: the name, a line and the close button
const MARGIN = 6;

/**
 * Place the panel where it covers neither what it explains (so a second tap on a "?"
 * closes it) nor the dock (the moves, a refusal): in the larger of the room above what
 * it explains (below the page's and the table's header rows) and the room below it
 * (above the dock); it scrolls inside (its close button first). With too little room it
 * goes over the header rows, and only as a last resort over what it explains.
 */
function place(box, target) {
  // Redrawn since (a tap, a new view): the same thing as it is on the page now.
  if (!target.isConnected && target.dataset.key) {
    target = document.querySelector(`[data-key="${CSS.escape(target.dataset.key)}"]`) || target;
  }
  const vh = window.innerHeight;
  const explained = target.getBoundingClientRect();
  const dockNode = document.getElementById("dock");
  const dockTop = dockNode && !dockNode.contains(target) ? dockNode.getBoundingClientRect().top : vh;
  let headBottom = 0;
  for (const head of document.querySelectorAll(".topbar, .table-head")) {
    const r = head.getBoundingClientRect();
    if (r.height > 0 && r.bottom > 0 && r.top < vh / 2) headBottom = Math.max(headBottom, r.bottom);
  }
  const limit = Math.min(dockTop, vh) - MARGIN;
  // The larger of the room above what it explains (below the header rows) and below it.
  const above = [Math.max(headBottom, 0) + MARGIN, Math.min(explained.top, limit) - MARGIN];
  const below = [explained.bottom + MARGIN, limit];
  let [top, bottom] = above[1] - above[0] >= below[1] - below[0] ? above : below;
  if (bottom - top < MIN_PANEL) {
    // Too little: over the header rows too, still above what it explains; else anywhere
    // above the dock.
    [top, bottom] = explained.top - 2 * MARGIN >= MIN_PANEL ? [MARGIN, explained.top - MARGIN]
      : [MARGIN, Math.max(MARGIN + MIN_PANEL, limit)];
  }
  // Whatever room was found, never over what it explains (a second tap there closes it).
  if (top < explained.bottom && bottom > explained.top && explained.height) {
    if (explained.top - MARGIN - top >= 60) bottom = explained.top - MARGIN;
    else top = explained.bottom + MARGIN;
  }
  box.style.top = `${Math.round(top)}px`;
  box.style.bottom = "auto";
  box.style.maxHeight = `${Math.round(bottom - top)}px`;
}

/** Show what `target` (an element with data-term) is: its full name, then its glossary entry. */
export async function explain(target) {
  const game = target.dataset.rulesGame || currentGame;
  const term = target.dataset.term;
  if (!game || !term) return;
  const name = target.getAttribute("aria-label") || target.textContent.trim();
  const role = el("p", { class: "explain-role", id: "explain-role" });
  setHelpShown(null);
  showPanel(target, game, term, name, [role]);
  const entry = await glossaryEntry(game, term);
  if (shownFor !== target || !entry) return;
  role.textContent = entry.term && !name.includes(entry.term) ? `${entry.term}: ${entry.text}` : entry.text;
}

/**
 * A small "?" button explaining a table's label: tapped, clicked or pressed, it opens the
 * explanation panel with `name` and `lines` (sentences in the current language, their
 * "[words](term)" marks linked to the glossary), and "More" at glossary entry `term`;
 * pressed again, it closes it. `key` names it across the table's redraws.
 */
export function termHelp({ key, term, name, lines }) {
  const button = el("button", {
    type: "button", class: "term-help", "data-key": key, id: key,
    "aria-label": t("explain_what", { name }), "aria-controls": "explain",
    "aria-expanded": String(shownHelp === key && Boolean(explainBox) && !explainBox.hidden),
  }, el("span", { "aria-hidden": "true" }, "?"));
  button.addEventListener("click", () => {
    if (shownHelp === key && explainBox && !explainBox.hidden) {
      hideExplain();
      return;
    }
    const game = currentGame;
    if (!game) return;
    showPanel(button, game, term, name, lines.map((line, i) => el("p", {
      class: "explain-role", id: i === 0 ? "explain-role" : null,
    }, richText(line, game))));
    setHelpShown(key);
  });
  button.addEventListener("keydown", (e) => { if (e.key === "Escape") hideExplain(); });
  return button;
}

// -- the Rules panel ----------------------------------------------------------------
let rulesPanel = null;
let openedFrom = null;

/** Close the Rules panel (if open) and give focus back to what opened it. */
export function closeRules() {
  if (!rulesPanel) return;
  rulesPanel.remove();
  rulesPanel = null;
  if (openedFrom && openedFrom.isConnected) openedFrom.focus({ preventScroll: true });
  openedFrom = null;
}

/** Open `game`'s rules page (at glossary entry `term`, if given) in a panel over the page. */
export function openRules(game, term) {
  closeRules();
  openedFrom = document.activeElement;
  const [path, hash] = rulesHref(game, term).split("#");
  const close = el("button", { type: "button", id: "close-rules", "data-key": "close-rules", onclick: closeRules },
    t("close"));
  rulesPanel = el("div", {
    class: "rules-panel", id: "rules-panel", role: "dialog", "aria-labelledby": "rules-panel-title",
    "data-game": game,
  },
  el("div", { class: "rules-panel-bar" },
    el("h2", { id: "rules-panel-title" }, t("rules_title", { game: gameName(game) })), close),
  el("iframe", {
    src: `${path}?embed=1${hash ? "#" + hash : ""}`, title: t("rules_title", { game: gameName(game) }),
    id: "rules-frame",
  }));
  rulesPanel.addEventListener("keydown", (e) => { if (e.key === "Escape") closeRules(); });
  document.body.append(rulesPanel);
  close.focus({ preventScroll: true });
}

// -- asking for an explanation ------------------------------------------------------
const LONG_PRESS_MS = 450;
const SLOP = 10; // px a finger may move and still hold
let explainMode = false;
let swallowClickUntil = 0; // the click that ends a long press plays nothing

/** Whether a tap on `target` would do something of the table's (play, select, open). */
function isMove(target) {
  return Boolean(target.closest("button, a[href], summary, input, select, label"));
}

/**
 * The table's "?" button: while it is pressed, a tap on anything marked explains it and
 * plays nothing. `key` names it across redraws.
 */
export function explainModeButton() {
  return el("button", {
    type: "button", class: "ghost explain-mode", id: "explain-mode", "data-key": "explain-mode",
    "aria-pressed": String(explainMode), "aria-label": t("explain_mode"), title: t("explain_mode"),
    onclick: (e) => {
      explainMode = !explainMode;
      e.currentTarget.setAttribute("aria-pressed", String(explainMode));
      document.body.classList.toggle("explain-mode-on", explainMode);
      if (!explainMode) hideExplain();
    },
  }, el("span", { "aria-hidden": "true" }, "?"));
}

// A long press (touch or pen) on anything marked explains it.
let press = null;
document.addEventListener("pointerdown", (e) => {
  if (press) clearTimeout(press.timer);
  press = null;
  if (e.pointerType !== "touch" && e.pointerType !== "pen") return;
  const target = e.target.closest && e.target.closest("[data-term]");
  if (!target) return;
  press = {
    x: e.clientX, y: e.clientY, target, at: e.timeStamp,
    timer: setTimeout(() => longPress(target), LONG_PRESS_MS),
  };
}, true);

function longPress(target) {
  if (press) clearTimeout(press.timer);
  press = null;
  swallowClickUntil = performance.now() + 800;
  explain(target);
}
document.addEventListener("pointermove", (e) => {
  if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > SLOP) {
    clearTimeout(press.timer);
    press = null;
  }
}, true);
for (const type of ["pointerup", "pointercancel"]) {
  document.addEventListener(type, (e) => {
    if (!press) return;
    // A busy page may run the timer late: the finger's own times decide.
    if (type === "pointerup" && e.timeStamp - press.at >= LONG_PRESS_MS) {
      longPress(press.target);
      return;
    }
    clearTimeout(press.timer);
    press = null;
  }, true);
}

// A right click, or the keyboard's menu key, on anything marked explains it.
document.addEventListener("contextmenu", (e) => {
  const target = e.target.closest && e.target.closest("[data-term]");
  if (!target) return;
  e.preventDefault();
  if (performance.now() < swallowClickUntil) return; // the long press has explained it
  explain(target);
});

// A click: swallowed after a long press; in "?" mode it explains instead of playing; on
// a marked thing that is no move (a label, a card on the table) it explains.
document.addEventListener("click", (e) => {
  if (performance.now() < swallowClickUntil) {
    swallowClickUntil = 0;
    e.preventDefault();
    e.stopImmediatePropagation();
    return;
  }
  const target = e.target.closest && e.target.closest("[data-term]");
  if (!target || (explainBox && explainBox.contains(target))) return;
  if (explainMode && !target.closest("#explain-mode")) {
    e.preventDefault();
    e.stopImmediatePropagation();
    explain(target);
  } else if (!isMove(target)) {
    explain(target);
  }
}, true);

// Keyboard focus on a marked thing that is no move explains it (a move explains only
// when asked: the menu key, or the "?" mode).
document.addEventListener("focusin", (e) => {
  const target = e.target.closest && e.target.closest("[data-term]");
  if (target && !isMove(target) && target.matches(":focus-visible")) explain(target);
});

// The "?" key on a focused marked thing (a card of the hand too) explains it.
document.addEventListener("keydown", (e) => {
  if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target.closest && e.target.closest("[data-term]");
  if (!target) return;
  e.preventDefault();
  explain(target);
});

// A tap anywhere else puts the explanation away (a "?" button toggles it itself).
document.addEventListener("pointerdown", (e) => {
  if (!explainBox || explainBox.hidden || explainBox.contains(e.target)) return;
  if (!(e.target.closest && e.target.closest("[data-term], button.term-help, #explain-mode"))) hideExplain();
}, true);

// Links into a rules page open in the panel (a modified click still opens a new tab).
document.addEventListener("click", (e) => {
  const link = e.target.closest && e.target.closest("a[data-rules-game]");
  if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  openRules(link.dataset.rulesGame, link.dataset.rulesTerm || null);
});
