// One countdown for every timer that acts for a player: a rule's deadline in game time
// (a view field such as Shirokuro Jong's claim_deadline, against the frame's
// room.game_ms), or a time on this page (a round result that closes by itself). It shows
// the seconds left as text and as a bar; it stands still while the game clock does
// (paused, or nobody's page showing the table).
//
// The game time of a frame is its time when it arrived, so a re-render of the same frame
// (a local tap) does not restart the count. One interval updates every countdown shown.

import { el } from "../components.js";

const TICK_MS = 250;
const arrived = new WeakMap(); // frame -> performance.now() when a countdown first saw it
const lengths = new Map(); // "id deadline" -> ms left when first shown (the bar's full length)

/**
 * The wall time (performance.now()) at which `deadline` (game ms) falls for the frame
 * `message`, or null when the game clock stands still (then `frozenMs` says how much is left).
 */
export function deadlineAt(message, deadline) {
  const room = message.room || {};
  if (!arrived.has(message)) arrived.set(message, performance.now());
  const left = deadline - (room.game_ms || 0);
  const running = room.running !== false && !room.paused;
  return running ? { at: arrived.get(message) + left, frozenMs: null } : { at: null, frozenMs: Math.max(0, left) };
}

function leftMs(node) {
  if (node.dataset.frozen !== undefined) return Number(node.dataset.frozen);
  return Math.max(0, Number(node.dataset.at) - performance.now());
}

function update(node) {
  const left = leftMs(node);
  const total = Number(node.dataset.total) || 1;
  const seconds = Math.ceil(left / 1000);
  const text = node.querySelector(".seconds");
  const want = node.label(seconds);
  if (text.textContent !== want) text.textContent = want;
  node.querySelector(".bar > span").style.width = `${Math.min(100, (100 * left) / total)}%`;
  if (left <= 0 && node.onDone && !node.doneCalled) {
    node.doneCalled = true;
    node.onDone();
  }
}

/**
 * A countdown element. Either `message` + `deadline` (game ms in that frame) or `at`
 * (a performance.now() time). `total` is the full length in ms (for the bar; by default
 * the time left when the deadline was first shown), `label(s)`
 * the text for s seconds left, `onDone` runs once when it reaches zero.
 */
export function countdown({ id, message, deadline, at, total, label, onDone }) {
  const node = el("div", { class: "countdown", id, role: "timer" },
    el("span", { class: "seconds" }),
    el("span", { class: "bar", "aria-hidden": "true" }, el("span", {})));
  const when = message ? deadlineAt(message, deadline) : { at, frozenMs: null };
  if (!total) {
    // Unknown full length: the time left when this deadline was first shown.
    const key = `${id} ${deadline}`;
    if (!lengths.has(key)) {
      if (lengths.size > 50) lengths.clear();
      lengths.set(key, when.at === null ? when.frozenMs : when.at - performance.now());
    }
    total = lengths.get(key);
  }
  if (when.at === null) node.dataset.frozen = String(when.frozenMs);
  else node.dataset.at = String(when.at);
  node.dataset.total = String(total);
  node.label = label;
  update(node);
  node.onDone = onDone; // only from the interval: never during the render that made it
  return node;
}

setInterval(() => {
  for (const node of document.querySelectorAll(".countdown")) if (node.label) update(node);
}, TICK_MS);
