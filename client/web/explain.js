// Explaining what is on the screen. Tap (touch or pen) or keyboard-focus anything marked
// with data-term — every card face, and the terms the tables mark — and a small panel
// names it in full and gives its role, taken from the game's glossary (its rules page);
// "More" opens that page at the entry. A table's "?" button (termHelp) opens the same
// panel with its own sentences, by tap, click or key alike. The Rules panel shows a
// game's rules page over whatever is on screen: the table keeps running and the seat
// stays connected.

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
  },
  ja: {
    rules_button: "ルール",
    rules_title: "{game}の遊び方",
    explain_more: "遊び方で詳しく",
    explain_close: "説明を閉じる",
    explain_what: "{name}とは？",
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
  // Keep clear of what was explained: a card low on the screen (your hand) or anything
  // in the dock (where the moves are) gets its explanation at the top, the rest at the
  // bottom.
  const box = target.getBoundingClientRect();
  const low = box.top + box.height / 2 > window.innerHeight / 2 || Boolean(target.closest(".dock"));
  explainBox.classList.toggle("top", low);
  explainBox.hidden = false;
  placeOnPhone(explainBox, target, low);
}

const PHONE = "(max-width: 480px)";
const MIN_PANEL = 120; // px: the name, a line and the close button

/**
 * On a phone the panel at the top would cover the page's and the table's header rows
 * (Rules, Settings, Pause): it starts below whichever of them is on screen in the top
 * half when that leaves it room above what it explains, and scrolls inside (its close
 * button first). It never covers what it explains, so a second tap on a "?" closes it:
 * with too little room below the headers it goes over them. A wide screen keeps the
 * plain top/bottom placement.
 */
function placeOnPhone(box, target, low) {
  box.style.top = box.style.maxHeight = "";
  if (!window.matchMedia(PHONE).matches) return;
  const margin = 8;
  const explained = target.getBoundingClientRect();
  if (!low) {
    // At the bottom, below what it explains.
    box.style.maxHeight = `${Math.max(window.innerHeight - explained.bottom - 2 * margin, MIN_PANEL)}px`;
    return;
  }
  let top = margin;
  for (const head of document.querySelectorAll(".topbar, .table-head")) {
    const r = head.getBoundingClientRect();
    if (r.height > 0 && r.bottom > 0 && r.top < window.innerHeight / 2) top = Math.max(top, r.bottom + 4);
  }
  if (explained.top - margin - top < MIN_PANEL) top = margin;
  box.style.top = `${top}px`;
  box.style.maxHeight = `${Math.max(explained.top - margin - top, MIN_PANEL)}px`;
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

// -- wiring: one set of listeners for the whole page --------------------------------
document.addEventListener("pointerup", (e) => {
  if (e.pointerType !== "touch" && e.pointerType !== "pen") return;
  const target = e.target.closest && e.target.closest("[data-term]");
  if (target) explain(target);
}, true);

// A tap anywhere else puts the explanation away (a "?" button toggles it itself).
document.addEventListener("pointerdown", (e) => {
  if (!explainBox || explainBox.hidden || explainBox.contains(e.target)) return;
  if (!(e.target.closest && e.target.closest("[data-term], button.term-help"))) hideExplain();
}, true);

document.addEventListener("focusin", (e) => {
  const target = e.target.closest && e.target.closest("[data-term]");
  if (target && target.matches(":focus-visible")) explain(target);
});

// Links into a rules page open in the panel (a modified click still opens a new tab).
document.addEventListener("click", (e) => {
  const link = e.target.closest && e.target.closest("a[data-rules-game]");
  if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  openRules(link.dataset.rulesGame, link.dataset.rulesTerm || null);
});
