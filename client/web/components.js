// Small DOM helpers and pieces shared by every table: cards, seats, results.

import { t } from "./i18n.js";

/**
 * Build an element: el("button", {class: "x", onclick: f}, "text", child...).
 * Attributes whose value is false/null/undefined are left out.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace a node's children, keeping keyboard focus on the element with the same key. */
export function replaceKeepingFocus(root, ...children) {
  const focusKey = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.key : undefined;
  root.replaceChildren(...children);
  if (focusKey) {
    const again = root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

/**
 * A table's header row: `badges` (text, or nodes for badges with an id; null is left
 * out) and the paused marker, then the controls: Pause/Resume for a seated player while
 * the match runs, Rules (when the page can open them: `ctx.openRules`) and Settings; the
 * "?" mode and the table's sheets join them (tables/frame.js). On a phone the
 * controls show their symbol, their words stay their accessible names.
 */
export function tableHeader(ctx, badges) {
  const room = ctx.room || {};
  const canPause = room.can_pause !== false && ctx.you.length && !ctx.message.outcome;
  const control = (id, key, icon, text, onclick) => el("button", {
    type: "button", class: "ghost head-button", "data-key": key, id, "data-icon": icon, onclick,
  }, el("span", { class: "lbl" }, text));
  return el("div", { class: "row table-head" },
    el("div", { class: "head-badges" },
      badges.filter(Boolean).map((b) => (b instanceof Node ? b : el("span", { class: "badge" }, b))),
      room.paused ? el("span", { class: "badge strong", id: "paused" }, "⏸ " + t("paused")) : null),
    el("div", { class: "head-controls" },
      canPause ? control("pause-button", "pause", room.paused ? "▶" : "⏸", room.paused ? t("resume") : t("pause"),
        () => ctx.send({ t: room.paused ? "resume" : "pause" })) : null,
      ctx.openRules ? control("rules-button", "rules", "📖", t("rules_button"), ctx.openRules) : null,
      control("settings-button", "settings", "⚙", t("settings"), ctx.openSettings)));
}

const SUITS = {
  S: { symbol: "♠", red: false },
  H: { symbol: "♥", red: true },
  C: { symbol: "♣", red: false },
  D: { symbol: "♦", red: true },
};

/** Spoken/printed name of a French-suited card such as "S1" (ace of spades). */
export function frenchCardName(code) {
  const suit = code[0];
  const rank = code.slice(1);
  return t("card_name", { rank: t("rank_" + rank), suit: t("suit_" + suit) });
}

/**
 * A French-suited card face as a button (or a back when `code` is null). Suit is shown
 * as symbol and as a letter, so red/black is never the only cue.
 */
export function frenchCard(code, { selected = false, onclick, disabled = false, key } = {}) {
  if (!code) {
    return el("span", { class: "card back", role: "img", "aria-label": t("face_down") });
  }
  const suit = SUITS[code[0]] || { symbol: "?", red: false };
  const rank = code.slice(1) === "1" ? "A" : code.slice(1);
  return el(
    onclick ? "button" : "span",
    {
      class: `card${suit.red ? " red" : ""}${selected ? " selected" : ""}`,
      type: onclick ? "button" : null,
      role: onclick ? null : "img",
      onclick,
      disabled: onclick ? disabled : null,
      "aria-pressed": onclick ? String(selected) : null,
      "aria-label": frenchCardName(code) + (selected ? " — " + t("selected") : ""),
      title: frenchCardName(code),
      tabindex: onclick ? null : "0",
      "data-key": key,
      "data-card": code,
      "data-term": "card",
    },
    el("span", { "aria-hidden": "true" }, rank),
    el("span", { class: "suit", "aria-hidden": "true" }, suit.symbol),
    el("span", { class: "sub", "aria-hidden": "true" }, code[0]),
  );
}

/**
 * Attributes marking an element as the glossary term `id` of the game on screen: tapping
 * or focusing it explains it (explain.js), so it is focusable.
 */
export function termAttrs(id) {
  return { "data-term": id, tabindex: "0" };
}

/** "Player 2" / "You" / "CPU 3" for a seat, from the room's seat list. */
export function seatLabel(seats, seat, mine) {
  const info = (seats && seats[seat]) || {};
  if (mine.includes(seat)) {
    return mine.length > 1 ? t("player_n", { n: mine.indexOf(seat) + 1 }) : t("you");
  }
  if (info.name) return info.name;
  if (info.kind === "cpu") return t("cpu_n", { n: seat + 1 });
  return t("seat_n", { n: seat + 1 });
}
