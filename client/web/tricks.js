// Pieces the three trick-taking tables share (Hachinin Meri, Utsuke, Junocos): seat
// boxes, the trick on the table, a hand whose legal cards alone are playable, score
// tables and the round/match result box.

import { el } from "./components.js";
import { t } from "./i18n.js";
import { CARD_STRINGS } from "./cards_tricks.js";
import { placeLines } from "./tables/round_end.js";

/** Merge several {en, ja} string sets into one (later sets win). */
export function mergeStrings(...sets) {
  const out = { en: {}, ja: {} };
  for (const set of [CARD_STRINGS, SHARED_STRINGS, ...sets]) {
    Object.assign(out.en, set.en);
    Object.assign(out.ja, set.ja);
  }
  return out;
}

/** The seat this browser plays (the first held seat), or null for a spectator. */
export function mySeat(ctx) {
  return ctx.you.length ? ctx.you[0] : null;
}

/** The legal actions of our seat (msgpack may give the map string keys). */
export function legalActions(ctx) {
  const seat = mySeat(ctx);
  if (seat === null) return [];
  const legal = ctx.message.legal || {};
  return legal[seat] || legal[String(seat)] || [];
}

/**
 * A seat's box: name, then `lines` (text or nodes). `turn` outlines it and says so in
 * text; `classes` adds e.g. a team class.
 */
export function seatBox({ seat, label, me = false, turn = false, classes = "", lines = [] }) {
  return el("div", {
    class: `seat tseat${me ? " me" : ""}${turn ? " turn" : ""} ${classes}`.trim(), "data-seat": seat,
  },
  el("div", { class: "name" }, label, turn
    ? el("span", { class: "badge strong turn-mark" }, "▶ ", el("span", { class: "turn-word" }, t("tc_turn"))) : null),
  lines.filter((l) => l !== null && l !== undefined && l !== "").map((l) => el("div", { class: "line" }, l)));
}

/**
 * Cards on the table: entries [{who, card (node), winner, note, seat, cls}] in play order. `title`
 * heads the area; an empty trick shows `empty` instead.
 */
export function trickArea({ id, title, entries, empty = "", footer = null }) {
  return el("section", { class: "trick-area", id, "aria-label": title },
    el("div", { class: "trick-title" }, title),
    entries.length
      ? el("ol", { class: "trick" }, entries.map((e) => el("li", {
        class: `played${e.winner ? " winner" : ""}${e.cls ? " " + e.cls : ""}`, "data-by": e.seat,
      }, e.card, el("span", { class: "who" }, e.who),
      e.winner ? el("span", { class: "badge strong" }, "★ " + t("tc_won")) : null,
      e.note ? el("span", { class: "note" }, e.note) : null)))
      : el("p", { class: "muted" }, empty),
    footer);
}

/**
 * Our hand: `cards` drawn with `draw(card, opts)`; cards in `playable` (a Set) are
 * buttons calling `onPlay(card)`, the rest are shown dimmed and, when `refuse(card)` is
 * given, say why on a tap. With `onPlay` missing (not our move) a tap on any card goes
 * to `refuse` too. `id` names the section (my-hand for the main hand).
 */
export function handRow({ cards, draw, playable, onPlay, keyPrefix, label, extra = null, refuse, id = "my-hand" }) {
  return el("section", { class: "hand-block my-hand", id, "aria-label": label },
    el("div", { class: "row" }, el("strong", {}, label), extra),
    el("div", { class: "hand thand" }, cards.map((card, i) => draw(card, {
      key: `${keyPrefix}-${card}-${i}`,
      onclick: onPlay ? () => onPlay(card) : refuse ? () => refuse(card) : undefined,
      disabled: !onPlay || !playable.has(card),
      refuse: refuse ? () => refuse(card) : undefined,
    }))));
}

/** A small table: caption, header cells, rows of cells. */
export function scoreTable({ id, caption, head, rows, highlight = [] }) {
  return el("table", { class: "scores", id },
    caption ? el("caption", {}, caption) : null,
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((row, r) => el("tr", { class: highlight.includes(r) ? "mine" : "" },
      row.map((cell, c) => (c === 0 ? el("th", { scope: "row" }, cell) : el("td", {}, cell)))))));
}

/** The result of a round (id round-result) or of the match: a title and lines. */
export function resultBox({ id = "round-result", title, lines }) {
  return el("section", { class: "result", id, role: "status" },
    el("strong", {}, title),
    lines.filter(Boolean).map((line) => (line instanceof Node ? line : el("p", {}, line))));
}

/** "1st Aki, 3 points" lines for a finished match, best first (see round_end.js). */
export function placesList(ctx, places, detail) {
  return placeLines(ctx, places, detail);
}

const SHARED_STRINGS = {
  en: {
    tc_turn: "to play",
    tc_won: "won",
    tc_your_hand: "Your hand",
    tc_cards_in_hand: "{n} in hand",
    tc_tricks: "Tricks: {n}",
    tc_trick_now: "This trick",
    tc_last_trick: "Last trick",
    tc_no_cards_yet: "No card played yet.",
    tc_your_turn: "Your turn: play a highlighted card.",
    tc_waiting_for: "Waiting for {who}…",
    tc_waiting_for_you: "Waiting for you…",
    tc_match_over: "Match over",
    tc_round: "Round {n} of {total}",
    tc_total: "Total",
    tc_watching: "You are watching: hands stay hidden.",
  },
  ja: {
    tc_turn: "手番",
    tc_won: "勝ち",
    tc_your_hand: "あなたの手札",
    tc_cards_in_hand: "手札{n}枚",
    tc_tricks: "トリック：{n}",
    tc_trick_now: "この場",
    tc_last_trick: "前のトリック",
    tc_no_cards_yet: "まだ誰も出していません。",
    tc_your_turn: "あなたの番です。明るいカードを出してください。",
    tc_waiting_for: "{who}を待っています…",
    tc_match_over: "対局終了",
    tc_round: "第{n}ラウンド／全{total}",
    tc_total: "合計",
    tc_watching: "観戦中：手札は見えません。",
  },
};
