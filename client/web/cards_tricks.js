// Card faces for the trick-taking tables, drawn in the client: the Unsun pack (Hachinin
// Meri), Utsuke's five colours and the UNO cards of Junocos. Every face carries its rank
// and suit as text and as a shape, and an aria-label naming the card, so colour is never
// the only cue. A face is a <button> when it can be played, else a <span role="img">.

import { el } from "./components.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

function icon(...shapes) {
  return svg("svg", { viewBox: "0 0 20 20", class: "pip", "aria-hidden": "true", focusable: "false" },
    ...shapes);
}

// Unsun suit emblems: baton, sword, cup, coin, tomoe.
const UNSUN_ICONS = {
  P: () => icon(svg("rect", { x: 8, y: 1, width: 4, height: 18, rx: 2 }),
    svg("rect", { x: 6, y: 5, width: 8, height: 2, rx: 1 }), svg("rect", { x: 6, y: 13, width: 8, height: 2, rx: 1 })),
  I: () => icon(svg("polygon", { points: "10,1 12,13 8,13" }), svg("rect", { x: 5, y: 13, width: 10, height: 2, rx: 1 }),
    svg("rect", { x: 9, y: 15, width: 2, height: 4 })),
  K: () => icon(svg("path", { d: "M3 3 H17 Q17 11 10 12 Q3 11 3 3 Z" }), svg("rect", { x: 9, y: 12, width: 2, height: 4 }),
    svg("rect", { x: 5, y: 16, width: 10, height: 2, rx: 1 })),
  O: () => icon(svg("circle", { cx: 10, cy: 10, r: 8 }),
    svg("rect", { x: 7.5, y: 7.5, width: 5, height: 5, class: "hole" })),
  G: () => icon(svg("circle", { cx: 10, cy: 10, r: 8, fill: "none", "stroke-width": 2 }),
    svg("path", { d: "M10 2 A4 4 0 0 1 10 10 A4 4 0 0 0 10 18 A8 8 0 0 1 10 2 Z" })),
};
const UNSUN_COURTS = new Set(["So", "Ka", "Re", "Ro", "Un", "Su"]);

/** Spoken name of an Unsun card such as "GSu" (Guru Sun). */
export function unsunName(code) {
  return t("us_card", { rank: t("us_rank_" + code.slice(1)), suit: t("us_suit_" + code[0]) });
}

/** A card's notes for its label (trump, chip...), the empty ones left out. */
function notes(...parts) {
  return parts.filter(Boolean).join(", ");
}

/**
 * One card face: `classes` colour and shape it, `rank`/`sub` are its printed text,
 * `pip` an emblem, `label` the spoken name. Options: onclick, disabled, key, tag (a
 * small marker such as a trump sign), note (added to the label), term (its glossary
 * entry, which tapping or focusing the card explains; see explain.js).
 */
function face(code, classes, rank, pip, sub, label, opts = {}) {
  // `refuse`: called on a tap of a card that may not be played now (it says why); such a
  // card stays a focusable button marked aria-disabled instead of a dead disabled one.
  const { onclick, disabled = false, key, tag, note, term, refuse } = opts;
  const playable = Boolean(onclick);
  const fullLabel = note ? `${label} — ${note}` : label;
  return el(playable ? "button" : "span", {
    class: `tcard ${classes}${playable && !disabled ? " playable" : ""}`,
    type: playable ? "button" : null,
    role: playable ? null : "img",
    onclick: playable ? (disabled ? refuse || null : onclick) : null,
    disabled: playable && !refuse ? disabled : null,
    "aria-disabled": playable && disabled ? "true" : null,
    "aria-label": fullLabel,
    title: fullLabel,
    tabindex: playable ? null : "0",
    "data-key": key,
    "data-card": code,
    "data-term": term,
  },
  el("span", { class: "rank", "aria-hidden": "true" }, rank),
  pip,
  el("span", { class: "sub", "aria-hidden": "true" }, sub),
  tag ? el("span", { class: "tag", "aria-hidden": "true" }, tag) : null);
}

// The glossary entry of each Unsun rank (the Pao Robai is Tenka).
const UNSUN_TERMS = { So: "sota", Ka: "kaba", Re: "rei", Ro: "robai", Un: "un", Su: "sun" };

/** An Unsun card (Hachinin Meri); `trump` marks it with the trump sign. */
export function unsunCard(code, opts = {}) {
  const suit = code[0];
  const rank = code.slice(1);
  const court = UNSUN_COURTS.has(rank);
  const note = notes(opts.trump ? t("tc_trump") : null, opts.note);
  const term = code === "PRo" ? "tenka" : UNSUN_TERMS[rank] || "numeral";
  return face(code, `unsun suit-${suit}${court ? " court" : ""}${opts.trump ? " trump" : ""}`,
    court ? t("us_short_" + rank) : rank, UNSUN_ICONS[suit](), t("us_suit_short_" + suit),
    unsunName(code), { ...opts, note, term, tag: opts.trump ? t("tc_trump_tag") : null });
}

// The colour decks (Utsuke's five colours, Junocos' four): each colour has its own
// shape as well.
const COLOUR_SHAPES = { R: "●", Y: "▲", G: "■", B: "◆", P: "★" };

/** A card of a colour deck: its colour's shape as the emblem, the short colour name below. */
function colourFace(code, classes, rank, label, opts) {
  const colour = code[0];
  return face(code, classes, rank, el("span", { class: "shape", "aria-hidden": "true" }, COLOUR_SHAPES[colour]),
    t("colour_short_" + colour), label, opts);
}

/** Spoken name of an Utsuke card such as "G7". */
export function utsukeName(code) {
  return t("ut_card", { n: code.slice(1), colour: t("colour_" + code[0]) });
}

