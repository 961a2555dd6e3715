// The suggested move on a table (a hint: the Hard CPU's move for this seat), marked the
// same way in every game: each element that makes or picks that move gets the class
// `suggested` (and data-suggested). Tables tag the buttons that make one whole move with
// `actionAttr(action)`; cards are found by their data-card, hand places by data-index
// (a discard by position, with the dock's Discard button) and data-gap (an insert).
// A helper line's figure is shown at the move it is about the same way (`markFigure`).

import { el } from "../components.js";

/** An action as a key: JSON with its fields in name order (the same move, the same key). */
export function actionKey(action) {
  const sorted = {};
  for (const name of Object.keys(action || {}).sort()) sorted[name] = action[name];
  return JSON.stringify(sorted);
}

/** Attributes tagging a button as the one that makes `action`. */
export function actionAttr(action) {
  return { "data-action": actionKey(action) };
}

/** The elements of `table` that make or pick `move` (the dock's first, then the rest). */
export function suggestedNodes(table, move) {
  if (!move) return [];
  const dock = table.querySelector(".dock") || table;
  const key = actionKey(move);
  const found = [...table.querySelectorAll("[data-action]")].filter((n) => n.dataset.action === key);
  if (found.length) return found;
  const place = move.pos ?? move.index;
  if (move.type === "insert" && place !== undefined) {
    return [...dock.querySelectorAll(`[data-hand] [data-gap="${place}"]`)];
  }
  if (move.type === "discard" && place !== undefined) {
    const card = [...dock.querySelectorAll(`[data-hand] [data-index="${place}"]`)];
    const button = dock.querySelector(move.knock ? "#discard-knock" : "#discard");
    return button ? [...card, button] : card;
  }
  if (typeof move.card === "string") {
    // A card code can show more than once (Junocos: a card of the draft row, its twin in
    // the hand that is not playable now, the trump indicator): the ones that can be
    // pressed come first.
    const code = CSS.escape(move.card);
    const mine = [...dock.querySelectorAll(`[data-card="${code}"]`)];
    const all = [...table.querySelectorAll(`[data-card="${code}"]`)];
    for (const nodes of [mine, all]) {
      const pressable = nodes.filter(canPress);
      if (pressable.length) return pressable;
    }
    return mine.length ? mine : all;
  }
  return [];
}

/** Whether a card element can be pressed now: a button, not disabled nor aria-disabled. */
function canPress(node) {
  return node.matches("button:not(:disabled):not([aria-disabled='true'])");
}

/** Mark the suggested move's elements in a freshly built table; returns them. */
export function markSuggested(table, move) {
  const nodes = suggestedNodes(table, move);
  for (const node of nodes) {
    node.classList.add("suggested");
    node.dataset.suggested = "1";
  }
  return nodes;
}

/**
 * Show a helper line's short figure at the elements that make its move (a badge on the
 * gap, the card or the button; not on the dock's Discard buttons, which make any
 * discard), its sentence in their title and accessible name. Returns the elements.
 */
export function markFigure(table, { id, move, short, line }) {
  const nodes = suggestedNodes(table, move).filter((n) => !n.matches("#discard, #discard-knock"));
  for (const node of nodes) {
    const name = node.getAttribute("aria-label") || node.textContent.trim();
    node.setAttribute("aria-label", `${name} — ${line}`);
    node.title = line;
    node.classList.add("has-figure");
    node.append(el("span", { class: "helper-figure", "data-figure": id, "aria-hidden": "true" }, short));
  }
  return nodes;
}
