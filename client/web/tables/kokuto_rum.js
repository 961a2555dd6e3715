// The Kokuto Rum table (RULINGS section 5): the secret rotation choice, draw from the
// pile or the discard pile, insert the drawn card at a chosen gap either way up (tap a
// gap or drag the card), discard, knock, and the end of each round with the melds
// outlined and the victory points explained. Every button comes from the legal moves.
//
// The engine deals the next round as soon as one ends, so the result of the round just
// played (view.last_round) is shown on top of the next round's table for a while (the
// round-end screen's countdown, Keep open, Close); it stays available below afterwards.

import { el, tableHeader, termAttrs } from "../components.js";
import { t } from "../i18n.js";
import {
  SHIRO_STRINGS, cardRow, drawnPanel, flipText, handMoves, handRefusal, handRow, playerMoves, rotationChoice,
  shiroBack, shiroCard, valueName,
} from "../shirokuro.js";
import { dock, motionOf, paint, refuse, seatStrip, statusLine } from "./frame.js";
import { placeLines, roundEnds, winnersLine } from "./round_end.js";
import { actionAttr } from "./suggest.js";

const OWN = {
  en: {
    opt_deck: "Deck",
    opt_deck_A: "A: every white/black pair once",
    opt_deck_B: "B: six cards with white + black = 7, five of each",
    opt_first_dealer: "First dealer",
    opt_first_dealer_random: "Random",
    opt_first_dealer_0: "Seat 1",
    opt_first_dealer_1: "Seat 2",
    opt_first_dealer_2: "Seat 3",
    opt_discard_taken_card: "Discarding the card just taken",
    opt_discard_taken_card_true: "Allowed",
    opt_discard_taken_card_false: "Not allowed",
    opt_knock_before_discard: "Knocking before discarding",
    opt_knock_before_discard_true: "Allowed (9-card hand scored)",
    opt_knock_before_discard_false: "Discard first, then knock",
    opt_physical_fidelity: "Show where cards went into or left hands",
    opt_physical_fidelity_true: "Yes",
    opt_physical_fidelity_false: "No",
    kr_round: "Round {n}",
    kr_dealer: "Dealer: {who}",
    kr_target: "First to {n} VP",
    kr_vp: "VP {n}",
    kr_turn: "turn",
    kr_dealer_mark: "dealer",
    kr_known: "Known: ",
    kr_pile: "Draw pile",
    kr_pile_count: "{n} left",
    kr_discards: "Discard pile",
    kr_discards_empty: "empty",
    kr_discards_later: "Turned up once every player has chosen",
    kr_draw_pile: "Draw from the pile ({n})",
    kr_take_discard: "Take the top discard",
    kr_history: "Discarded so far",
    kr_your_hand: "Your hand",
    kr_hand_of: "{who}'s hand",
    kr_hand_of_you: "Your hand",
    kr_score_now: "Your hand scores {n} now (melds outlined).",
    kr_discard: "Discard",
    kr_discard_knock: "Discard and knock",
    kr_knock: "Knock now (score 9 cards)",
    kr_pick_discard: "Tap the card to discard.",
    kr_taken_rule: "The card you just took may not be discarded.",
    kr_st_rotate: "Choose whether to rotate your hand.",
    kr_st_rotate_wait: "Waiting for everyone to choose whether to rotate…",
    kr_st_draw_me: "Your turn: draw from the pile or take the top discard.",
    kr_st_insert_me: "Put the card you drew into your hand.",
    kr_st_discard_me: "Discard a card, or knock.",
    kr_st_draw: "{who} is drawing…",
    kr_st_draw_you: "You are drawing…",
    kr_st_insert: "{who} is placing a card…",
    kr_st_insert_you: "You are placing a card…",
    kr_st_discard: "{who} is discarding…",
    kr_st_discard_you: "You are discarding…",
    kr_st_over: "Match over",
    kr_result_title: "Round {n} result",
    kr_reason_knock: "{who} knocked.",
    kr_reason_pile_out: "The draw pile ran out with no knock.",
    kr_score_rule: "A hand scores the sum of its upright numbers outside melds (sets of 3–5 equal cards; runs of 3 or more of one colour going up or down by 1).",
    kr_kokuto: "Kokuto! {who} scored 0, worth the lowest other score {m} + 5 = {g} VP.",
    kr_knock_win: "{who} scored {s}, the lowest other score is {m}: {m} − {s} = {g} VP to {who}.",
    kr_knock_win_you: "You scored {s}, the lowest other score is {m}: {m} − {s} = {g} VP to you.",
    kr_underknock: "Underknock! {who} scored {s}, above the lowest score {m}: {s} − {m} + 5 = {g} VP each to {others}.",
    kr_pile_out: "Lowest score {m}: 5 VP each to {who}.",
    kr_pile_out_you: "Lowest score {m}: 5 VP to you.",
    kr_row_score: "score {s}",
    kr_row_gain: "+{g} VP → {vp} VP",
    kr_melds_none: "no melds",
    kr_melds: "Melds: ",
    kr_set: "set {cards}",
    kr_run: "run {cards}",
    kr_list_sep: "; ",
    kr_match_over: "Match over",
    kr_and: " and ",
  },
  ja: {
    opt_deck: "デッキ",
    opt_deck_A: "A：白黒の組み合わせを一枚ずつ",
    opt_deck_B: "B：白＋黒＝7の六種を五枚ずつ",
    opt_first_dealer: "最初の親",
    opt_first_dealer_random: "ランダム",
    opt_first_dealer_0: "1番席",
    opt_first_dealer_1: "2番席",
    opt_first_dealer_2: "3番席",
    opt_discard_taken_card: "取ったばかりの捨て札を捨てる",
    opt_discard_taken_card_true: "できる",
    opt_discard_taken_card_false: "できない",
    opt_knock_before_discard: "捨てる前のノック",
    opt_knock_before_discard_true: "できる（9枚で計算）",
    opt_knock_before_discard_false: "捨ててからノック",
    opt_physical_fidelity: "手札のどこに出し入れしたかを見せる",
    opt_physical_fidelity_true: "見せる",
    opt_physical_fidelity_false: "見せない",
    kr_round: "第{n}ラウンド",
    kr_dealer: "親：{who}",
    kr_target: "{n}VP先取",
    kr_vp: "{n}VP",
    kr_turn: "手番",
    kr_dealer_mark: "親",
    kr_known: "判明：",
    kr_pile: "山札",
    kr_pile_count: "残り{n}枚",
    kr_discards: "捨て札",
    kr_discards_empty: "なし",
    kr_discards_later: "全員が選び終えたら表にします",
    kr_draw_pile: "山札から引く（{n}）",
    kr_take_discard: "捨て札を取る",
    kr_history: "これまでの捨て札",
    kr_your_hand: "あなたの手札",
    kr_hand_of: "{who}の手札",
    kr_score_now: "今の手札の点数：{n}（役は枠で表示）",
    kr_discard: "捨てる",
    kr_discard_knock: "捨ててノック",
    kr_knock: "今すぐノック（9枚で計算）",
    kr_pick_discard: "捨てるカードをタップしてください。",
    kr_taken_rule: "取ったばかりのカードは捨てられません。",
    kr_st_rotate: "手札を回転するかどうか選んでください。",
    kr_st_rotate_wait: "全員の回転の選択を待っています…",
    kr_st_draw_me: "あなたの番：山札から引くか、捨て札を取ってください。",
    kr_st_insert_me: "引いたカードを手札に入れてください。",
    kr_st_discard_me: "カードを一枚捨てるか、ノックしてください。",
    kr_st_draw: "{who}が引いています…",
    kr_st_insert: "{who}がカードを入れています…",
    kr_st_discard: "{who}が捨てています…",
    kr_st_over: "対局終了",
    kr_result_title: "第{n}ラウンドの結果",
    kr_reason_knock: "{who}がノックしました。",
    kr_reason_pile_out: "ノックなしで山札が尽きました。",
    kr_score_rule: "手札の点数は、役（同じカード3～5枚のセット、同じ色で1ずつ上がるか下がる3枚以上の並び）に入らないカードの上向きの数字の合計です。",
    kr_kokuto: "黒糖！{who}は0点：ほかの最低点{m}＋5＝{g}VPを獲得。",
    kr_knock_win: "{who}は{s}点、ほかの最低点は{m}点：{who}が{m}－{s}＝{g}VPを獲得。",
    kr_underknock: "アンダーノック！{who}は{s}点、{others}は{m}点：{others}が{s}－{m}＋5＝{g}VPを獲得。",
    kr_pile_out: "最低点{m}：{who}が5VPを獲得。",
    kr_row_score: "{s}点",
    kr_row_gain: "+{g}VP → 計{vp}VP",
    kr_melds_none: "役なし",
    kr_melds: "役：",
    kr_set: "セット {cards}",
    kr_run: "並び {cards}",
    kr_list_sep: "、",
    kr_match_over: "対局終了",
    kr_and: "と",
  },
};

