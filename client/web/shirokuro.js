// Pieces shared by the two Shirokuro-deck tables (Kokuto Rum, Shirokuro Jong): the
// player's legal moves sent one per view, the two-ended card face, the ordered hand with insert gaps (tap a gap, or drag the drawn
// card onto the hand), the drawn-card panel with its flip button, the start-of-round
// rotation choice, and the rows of other seats' cards.
//
// Card texts follow server/games/shirokuro_deck.py: a held card is written upright end
// first ("B5/W2" is white 2 / black 5 held black 5 up); a loose card (discard, Dora
// indicator, drawn card) is written white end first.

import { el } from "./components.js";
import { t } from "./i18n.js";
import { actionAttr } from "./tables/suggest.js";

export const SHIRO_STRINGS = {
  en: {
    sk_colour_W: "White",
    sk_colour_B: "Black",
    sk_mark_W: "W",
    sk_mark_B: "B",
    sk_held: "{colour} {n} upright (other end {other} {m})",
    sk_loose: "card {colour} {n} / {other} {m}",
    sk_value: "{colour} {n}",
    sk_pair: "{a} / {b}",
    sk_gap: "Insert here: position {n}",
    sk_gap_end: "Insert here: at the end (position {n})",
    sk_drawn: "Card to insert",
    sk_flip: "Flip",
    sk_flip_label: "Flip the card to insert: {colour} up now",
    sk_insert_hint: "Tap a ▼ gap in your hand, or drag the card there. Flip turns it around.",
    sk_rotate_title: "Rotate your hand?",
    sk_rotate_note: "Once, before play, you may turn your whole hand around: every card shows its other end. Everyone chooses in secret.",
    sk_rotated: "Rotated",
    sk_keep: "Keep as dealt",
    sk_rotate: "Rotate hand",
    sk_chose_keep: "You kept your hand as dealt.",
    sk_chose_rotate: "You rotated your hand.",
    sk_waiting_rotation: "Waiting for the others to choose…",
    sk_chosen: "chosen",
    sk_choosing: "choosing",
    sk_cards: "{n} cards",
    sk_face_down: "face-down card",
    sk_selected: "selected",
    sk_in_meld: "in a meld",
    sk_why_rotate: "First choose whether to rotate your hand.",
    sk_why_insert: "First put the card you drew into a ▼ gap of your hand.",
    sk_why_draw: "First draw from the pile or take the top discard.",
    sk_why_claim: "First answer the discard: claim it or pass.",
    sk_why_taken: "The card you just took may not be discarded.",
  },
  ja: {
    sk_colour_W: "白",
    sk_colour_B: "黒",
    sk_mark_W: "白",
    sk_mark_B: "黒",
    sk_held: "{colour}{n}が上（反対側は{other}{m}）",
    sk_loose: "カード {colour}{n}／{other}{m}",
    sk_value: "{colour}{n}",
    sk_pair: "{a}／{b}",
    sk_gap: "ここに入れる：{n}番目",
    sk_gap_end: "ここに入れる：いちばん右（{n}番目）",
    sk_drawn: "入れるカード",
    sk_flip: "向きを変える",
    sk_flip_label: "入れるカードの向きを変える：今は{colour}が上",
    sk_insert_hint: "手札の▼の隙間をタップするか、カードをそこへドラッグしてください。「向きを変える」で上下が入れ替わります。",
    sk_rotate_title: "手札を回転しますか？",
    sk_rotate_note: "対局前に一度だけ、手札全体を180度回せます。すべてのカードが反対側の数字になります。選択は全員同時・非公開です。",
    sk_rotated: "回転後",
    sk_keep: "このままにする",
    sk_rotate: "手札を回転する",
    sk_chose_keep: "手札を配られたままにしました。",
    sk_chose_rotate: "手札を回転しました。",
    sk_waiting_rotation: "ほかのプレイヤーの選択を待っています…",
    sk_chosen: "選択済み",
    sk_choosing: "選択中",
    sk_cards: "{n}枚",
    sk_face_down: "裏向きのカード",
    sk_selected: "選択中",
    sk_in_meld: "役の一部",
    sk_why_rotate: "先に手札を回転するかどうか選んでください。",
    sk_why_insert: "先に引いたカードを手札の▼の隙間に入れてください。",
    sk_why_draw: "先に山札から引くか、捨て札を取ってください。",
    sk_why_claim: "先に捨て牌に答えてください（鳴くか見送るか）。",
    sk_why_taken: "取ったばかりのカードは捨てられません。",
  },
};

