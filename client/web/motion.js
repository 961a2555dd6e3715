// Motion computed from the change, for every table (after chessground's anim.ts): the
// new view is drawn first; then each card (an element with data-card) that was on
// screen before slides from where it was to where it is now, by card identity. A card
// new on screen comes from the seat that moved (its panel, data-seat) or fades in; a
// card gone from the screen flies to the seat that won the trick, or fades where it
// was. The seat that just moved is highlighted briefly. One short animation, never
// blocking input (transforms on the Web Animations API, nothing waits for them); nothing
// moves under prefers-reduced-motion or the Settings' "reduce motion".

export const MOTION = { duration: 260, highlight: 900, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" };

const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Whether motion is off (the system's setting or the player's own). */
export function motionOff() {
  return REDUCED.matches || document.body.classList.contains("reduced-motion");
}

/** Each card on screen in `root` by identity ("card text#n": the n-th of that text) with its box. */
function cards(root) {
  const seen = new Map();
  const found = new Map();
  for (const node of root.querySelectorAll("[data-card]")) {
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const text = node.dataset.card;
    const n = seen.get(text) || 0;
    seen.set(text, n + 1);
    found.set(`${text}#${n}`, { node, box });
  }
  return found;
}

/** Before a table is replaced: where every card is now. */
export function beforePaint(root) {
  return motionOff() ? null : cards(root);
}

let lastVersion = null;

function seatBox(root, seat) {
  if (seat === null || seat === undefined) return null;
  const panel = root.querySelector(`.seat[data-seat="${CSS.escape(String(seat))}"]`);
  const box = panel && panel.getBoundingClientRect();
  return box && box.width ? box : null;
}

function centre(box) {
  return [box.left + box.width / 2, box.top + box.height / 2];
}

/** A copy of a card that left the screen, flying from `from` to `to` (or fading) and then gone. */
function ghost(node, from, to) {
  const copy = node.cloneNode(true);
  // A ghost is scenery: no name, no role (it may carry a label in the language just left).
  for (const attr of ["id", "data-key", "data-card", "data-term", "tabindex", "aria-label", "title", "role"]) {
    copy.removeAttribute(attr);
  }
  for (const inner of copy.querySelectorAll("[aria-label], [title], [id]")) {
    for (const attr of ["aria-label", "title", "id"]) inner.removeAttribute(attr);
  }
  copy.setAttribute("aria-hidden", "true");
  copy.classList.add("motion-ghost");
  Object.assign(copy.style, {
    position: "fixed", left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`,
    height: `${from.height}px`, margin: "0", pointerEvents: "none", zIndex: "40",
  });
  document.body.append(copy);
  const frames = [{ transform: "none", opacity: 1 }];
  if (to) {
    const [fx, fy] = centre(from);
    const [tx, ty] = centre(to);
    frames.push({ transform: `translate(${tx - fx}px, ${ty - fy}px) scale(0.5)`, opacity: 0.2 });
  } else {
    frames.push({ opacity: 0 });
  }
  const anim = copy.animate(frames, { duration: MOTION.duration, easing: MOTION.easing });
  anim.onfinish = anim.oncancel = () => copy.remove();
}

/**
 * After the new table is in `root`: slide every card from its place in `before`, bring
 * in the new ones from their seat, send the gone ones to the trick's winner, and
 * highlight the seats in `motion.movers` (a new view only, not a redraw of the same one).
 */
export function afterPaint(root, before, motion = {}) {
  if (!before) return;
  const fresh = motion.version === undefined || motion.version !== lastVersion;
  if (motion.version !== undefined) lastVersion = motion.version;
  const now = cards(root);
  const movers = fresh ? motion.movers || [] : [];
  const from = movers.length === 1 ? seatBox(root, movers[0]) : null;
  for (const [key, { node, box }] of now) {
    const old = before.get(key);
    let start = old ? old.box : null;
    if (!start && fresh && from) start = from;
    if (start) {
      const dx = start.left + start.width / 2 - (box.left + box.width / 2);
      const dy = start.top + start.height / 2 - (box.top + box.height / 2);
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      const scale = old ? 1 : 0.6;
      node.animate([
        { transform: `translate(${dx}px, ${dy}px) scale(${scale})` },
        { transform: "none" },
      ], { duration: MOTION.duration, easing: MOTION.easing, composite: "add" });
    } else if (fresh) {
      node.animate([{ opacity: 0, transform: "scale(0.85)" }, { opacity: 1, transform: "none" }],
        { duration: MOTION.duration, easing: MOTION.easing, composite: "add" });
    }
  }
  if (!fresh) return;
  const winner = seatBox(root, motion.winner);
  for (const [key, { node, box }] of before) {
    if (!now.has(key) && node.closest(".trick, .sk-row, .tokens, .npc-hand")) ghost(node, box, winner);
  }
  for (const seat of movers) {
    const panel = root.querySelector(`.seat[data-seat="${CSS.escape(String(seat))}"]`);
    if (!panel) continue;
    panel.classList.add("just-moved");
    setTimeout(() => panel.classList.remove("just-moved"), MOTION.highlight);
  }
}