export const STRINGS = {
  en: { ...SHIRO_STRINGS.en, ...OWN.en },
  ja: { ...SHIRO_STRINGS.ja, ...OWN.ja },
};

const MAX_SET = 5;
const MIN_MELD = 3;

/** The least score of a hand of held texts and its melds as [start, end) blocks (scoring.py). */
export function bestMelds(cards) {
  const hand = cards.map((c) => [c[0], Number(c[1])]);
  const n = hand.length;
  const best = new Array(n + 1).fill(0);
  const back = new Array(n + 1).fill(-1);
  let same = 0;
  let up = 0;
  let down = 0;
  for (let i = 1; i <= n; i++) {
    const [colour, number] = hand[i - 1];
    if (i >= 2 && hand[i - 2][0] === colour) {
      const prev = hand[i - 2][1];
      same = prev === number ? same + 1 : 1;
      up = number === prev + 1 ? up + 1 : 1;
      down = number === prev - 1 ? down + 1 : 1;
    } else {
      same = up = down = 1;
    }
    best[i] = best[i - 1] + number;
    back[i] = -1;
    const longest = Math.max(Math.min(same, MAX_SET), up, down);
    for (let length = MIN_MELD; length <= longest; length++) {
      const fits = length <= Math.min(same, MAX_SET) || length <= up || length <= down;
      if (fits && best[i - length] < best[i]) {
        best[i] = best[i - length];
        back[i] = i - length;
      }
    }
  }
  const melds = [];
  for (let i = n; i > 0;) {
    if (back[i] < 0) i -= 1;
    else {
      melds.push([back[i], i]);
      i = back[i];
    }
  }
  return { score: best[n], melds: melds.reverse() };
}