const RESEND_MS = 2000; // after this long without a new view, a move may be tried again

/**
 * The legal moves of this browser's seat (the first it holds) and a `move(action)` that
 * sends one move per view: a second tap before the server answers would be refused, so
 * it is dropped unless RESEND_MS has passed. `getCtx()` gives the current context;
 * `beforeSend()` runs before each move goes out (to clear a selection).
 */
export function playerMoves(getCtx, beforeSend) {
  let sentAt = -Infinity;
  let sentVersion = null;
  const me = () => getCtx().you[0];
  const legal = () => (me() === undefined ? [] : (getCtx().message.legal || {})[me()] || []);
  const move = (action) => {
    const version = getCtx().message.version;
    if (version === sentVersion && performance.now() - sentAt < RESEND_MS) return;
    sentVersion = version;
    sentAt = performance.now();
    beforeSend();
    getCtx().move(me(), action);
  };
  return { me, legal, find: (pred) => legal().find(pred), move };
}

/**
 * What the legal moves `acts` let the player do with their hand now: insert the drawn
 * card, discard (`canDiscard(i)`: a discard action whose `indexKey` field is i), choose
 * the rotation.
 */
export function handMoves(acts, drawn, indexKey) {
  const discards = acts.filter((a) => a.type === "discard");
  return {
    inserting: acts.some((a) => a.type === "insert") && drawn,
    discards,
    canDiscard: (i) => discards.some((a) => a[indexKey] === i),
    rotating: acts.some((a) => a.type === "rotate"),
  };
}

/**
 * Why a tap on a card of the hand does nothing now, from the legal moves `acts`: the
 * move the table asks for first, else whose turn it is (`waitingFor`, a name, or null).
 */
export function handRefusal(acts, waitingFor) {
  const has = (...types) => acts.some((a) => types.includes(a.type));
  if (has("rotate")) return t("sk_why_rotate");
  if (has("insert")) return t("sk_why_insert");
  if (has("draw")) return t("sk_why_draw");
  if (has("ron", "pon", "chii", "pass")) return t("sk_why_claim");
  if (has("discard")) return t("sk_why_taken");
  return waitingFor ? t("fr_not_your_turn", { who: waitingFor }) : t("fr_wait");
}

/** The two ends of a card text: [{colour, n}, {colour, n}], upright (or white) end first. */
export function ends(text) {
  return [
    { colour: text[0], n: Number(text[1]) },
    { colour: text[3], n: Number(text[4]) },
  ];
}

/** The same card held the other way up: "W2/B5" <-> "B5/W2". */
export function flipText(text) {
  return `${text.slice(3)}/${text.slice(0, 2)}`;
}

/** A value such as "W2" (or a held card's upright end) as words: "White 2" / "白2". */
export function valueName(text) {
  return t("sk_value", { colour: t("sk_colour_" + text[0]), n: text[1] });
}

/** A loose card text ("W6/B5") in words: "White 6 / Black 5" / "白6／黒5". */
export function looseName(text) {
  return t("sk_pair", { a: valueName(text.slice(0, 2)), b: valueName(text.slice(3)) });
}

/** Spoken name of a card: held (upright end first) or loose (white end first). */
export function cardName(text, { loose = false } = {}) {
  const [a, b] = ends(text);
  return t(loose ? "sk_loose" : "sk_held", {
    colour: t("sk_colour_" + a.colour), n: a.n, other: t("sk_colour_" + b.colour), m: b.n,
  });
}

function end(part, cls) {
  return el("span", { class: `sk-end ${cls} sk-${part.colour}`, "aria-hidden": "true" },
    el("span", { class: "sk-num" }, String(part.n)),
    el("span", { class: "sk-mark" }, t("sk_mark_" + part.colour)));
}

/**
 * A Shirokuro card face: the upright number large on top, the other end small and upside
 * down below. `loose` draws both ends the same size (discards, the Dora indicator).
 * With `onclick` it is a button; `attrs` adds data attributes; `term` is the glossary
 * entry tapping or focusing it explains (see explain.js).
 */