/** An Utsuke card; `trump` marks a card of the trump colour, `chip` the chip's card. */
export function utsukeCard(code, opts = {}) {
  const colour = code[0];
  const note = notes(opts.chip ? t("ut_chip_here") : null, opts.trump ? t("tc_trump") : null, opts.note);
  return colourFace(code, `utsuke col-${colour}${opts.trump ? " trump" : ""}${opts.chip ? " chip" : ""}`,
    code.slice(1), utsukeName(code), {
      ...opts, note, term: opts.chip ? "chip" : opts.trump ? "trump" : "card",
      tag: opts.chip ? t("ut_chip_tag") : opts.trump ? t("tc_trump_tag") : null,
    });
}

/** Spoken name of a Junocos (UNO) card such as "R5" or "GS" (green Skip). */
export function unoName(code) {
  const value = code[1] === "S" ? t("uno_skip") : code[1];
  return t("uno_card", { value, colour: t("colour_" + code[0]) });
}

/** A Junocos card; `trumpClass` ('super', 'trump_number', 'trump_suit') marks trumps. */
export function unoCard(code, opts = {}) {
  const colour = code[0];
  const skip = code[1] === "S";
  const trumpClass = opts.trumpClass && opts.trumpClass !== "plain" ? opts.trumpClass : null;
  const note = notes(trumpClass ? t("jc_class_" + trumpClass) : null, opts.note);
  return colourFace(code, `uno col-${colour}${skip ? " skip" : ""}${trumpClass ? " trump" : ""}`,
    skip ? "⊘" : code[1], unoName(code), {
      ...opts, note, term: trumpClass ? trumpClass.replace("_", "-") : skip ? "skip" : "card",
      tag: trumpClass ? t("tc_trump_tag") : null,
    });
}

/** A face-down card; `label` says what it is (a face-down trump, a hidden hand card). */
export function cardBack(label = t("tc_face_down"), key) {
  return el("span", { class: "tcard back", role: "img", "aria-label": label, title: label, "data-key": key });
}

// Texts that read the same in both languages: the Unsun number ranks and the chip mark.
const SAME_IN_BOTH = {
  us_rank_1: "1", us_rank_2: "2", us_rank_3: "3", us_rank_4: "4", us_rank_5: "5",
  us_rank_6: "6", us_rank_7: "7", us_rank_8: "8", us_rank_9: "9",
  ut_chip_tag: "◎",
};

export const CARD_STRINGS = {
  en: {
    ...SAME_IN_BOTH,
    tc_trump: "trump",
    tc_trump_tag: "T",
    tc_face_down: "face-down card",
    us_card: "{suit} {rank}",
    us_suit_P: "Pao (batons)", us_suit_I: "Isu (swords)", us_suit_K: "Koppu (cups)",
    us_suit_O: "Ouru (coins)", us_suit_G: "Guru (tomoe)",
    us_suit_short_P: "Pao", us_suit_short_I: "Isu", us_suit_short_K: "Koppu",
    us_suit_short_O: "Ouru", us_suit_short_G: "Guru",
    us_rank_So: "Sota", us_rank_Ka: "Kaba", us_rank_Re: "Rei", us_rank_Ro: "Robai",
    us_rank_Un: "Un", us_rank_Su: "Sun",
    us_short_So: "So", us_short_Ka: "Ka", us_short_Re: "Re", us_short_Ro: "Ro",
    us_short_Un: "Un", us_short_Su: "Su",
    colour_R: "red", colour_Y: "yellow", colour_G: "green", colour_B: "blue", colour_P: "purple",
    colour_short_R: "Red", colour_short_Y: "Yel", colour_short_G: "Grn", colour_short_B: "Blu",
    colour_short_P: "Pur",
    ut_card: "{colour} {n}",
    ut_chip_here: "under the trump chip",
    uno_card: "{colour} {value}",
    uno_skip: "Skip",
    jc_class_super: "super trump",
    jc_class_trump_number: "trump number",
    jc_class_trump_suit: "trump colour",
  },
  ja: {
    ...SAME_IN_BOTH,
    tc_trump: "切り札",
    tc_trump_tag: "切",
    tc_face_down: "裏向きのカード",
    us_card: "{suit}の{rank}",
    us_suit_P: "パオ（棍棒）", us_suit_I: "イス（剣）", us_suit_K: "コップ（聖杯）",
    us_suit_O: "オウル（貨幣）", us_suit_G: "グル（巴）",
    us_suit_short_P: "パオ", us_suit_short_I: "イス", us_suit_short_K: "コップ",
    us_suit_short_O: "オウル", us_suit_short_G: "グル",
    us_rank_So: "ソータ", us_rank_Ka: "カバ", us_rank_Re: "レイ", us_rank_Ro: "ロバイ",
    us_rank_Un: "ウン", us_rank_Su: "スン",
    us_short_So: "ソ", us_short_Ka: "カ", us_short_Re: "レ", us_short_Ro: "ロ",
    us_short_Un: "ウン", us_short_Su: "スン",
    colour_R: "赤", colour_Y: "黄", colour_G: "緑", colour_B: "青", colour_P: "紫",
    colour_short_R: "赤", colour_short_Y: "黄", colour_short_G: "緑", colour_short_B: "青",
    colour_short_P: "紫",
    ut_card: "{colour}の{n}",
    ut_chip_here: "切り札チップの下",
    uno_card: "{colour}の{value}",
    uno_skip: "スキップ",
    jc_class_super: "最強の切り札",
    jc_class_trump_number: "切り札の数字",
    jc_class_trump_suit: "切り札の色",
  },
};