/** One table instance per room page. */
export function create(root) {
  let ctx = null;
  let selected = null; // hand index chosen to discard
  let insertUp = "W"; // which end of the drawn card goes up
  const ends = roundEnds(() => draw());
  let handEl = null;

  const view = () => ctx.message.view;
  const { me, legal, find, move } = playerMoves(() => ctx, () => { selected = null; });
  const who = (seat) => ctx.seatLabel(seat);
  const list = (seats) => seats.map(who).join(t("kr_and"));

  function otherCards(v, seat) {
    const known = v.known[seat] || [];
    if (v.options.physical_fidelity) {
      return known.map((c) => (c ? shiroCard(c, { loose: true }) : shiroBack()));
    }
    const backs = Array.from({ length: v.hand_sizes[seat] - known.length }, shiroBack);
    return [...known.map((c) => shiroCard(c, { loose: true })), ...backs];
  }

  function seatPanel(v, seat) {
    const mine = ctx.you.includes(seat);
    const turn = v.turn === seat;
    return el("div", { class: `seat${mine ? " me" : ""}${turn ? " active" : ""}`, "data-seat": seat },
      el("div", { class: "name" }, who(seat),
        turn ? el("span", { class: "badge strong" }, "▶ " + t("kr_turn")) : null,
        v.dealer === seat ? el("span", { class: "badge", ...termAttrs("dealer") }, t("kr_dealer_mark")) : null),
      el("div", {}, el("strong", termAttrs("vp"), t("kr_vp", { n: v.vp[seat] })), " · ", t("sk_cards", { n: v.hand_sizes[seat] }),
        v.phase === "rotate"
          ? el("span", { class: "badge" }, v.rotation_chosen[seat] ? "● " + t("sk_chosen") : "○ " + t("sk_choosing"))
          : null),
      mine ? null : el("div", { class: "sk-row tiny", "aria-label": t("kr_hand_of", { who: who(seat) }) },
        otherCards(v, seat)));
  }

  function piles(v) {
    const top = v.discards.length ? v.discards[v.discards.length - 1] : null;
    const pending = v.phase === "insert" && v.drawn_from ? v.drawn_from : null;
    return el("div", { class: "sk-piles" },
      el("div", { class: "sk-pile" },
        el("span", { class: "label" }, t("kr_pile")),
        el("span", { class: `sk-card back${pending === "pile" ? " lifted" : ""}`, role: "img", "aria-label": t("kr_pile") }),
        el("span", { id: "pile-count" }, t("kr_pile_count", { n: v.pile_count }))),
      el("div", { class: "sk-pile" },
        el("span", { class: "label" }, t("kr_discards")),
        top ? shiroCard(top, { loose: true, attrs: { id: "discard-top" } })
          // RULINGS K10: the first discard is turned up once every seat has chosen its rotation.
          : v.phase === "rotate" ? el("span", { class: "muted pile-note", id: "discard-later" }, t("kr_discards_later"))
            : el("span", { class: "sk-card empty" }, t("kr_discards_empty"))),
      v.discards.length > 1 ? el("details", { class: "sk-history" },
        el("summary", {}, t("kr_history")), cardRow(v.discards.slice(0, -1), { loose: true, cls: "tiny" })) : null);
  }

  /** The draw moves, for the dock. */
  function drawButtons(v) {
    const drawPile = find((a) => a.type === "draw" && a.from === "pile");
    const takeDiscard = find((a) => a.type === "draw" && a.from === "discard");
    if (!drawPile && !takeDiscard) return null;
    return el("div", { class: "controls" },
      drawPile ? el("button", {
        type: "button", class: "big", id: "draw-pile", "data-key": "draw-pile", onclick: () => move(drawPile),
        ...actionAttr(drawPile),
      }, t("kr_draw_pile", { n: v.pile_count })) : null,
      takeDiscard ? el("button", {
        type: "button", class: "big", id: "take-discard", "data-key": "take-discard", onclick: () => move(takeDiscard),
        ...actionAttr(takeDiscard),
      }, t("kr_take_discard")) : null);
  }

  function insertAt(pos) {
    const v = view();
    const card = insertUp === "W" ? v.drawn : flipText(v.drawn);
    const action = find((a) => a.type === "insert" && a.pos === pos && a.card === card);
    if (action) {
      insertUp = "W";
      move(action);
    }
  }

  function myArea(v) {
    const seat = me();
    if (seat === undefined || !v.hand) return null;
    const acts = legal();
    const { inserting, discards, canDiscard, rotating } = handMoves(acts, v.drawn, "pos");
    if (selected !== null && !canDiscard(selected)) selected = null;
    const { melds } = bestMelds(v.hand);
    const hand = handRow({
      cards: v.hand, seat, selected, melds,
      selectable: canDiscard,
      onSelect: discards.length ? (i) => { selected = selected === i ? null : i; draw(); } : undefined,
      onGap: inserting ? insertAt : undefined,
      refuse: () => refuse(handRefusal(acts, ctx.you.includes(v.turn) ? null : who(v.turn))),
    });
    handEl = hand;
    const pick = (knock) => discards.find((a) => a.pos === selected && a.knock === knock);
    const knock = acts.find((a) => a.type === "knock");
    const buttons = [];
    if (discards.length) {
      buttons.push(el("button", {
        type: "button", class: "big", id: "discard", "data-key": "discard", disabled: selected === null,
        onclick: () => pick(false) && move(pick(false)),
      }, t("kr_discard")));
      buttons.push(el("button", {
        type: "button", class: "big", id: "discard-knock", "data-key": "discard-knock", disabled: selected === null,
        onclick: () => pick(true) && move(pick(true)),
      }, t("kr_discard_knock")));
    }
    if (knock) {
      buttons.push(el("button", {
        type: "button", class: "big ghost", id: "knock", "data-key": "knock", onclick: () => move(knock),
        ...actionAttr(knock),
      }, t("kr_knock")));
    }
    // Discards come in pairs (with and without knock): a missing pair is the taken card.
    const takenBlocked = discards.length > 0 && discards.length < 2 * v.hand.length;
    return el("div", { class: "hand-block sk-mine", id: "my-hand" },
      el("strong", { class: "hand-label" }, t("kr_your_hand")),
      inserting ? drawnPanel({
        drawn: v.drawn, up: insertUp, getHand: () => handEl, onDrop: insertAt,
        onFlip: () => { insertUp = insertUp === "W" ? "B" : "W"; draw(); },
      }) : null,
      hand,
      rotating || v.phase === "rotate" ? rotationChoice({
        hand: v.hand, canChoose: rotating, chosen: v.rotation,
        onChoose: (flip) => move({ type: "rotate", flip }),
      }) : null,
      el("p", { class: "muted", id: "hand-score" }, t("kr_score_now", { n: v.score }),
        discards.length ? " " + t("kr_pick_discard") : "", takenBlocked ? " " + t("kr_taken_rule") : ""),
      buttons.length ? el("div", { class: "controls" }, buttons) : null);
  }

  function statusText(v) {
    const mine = ctx.you.includes(v.turn);
    if (v.phase === "over") return t("kr_st_over");
    if (v.phase === "rotate") {
      return legal().some((a) => a.type === "rotate") ? t("kr_st_rotate") : t("kr_st_rotate_wait");
    }
    if (mine) return t(`kr_st_${v.phase}_me`);
    return t(`kr_st_${v.phase}`, { who: who(v.turn) });
  }

  function explain(r) {
    const seats = r.scores.map((_, i) => i);
    if (r.reason === "pile_out") {
      const m = Math.min(...r.scores);
      return [t("kr_reason_pile_out"),
        t("kr_pile_out", { m, who: list(seats.filter((s) => r.scores[s] === m)) })];
    }
    const k = r.knocker;
    const s = r.scores[k];
    const m = Math.min(...seats.filter((i) => i !== k).map((i) => r.scores[i]));
    const lines = [t("kr_reason_knock", { who: who(k) })];
    if (s === 0) lines.push(t("kr_kokuto", { who: who(k), m, g: r.gains[k] }));
    else if (s <= m) lines.push(t("kr_knock_win", { who: who(k), s, m, g: r.gains[k] }));
    else {
      const low = seats.filter((i) => i !== k && r.scores[i] === m);
      lines.push(t("kr_underknock", { who: who(k), others: list(low), s, m, g: r.gains[low[0]] }));
    }
    return lines;
  }

  function meldText(hand, melds) {
    if (!melds.length) return t("kr_melds_none");
    return t("kr_melds") + melds.map(([a, b]) => {
      const cards = hand.slice(a, b);
      const kind = cards.every((c) => c.slice(0, 2) === cards[0].slice(0, 2)) ? "kr_set" : "kr_run";
      return t(kind, { cards: cards.map((c) => valueName(c.slice(0, 2))).join("・") });
    }).join(t("kr_list_sep"));
  }

  function resultBody(r) {
    return [
      ...explain(r).map((line) => el("p", { class: "sk-explain" }, line)),
      el("div", { class: "sk-results" }, r.hands.map((hand, seat) => el("div", {
        class: `sk-result-row${seat === r.knocker ? " knocker" : ""}`, "data-result-seat": seat,
      },
      el("div", { class: "row" }, el("strong", {}, who(seat)),
        el("span", { class: "badge" }, t("kr_row_score", { s: r.scores[seat] })),
        el("span", { class: `badge${r.gains[seat] ? " strong" : ""}` },
          t("kr_row_gain", { g: r.gains[seat], vp: r.vp[seat] })),
        el("span", { class: "muted" }, meldText(hand, r.melds[seat]))),
      cardRow(hand, { melds: r.melds[seat] })))),
      el("p", { class: "muted" }, t("kr_score_rule")),
    ];
  }

  function outcomeBlock() {
    const outcome = ctx.message.outcome;
    if (!outcome) return null;
    return el("div", { id: "match-result" },
      el("p", {}, winnersLine(ctx, outcome.winners)),
      placeLines(ctx, outcome.places, (seat) => t("kr_vp", { n: outcome.vp[seat] })));
  }

  /** The round-end screen: the last round's result on top of the next round's table. */
  function result(v) {
    const r = v.last_round;
    if (!r || !(v.phase === "over" || r.round === v.round - 1)) return ends.show({ key: null });
    return ends.show({
      key: v.phase === "over" ? "over" : "round-" + r.round,
      title: v.phase === "over" ? t("kr_match_over") : t("kr_result_title", { n: r.round }),
      auto: v.phase !== "over",
      body: [outcomeBlock(), ...resultBody(r)],
    });
  }

  function draw() {
    if (!ctx) return;
    const v = view();
    if (v.phase !== "insert") insertUp = "W";
    const res = result(v);
    paint(root,
      el("div", { class: "table sk-table", "data-phase": v.phase, "data-game": "kokuto_rum" },
        res.top,
        tableHeader(ctx, [
          el("span", { class: "badge", id: "round-badge" }, t("kr_round", { n: v.round })),
          t("kr_dealer", { who: who(v.dealer) }),
          t("kr_target", { n: v.target }),
        ]),
        seatStrip(v.vp.map((_, seat) => seatPanel(v, seat))),
        piles(v),
        dock(statusLine(statusText(v)), drawButtons(v), myArea(v)),
        res.below), motionOf(ctx.message));
  }

  return {
    render(context) {
      ctx = context;
      draw();
    },
    destroy() {},
  };
}