export function shiroCard(text, { onclick, selected = false, loose = false, key, extra = "", attrs = {}, term = "upright" } = {}) {
  const [up, down] = ends(text);
  const label = cardName(text, { loose }) + (selected ? " — " + t("sk_selected") : "");
  return el(onclick ? "button" : "span", {
    class: `sk-card${loose ? " loose" : ""}${selected ? " selected" : ""}${extra ? " " + extra : ""}`,
    type: onclick ? "button" : null,
    onclick,
    role: onclick ? null : "img",
    "aria-pressed": onclick ? String(selected) : null,
    "aria-label": label,
    title: label,
    tabindex: onclick ? null : "0",
    "data-key": key,
    "data-card": text,
    "data-term": term,
    ...attrs,
  }, end(up, "sk-top"), end(down, "sk-bottom"));
}

/** A face-down card (other seats' hands). */
export function shiroBack() {
  return el("span", { class: "sk-card back", role: "img", "aria-label": t("sk_face_down") });
}

/**
 * The player's ordered hand. `selected`: index or null; `onSelect(i)` makes cards
 * buttons when `selectable(i)`; `onGap(pos)` shows a gap button before every card and at
 * the end; `melds` is a list of [start, end) blocks to outline. `refuse(i)`, when given,
 * makes the other cards buttons that say why they do nothing now (never an explanation).
 */
export function handRow({ cards, seat, selected = null, selectable = () => false, onSelect, onGap, melds = [], refuse }) {
  const inMeld = new Array(cards.length).fill(null);
  melds.forEach(([a, b], m) => { for (let i = a; i < b; i++) inMeld[i] = m; });
  const parts = [];
  const gap = (pos) => el("button", {
    type: "button", class: "sk-gap", "data-gap": pos, "data-key": `gap-${seat}-${pos}`,
    "aria-label": pos === cards.length ? t("sk_gap_end", { n: pos + 1 }) : t("sk_gap", { n: pos + 1 }),
    onclick: () => onGap(pos),
  }, "▼");
  cards.forEach((card, i) => {
    if (onGap) parts.push(gap(i));
    const pick = onSelect && selectable(i) ? () => onSelect(i) : undefined;
    const meld = inMeld[i];
    const edge = meld === null ? "" : ` meld${inMeld[i - 1] !== meld ? " meld-start" : ""}${inMeld[i + 1] !== meld ? " meld-end" : ""}`;
    const refused = !pick && refuse ? { "aria-disabled": "true" } : {};
    parts.push(shiroCard(card, {
      onclick: pick || (refuse ? () => refuse(i) : undefined), selected: selected === i, key: `card-${seat}-${i}`,
      extra: edge.trim(), attrs: { "data-index": i, title: meld === null ? null : t("sk_in_meld"), ...refused },
    }));
  });
  if (onGap) parts.push(gap(cards.length));
  return el("div", { class: `sk-hand${onGap ? " inserting" : ""}`, "data-hand": seat }, parts);
}

/** Where a drop at (x, y) lands in `hand`: the insert position, or null when off the hand. */
function dropPosition(hand, x, y) {
  const box = hand.getBoundingClientRect();
  const margin = 48;
  if (x < box.left - margin || x > box.right + margin || y < box.top - margin || y > box.bottom + margin) {
    return null;
  }
  const cards = [...hand.querySelectorAll(".sk-card")];
  if (!cards.length) return 0;
  let best = null;
  cards.forEach((card, i) => {
    const r = card.getBoundingClientRect();
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    const d = Math.abs(x - cx) + 2 * Math.abs(y - cy); // rows matter more than columns
    if (!best || d < best.d) best = { d, pos: x < cx ? i : i + 1 };
  });
  return best.pos;
}

/**
 * Let `card` be dragged (mouse, pen or touch, through pointer events) onto the hand
 * element `getHand()` returns; `onDrop(pos)` gets the insert position. A press without
 * movement stays a click.
 */
export function makeDraggable(card, getHand, onDrop) {
  card.classList.add("draggable");
  card.addEventListener("pointerdown", (down) => {
    if (down.pointerType === "mouse" && down.button !== 0) return;
    const startX = down.clientX;
    const startY = down.clientY;
    let ghost = null;
    let target = null;
    card.setPointerCapture(down.pointerId);
    const mark = (pos) => {
      const hand = getHand();
      if (!hand) return;
      for (const g of hand.querySelectorAll(".sk-gap")) g.classList.toggle("target", Number(g.dataset.gap) === pos);
    };
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - startX, ev.clientY - startY) < 6) return;
      if (!ghost) {
        ghost = card.cloneNode(true);
        ghost.classList.add("sk-ghost");
        ghost.removeAttribute("data-key");
        ghost.removeAttribute("data-card");
        document.body.append(ghost);
      }
      ghost.style.left = `${ev.clientX}px`;
      ghost.style.top = `${ev.clientY}px`;
      const hand = getHand();
      target = hand ? dropPosition(hand, ev.clientX, ev.clientY) : null;
      mark(target);
    };
    const finish = (ev) => {
      card.removeEventListener("pointermove", move);
      card.removeEventListener("pointerup", finish);
      card.removeEventListener("pointercancel", finish);
      if (!ghost) return;
      ghost.remove();
      mark(null);
      // The click that follows a drag must not count as a tap.
      card.addEventListener("click", (c) => { c.stopImmediatePropagation(); c.preventDefault(); },
        { capture: true, once: true });
      if (ev.type === "pointerup" && target !== null) onDrop(target);
    };
    card.addEventListener("pointermove", move);
    card.addEventListener("pointerup", finish);
    card.addEventListener("pointercancel", finish);
  });
}

/**
 * The drawn card as it will go in (upright end `up`), its Flip button and a hint.
 * `onFlip()` turns it; `getHand`/`onDrop` make it draggable onto the hand.
 */
export function drawnPanel({ drawn, up, onFlip, getHand, onDrop }) {
  const text = up === "W" ? drawn : flipText(drawn);
  const card = shiroCard(text, { key: "drawn-card", extra: "drawn", attrs: { id: "drawn-card" } });
  makeDraggable(card, getHand, onDrop);
  return el("div", { class: "sk-drawn", id: "drawn-panel" },
    el("div", { class: "sk-drawn-card" }, el("span", { class: "label" }, t("sk_drawn")), card),
    el("div", { class: "sk-drawn-side" },
      el("button", {
        type: "button", id: "flip-drawn", "data-key": "flip-drawn", class: "ghost",
        "aria-label": t("sk_flip_label", { colour: t("sk_colour_" + text[0]) }), onclick: onFlip,
      }, "⟲ " + t("sk_flip")),
      el("p", { class: "muted" }, t("sk_insert_hint"))));
}

/**
 * The start-of-round rotation choice: the hand as it would be rotated (the hand itself
 * is shown above it), Keep/Rotate buttons while `canChoose`, and the choice once made.
 */
export function rotationChoice({ hand, canChoose, chosen, onChoose }) {
  if (!canChoose) {
    return el("div", { class: "sk-rotation", id: "rotation-choice" },
      el("p", {}, chosen === true ? t("sk_chose_rotate") : chosen === false ? t("sk_chose_keep") : ""),
      el("p", { class: "muted" }, t("sk_waiting_rotation")));
  }
  return el("div", { class: "sk-rotation", id: "rotation-choice" },
    el("h3", {}, t("sk_rotate_title")),
    el("p", { class: "muted" }, t("sk_rotate_note")),
    el("div", { class: "sk-preview" }, el("span", { class: "label" }, t("sk_rotated")),
      cardRow(hand.map(flipText))),
    el("div", { class: "row" },
      el("button", {
        type: "button", id: "rotate-keep", "data-key": "rotate-keep", onclick: () => onChoose(false),
        ...actionAttr({ type: "rotate", flip: false }),
      }, t("sk_keep")),
      el("button", {
        type: "button", id: "rotate-flip", "data-key": "rotate-flip", onclick: () => onChoose(true),
        ...actionAttr({ type: "rotate", flip: true }),
      }, "⟲ " + t("sk_rotate"))));
}

/** Small face-up cards in a row (discards, exposed melds, revealed hands). */
export function cardRow(cards, { loose = false, cls = "", melds = [] } = {}) {
  const inMeld = new Array(cards.length).fill(null);
  melds.forEach(([a, b], m) => { for (let i = a; i < b; i++) inMeld[i] = m; });
  return el("div", { class: `sk-row ${cls}`.trim() }, cards.map((c, i) => {
    const meld = inMeld[i];
    const edge = meld === null ? "" : `meld${inMeld[i - 1] !== meld ? " meld-start" : ""}${inMeld[i + 1] !== meld ? " meld-end" : ""}`;
    return shiroCard(c, { loose, extra: edge });
  }));
}
