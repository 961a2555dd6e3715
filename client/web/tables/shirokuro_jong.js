// The Shirokuro Jong table (RULINGS section 6): the rotation choice, the Dora indicator,
// everyone's discard row and exposed melds, the drawn card inserted at a chosen gap
// either way up (tap a gap or drag the card), discard or Tsumo, the claim prompt after
// each discard (Ron, Pon, Chii, pass) with a countdown in game time, and each round's
// result with every Yaku and its points. Every button comes from the legal moves.

import { el, tableHeader, termAttrs } from "../components.js";
import { t } from "../i18n.js";
import {
  SHIRO_STRINGS, cardRow, drawnPanel, handMoves, handRefusal, handRow, looseName, playerMoves, rotationChoice,
  shiroCard, valueName,
} from "../shirokuro.js";
import { termHelp } from "../explain.js";
import { countdown as timer } from "./countdown.js";
import { dock, motionOf, paint, refuse, seatStrip, statusLine } from "./frame.js";
import { placeLines, roundEnds } from "./round_end.js";
import { actionAttr } from "./suggest.js";

const YAKU = {
  en: {
    "Oya": "Oya", "Tsumo": "Tsumo", "Dora": "Dora", "Chin'itsu": "Chin'itsu", "Tanyao": "Tanyao",
    "Toitoi": "Toitoi", "Haitei": "Haitei", "Houtei": "Houtei", "Iipeikou": "Iipeikou",
    "Ikkitsuukan": "Ikkitsuukan", "Two-Colour Doujun": "Two-Colour Doujun",
    "Two-Colour Doukou": "Two-Colour Doukou", "Suutoitsu": "Suutoitsu", "Tenhou": "Tenhou",
    "Chiihou": "Chiihou", "Renhou": "Renhou",
  },
  ja: {
    "Oya": "親", "Tsumo": "ツモ", "Dora": "ドラ", "Chin'itsu": "清一色", "Tanyao": "断么九",
    "Toitoi": "対々和", "Haitei": "海底", "Houtei": "河底", "Iipeikou": "一盃口",
    "Ikkitsuukan": "一気通貫", "Two-Colour Doujun": "二色同順", "Two-Colour Doukou": "二色同刻",
    "Suutoitsu": "四対子", "Tenhou": "天和", "Chiihou": "地和", "Renhou": "人和",
  },
};

const OWN = {
  en: {
    opt_rotation: "Hand rotation each round",
    opt_rotation_true: "Offered",
    opt_rotation_false: "Off",
    opt_claim_timeout_ms: "Time to claim a discard",
    opt_claim_timeout_ms_0: "Wait for every answer",
    opt_claim_timeout_ms_5000: "5 seconds",
    opt_claim_timeout_ms_10000: "10 seconds",
    opt_claim_timeout_ms_15000: "15 seconds",
    opt_claim_timeout_ms_30000: "30 seconds",
    opt_claim_timeout_ms_60000: "60 seconds",
    opt_dora: "Dora",
    opt_dora_upright_value: "The indicator's white number in white, black number in black",
    opt_dora_either_number: "Either number in either colour",
    opt_yaku_reading: "Reading of Iipeikou and Doujun",
    opt_yaku_reading_usual: "Usual (identical / same-number sequences)",
    opt_yaku_reading_literal: "Literal (any two sequences)",
    opt_min_yaku: "Yaku needed to win",
    opt_min_yaku_0: "None",
    opt_min_yaku_2: "At least 2",
    opt_payments: "Payments between players",
    opt_payments_true: "On",
    opt_payments_false: "Off",
    opt_renchan: "Oya deals again after winning",
    opt_renchan_true: "On",
    opt_renchan_false: "Off",
    sj_round: "Round {n} of {total}",
    sj_oya: "Oya: {who}",
    sj_oya_mark: "Oya",
    sj_turn: "turn",
    sj_awaited: "answering",
    sj_awaited_title: "The table waits for this player's answer to the discard.",
    sj_points: "{n} pts",
    sj_points_one: "1 pt",
    sj_pile: "Draw pile: {n}",
    sj_dora: "Dora indicator",
    sj_dora_later: "Turned up once every player has chosen",
    sj_dora_upright: "Dora: {a} and {b} held upright",
    sj_dora_either: "Dora: any upright {a} or {b}",
    sj_discards: "Discards",
    sj_no_discards: "no discards yet",
    sj_melds: "Exposed",
    sj_your_hand: "Your hand",
    sj_hand_of: "{who}'s hand",
    sj_hand_of_you: "Your hand",
    sj_discard: "Discard",
    sj_tsumo: "Tsumo!",
    sj_pick_discard: "Tap the card to discard.",
    sj_claim_title: "{who} discarded",
    sj_ron: "Ron!",
    sj_pon: "Pon with {a} · {b}",
    sj_chii: "Chii with {a} · {b}",
    sj_pass: "Pass",
    sj_seconds: "{n} s left",
    sj_waiting_answers: "Waiting for the other players to answer…",
    sj_no_deadline: "No time limit: the table waits for every answer.",
    sj_st_rotate: "Choose whether to rotate your hand.",
    sj_st_rotate_wait: "Waiting for everyone to choose whether to rotate…",
    sj_st_discard_me: "Your turn: discard a card.",
    sj_st_tsumo_me: "Your hand is complete: declare Tsumo, or discard.",
    sj_st_insert_me: "Put the card you drew into your hand.",
    sj_st_turn: "{who}'s turn…",
    sj_st_turn_you: "Your turn…",
    sj_st_claim_me: "Claim {card}? {choices} or pass.",
    sj_st_claim_pass: "Nothing to claim on {card}: pass.",
    sj_choice_ron: "Ron",
    sj_choice_pon: "Pon",
    sj_choice_chii: "Chii",
    sj_choice_sep: ", ",
    sj_st_claim: "Claims on {card}…",
    sj_st_round_over: "Round over",
    sj_st_match_over: "Match over",
    sj_result_title: "Round result",
    sj_win_tsumo: "Win by Tsumo: {who}.",
    sj_win_ron: "Win by Ron: {who}, on a discard by {from}.",
    sj_yaku_total: "Total",
    sj_no_yaku: "No yaku: the win scores 0.",
    sj_drawn: "Drawn round: the pile ran out.",
    sj_tenpai: "Tenpai: {who} (+1).",
    sj_no_tenpai: "Nobody was tenpai.",
    sj_delta: "{who}: {d} → {total}",
    sj_next_round: "Next round",
    sj_match_over: "Match over",
    sj_help_name: "Ron, Pon, Chii or pass",
    sj_help_ron: "[Ron](ron): win with this discard, when it completes your hand (it may go anywhere in it, either way up).",
    sj_help_pon: "[Pon](pon): take the discard with the two cards the button names (side by side in your hand, the colour and number of one end of it); the three go face up as a set, you discard without drawing, and play goes on from you.",
    sj_help_chii: "[Chii](chii) (the next player only): take the discard with the two cards the button names (side by side in your hand) to make three numbers in a row in one colour; they go face up, you discard without drawing, and play goes on from you.",
    sj_help_pass: "Pass: leave the discard. If nobody claims it, the next player draws as usual.",
    sj_help_wait_name: "Claim time",
    sj_help_wait: "[Claim time](claim): after every discard the other players answer Ron, Pon, Chii or pass; the table waits for their answers.",
  },
  ja: {
    opt_rotation: "毎ラウンドの手札回転",
    opt_rotation_true: "あり",
    opt_rotation_false: "なし",
    opt_claim_timeout_ms: "鳴き・ロンの受付時間",
    opt_claim_timeout_ms_0: "全員の返事を待つ",
    opt_claim_timeout_ms_5000: "5秒",
    opt_claim_timeout_ms_10000: "10秒",
    opt_claim_timeout_ms_15000: "15秒",
    opt_claim_timeout_ms_30000: "30秒",
    opt_claim_timeout_ms_60000: "60秒",
    opt_dora: "ドラ",
    opt_dora_upright_value: "表示牌の白の数字を白で、黒の数字を黒で",
    opt_dora_either_number: "どちらの数字でも、どちらの色でも",
    opt_yaku_reading: "一盃口・同順の読み方",
    opt_yaku_reading_usual: "通常（同じ順子／同じ数字の順子）",
    opt_yaku_reading_literal: "文字どおり（順子が二つあればよい）",
    opt_min_yaku: "和了に必要な役",
    opt_min_yaku_0: "なし",
    opt_min_yaku_2: "二つ以上",
    opt_payments: "プレイヤー間の支払い",
    opt_payments_true: "あり",
    opt_payments_false: "なし",
    opt_renchan: "親の連荘",
    opt_renchan_true: "あり",
    opt_renchan_false: "なし",
    sj_round: "第{n}局／全{total}局",
    sj_oya: "親：{who}",
    sj_oya_mark: "親",
    sj_turn: "手番",
    sj_awaited: "返答待ち",
    sj_awaited_title: "この捨て牌へのこのプレイヤーの返答を待っています。",
    sj_points: "{n}点",
    sj_points_one: "1点",
    sj_pile: "山札：{n}枚",
    sj_dora: "ドラ表示牌",
    sj_dora_later: "全員が選び終えたら表にします",
    sj_dora_upright: "ドラ：上向きの{a}と{b}",
    sj_dora_either: "ドラ：上向きの{a}か{b}（色は問わない）",
    sj_discards: "捨て牌",
    sj_no_discards: "捨て牌なし",
    sj_melds: "副露",
    sj_your_hand: "あなたの手札",
    sj_hand_of: "{who}の手札",
    sj_discard: "捨てる",
    sj_tsumo: "ツモ！",
    sj_pick_discard: "捨てるカードをタップしてください。",
    sj_claim_title: "{who}の捨て牌",
    sj_ron: "ロン！",
    sj_pon: "ポン（{a}・{b}）",
    sj_chii: "チー（{a}・{b}）",
    sj_pass: "見送る",
    sj_seconds: "残り{n}秒",
    sj_waiting_answers: "ほかのプレイヤーの返事を待っています…",
    sj_no_deadline: "時間制限なし：全員の返事を待ちます。",
    sj_st_rotate: "手札を回転するかどうか選んでください。",
    sj_st_rotate_wait: "全員の回転の選択を待っています…",
    sj_st_discard_me: "あなたの番：カードを一枚捨ててください。",
    sj_st_tsumo_me: "和了の形です。ツモを宣言するか、捨ててください。",
    sj_st_insert_me: "引いたカードを手札に入れてください。",
    sj_st_turn: "{who}の番です…",
    sj_st_claim_me: "{card}をどうしますか？{choices}・見送り。",
    sj_st_claim_pass: "{card}は鳴きもロンもできません。見送ってください。",
    sj_choice_ron: "ロン",
    sj_choice_pon: "ポン",
    sj_choice_chii: "チー",
    sj_choice_sep: "・",
    sj_st_claim: "{card}への鳴きを受付中…",
    sj_st_round_over: "局の終了",
    sj_st_match_over: "対局終了",
    sj_result_title: "局の結果",
    sj_win_tsumo: "{who}のツモ和了。",
    sj_win_ron: "{who}が{from}の捨て牌でロン和了。",
    sj_yaku_total: "合計",
    sj_no_yaku: "役なし：0点の和了です。",
    sj_drawn: "流局：山札が尽きました。",
    sj_tenpai: "{who}は聴牌（+1）。",
    sj_no_tenpai: "聴牌者なし。",
    sj_delta: "{who}：{d} → {total}",
    sj_next_round: "次の局へ",
    sj_match_over: "対局終了",
    sj_help_name: "ロン・ポン・チー・見送り",
    sj_help_ron: "[ロン](ron)：この捨て牌で手札が完成するなら和了れます（捨て牌は手札のどこに、どちら向きに入れてもかまいません）。",
    sj_help_pon: "[ポン](pon)：ボタンに書かれた二枚（手札で隣り合い、捨て牌の片方の端と同じ色・数字）とこの捨て牌を取り、三枚を表向きに並べます。引かずに一枚捨て、あなたから続けます。",
    sj_help_chii: "[チー](chii)（次の人だけ）：ボタンに書かれた二枚（手札で隣り合った二枚）とこの捨て牌で同じ色の連続した三つの数字を作って取り、表向きに並べます。引かずに一枚捨て、あなたから続けます。",
    sj_help_pass: "見送る：この捨て牌を取りません。だれも取らなければ、次の人がいつもどおり引きます。",
    sj_help_wait_name: "受付時間",
    sj_help_wait: "[受付時間](claim)：捨て牌のたびに、ほかの人がロン・ポン・チー・見送りを答えます。卓はその答えを待っています。",
  },
};

export const STRINGS = {
  en: { ...SHIRO_STRINGS.en, ...OWN.en, ...prefixed(YAKU.en) },
  ja: { ...SHIRO_STRINGS.ja, ...OWN.ja, ...prefixed(YAKU.ja) },
};

// The answers to a discard, in the order the prompt offers them.
const CLAIMS = ["ron", "pon", "chii", "pass"];

/** "3 pts" / "1 pt" / "3点". */
function pts(n) {
  return n === 1 ? t("sj_points_one") : t("sj_points", { n });
}

function prefixed(names) {
  return Object.fromEntries(Object.entries(names).map(([k, v]) => ["sj_yaku_" + k, v]));
}

/** One table instance per room page. */
export function create(root) {
  let ctx = null;
  let selected = null; // hand index chosen to discard
  let insertUp = "W";
  let handEl = null;
  const ends = roundEnds(() => draw());

  const view = () => ctx.message.view;
  const { me, legal, find, move } = playerMoves(() => ctx, () => { selected = null; });
  const who = (seat) => ctx.seatLabel(seat);

  function doraBlock(v) {
    if (!v.dora) {  // turned up once every seat has chosen its rotation (RULINGS S14)
      return el("div", { class: "sj-dora", id: "dora" },
        el("span", { class: "label" }, t("sj_dora")), el("span", { class: "muted" }, t("sj_dora_later")));
    }
    const a = valueName(v.dora.slice(0, 2));
    const b = valueName(v.dora.slice(3));
    const either = v.options.dora === "either_number";
    return el("div", { class: "sj-dora", id: "dora" },
      el("span", { class: "label", ...termAttrs("dora-indicator") }, t("sj_dora")),
      shiroCard(v.dora, { loose: true }),
      el("span", termAttrs("dora"), either ? t("sj_dora_either", { a: v.dora[1], b: v.dora[4] }) : t("sj_dora_upright", { a, b })));
  }

  /** Whether the table waits for `seat`'s answer in a claim window, as far as this view
   * can tell. The view does not say who has answered (timing would hint at who had a
   * claim), so every seat but the discarder stays marked until the window closes; only
   * the viewer's own seat loses the mark once its answer is in. */
  function awaited(v, seat) {
    if (v.phase !== "claim" || seat === v.discarder) return false;
    return seat === v.seat ? Boolean(v.waiting_for_me) : true;
  }

  function seatPanel(v, seat) {
    const mine = ctx.you.includes(seat);
    // In a claim window the discarder's turn is over: the answers are what the table awaits.
    const turn = v.turn === seat && !["rotate", "claim", "round_over", "match_over"].includes(v.phase);
    const waiting = awaited(v, seat);
    const melds = v.melds[seat];
    const cls = `seat sj-seat${mine ? " me" : ""}${turn ? " active" : ""}${waiting ? " awaited" : ""}`;
    return el("div", { class: cls, "data-seat": seat },
      el("div", { class: "name" }, who(seat),
        turn ? el("span", { class: "badge strong" }, "▶ " + t("sj_turn")) : null,
        waiting ? el("span", { class: "badge sj-awaited", title: t("sj_awaited_title") }, "◷ " + t("sj_awaited")) : null,
        v.oya === seat ? el("span", { class: "badge", ...termAttrs("oya") }, t("sj_oya_mark")) : null),
      el("div", {}, el("strong", {}, pts(v.scores[seat])), " · ", t("sk_cards", { n: v.hand_sizes[seat] })),
      melds.length ? el("div", { class: "sj-melds", "data-melds": seat },
        el("span", { class: "label" }, t("sj_melds")), melds.map((m) => cardRow(m, { cls: "tiny meld-row" }))) : null,
      el("div", { class: "sj-discards", "data-discards": seat },
        el("span", { class: "label" }, t("sj_discards")),
        v.discards[seat].length
          ? cardRow(v.discards[seat], { loose: true, cls: "tiny" })
          : el("span", { class: "muted" }, t("sj_no_discards"))));
  }

  function insertAt(pos) {
    const action = find((a) => a.type === "insert" && a.index === pos && a.up === insertUp);
    if (action) {
      insertUp = "W";
      move(action);
    }
  }

  function countdown(v) {
    if (v.phase !== "claim") return null;
    if (v.claim_deadline === null || v.claim_deadline === undefined) {
      return el("p", { class: "muted", id: "claim-countdown" }, t("sj_no_deadline"));
    }
    return timer({
      id: "claim-countdown", message: ctx.message, deadline: v.claim_deadline,
      total: v.options.claim_timeout_ms, label: (n) => t("sj_seconds", { n }),
    });
  }

  function claimPrompt(v) {
    if (v.phase !== "claim") return null;
    const acts = legal();
    const hand = v.hand || [];
    const pair = (i) => ({ a: valueName(hand[i].slice(0, 2)), b: valueName(hand[i + 1].slice(0, 2)) });
    const buttons = acts.map((a) => {
      if (a.type === "ron") return el("button", { type: "button", class: "big", id: "claim-ron", "data-key": "claim-ron", onclick: () => move(a), ...actionAttr(a) }, t("sj_ron"));
      if (a.type === "pon" || a.type === "chii") {
        return el("button", {
          type: "button", class: "big", id: `claim-${a.type}-${a.index}`, "data-key": `claim-${a.type}-${a.index}`,
          "data-claim": a.type, onclick: () => move(a), ...actionAttr(a),
        }, t("sj_" + a.type, pair(a.index)));
      }
      return null;
    }).filter(Boolean);
    const pass = acts.find((a) => a.type === "pass");
    if (pass) {
      buttons.push(el("button", {
        type: "button", class: "big ghost", id: "claim-pass", "data-key": "claim-pass", onclick: () => move(pass),
        ...actionAttr(pass),
      }, t("sj_pass")));
    }
    return el("div", { class: "sj-claim", id: "claim-prompt", role: "group", "aria-label": t("sj_claim_title", { who: who(v.discarder) }) },
      el("div", { class: "row" },
        el("span", { class: "label" }, t("sj_claim_title", { who: who(v.discarder) })),
        shiroCard(v.claim_on, { loose: true, attrs: { id: "claim-card" } }),
        claimHelp(acts)),
      countdown(v),
      buttons.length ? el("div", { class: "controls" }, buttons) : el("p", { class: "muted" }, t("sj_waiting_answers")));
  }

  /** The prompt's "?": one sentence for each answer on offer (or what the wait is). */
  function claimHelp(acts) {
    const offered = CLAIMS.filter((kind) => acts.some((a) => a.type === kind));
    if (!offered.length) {
      return termHelp({ key: "help-claims", term: "claim", name: t("sj_help_wait_name"), lines: [t("sj_help_wait")] });
    }
    return termHelp({
      key: "help-claims", term: offered[0] === "pass" ? "claim" : offered[0], name: t("sj_help_name"),
      lines: offered.map((kind) => t("sj_help_" + kind)),
    });
  }

  function myArea(v) {
    const seat = me();
    if (seat === undefined || !v.hand) return null;
    const acts = legal();
    const { inserting, discards, canDiscard, rotating } = handMoves(acts, v.drawn, "index");
    if (selected !== null && !canDiscard(selected)) selected = null;
    // In a claim window, outline the pairs a Pon or Chii would expose.
    const pairs = acts.filter((a) => a.type === "pon" || a.type === "chii").map((a) => [a.index, a.index + 2]);
    const hand = handRow({
      cards: v.hand, seat, selected, melds: pairs,
      selectable: canDiscard,
      onSelect: discards.length ? (i) => { selected = selected === i ? null : i; draw(); } : undefined,
      onGap: inserting ? insertAt : undefined,
      refuse: () => refuse(handRefusal(acts, ctx.you.includes(v.turn) || v.phase === "claim" ? null : who(v.turn))),
    });
    handEl = hand;
    const tsumo = acts.find((a) => a.type === "tsumo");
    const buttons = [];
    if (tsumo) {
      buttons.push(el("button", { type: "button", class: "big", id: "tsumo", "data-key": "tsumo", onclick: () => move(tsumo), ...actionAttr(tsumo) }, t("sj_tsumo")));
    }
    if (discards.length) {
      buttons.push(el("button", {
        type: "button", class: "big", id: "discard", "data-key": "discard", disabled: selected === null,
        onclick: () => { const a = discards.find((d) => d.index === selected); if (a) move(a); },
      }, t("sj_discard")));
    }
    return el("div", { class: "hand-block sk-mine", id: "my-hand" },
      el("strong", { class: "hand-label" }, t("sj_your_hand")),
      inserting ? drawnPanel({
        drawn: v.drawn, up: insertUp, getHand: () => handEl, onDrop: insertAt,
        onFlip: () => { insertUp = insertUp === "W" ? "B" : "W"; draw(); },
      }) : null,
      hand,
      v.melds[seat].length ? el("div", { class: "sj-melds" }, el("span", { class: "label" }, t("sj_melds")),
        v.melds[seat].map((m) => cardRow(m, { cls: "meld-row" }))) : null,
      rotating || v.phase === "rotate" ? rotationChoice({
        hand: v.hand, canChoose: rotating, chosen: v.rotation,
        onChoose: (flip) => move({ type: "rotate", flip }),
      }) : null,
      discards.length ? el("p", { class: "muted" }, t("sj_pick_discard")) : null,
      buttons.length ? el("div", { class: "controls" }, buttons) : null);
  }

  /** The claim line for this seat: only the claims its legal moves offer, in priority order. */
  function claimText(v, acts) {
    const card = looseName(v.claim_on);
    if (!acts.length) return t("sj_st_claim", { card });
    const offered = ["ron", "pon", "chii"].filter((kind) => acts.some((a) => a.type === kind));
    if (!offered.length) return t("sj_st_claim_pass", { card });
    const choices = offered.map((kind) => t("sj_choice_" + kind)).join(t("sj_choice_sep"));
    return t("sj_st_claim_me", { card, choices });
  }

  function statusText(v) {
    const acts = legal();
    switch (v.phase) {
      case "rotate":
        return acts.some((a) => a.type === "rotate") ? t("sj_st_rotate") : t("sj_st_rotate_wait");
      case "claim":
        return claimText(v, acts);
      case "round_over":
      case "match_over":
        return t("sj_st_" + v.phase);
      default:
        if (!ctx.you.includes(v.turn)) return t("sj_st_turn", { who: who(v.turn) });
        if (v.phase === "insert") return t("sj_st_insert_me");
        return acts.some((a) => a.type === "tsumo") ? t("sj_st_tsumo_me") : t("sj_st_discard_me");
    }
  }

  function winnerBlock(w, from) {
    return el("div", { class: "sk-result-row", "data-result-seat": w.seat },
      el("p", { class: "sk-explain" }, w.by === "tsumo" ? t("sj_win_tsumo", { who: who(w.seat) })
        : t("sj_win_ron", { who: who(w.seat), from: who(from) })),
      cardRow(w.hand),
      w.melds.length ? el("div", { class: "sj-melds" }, el("span", { class: "label" }, t("sj_melds")),
        w.melds.map((m) => cardRow(m, { cls: "meld-row" }))) : null,
      w.yaku.length
        ? el("table", { class: "sj-yaku" },
          w.yaku.map(([name, points]) => el("tr", { "data-yaku": name },
            el("th", termAttrs("yaku-" + name.toLowerCase().replace(/[^a-z0-9]+/g, "-")), t("sj_yaku_" + name)),
            el("td", {}, pts(points)))),
          el("tr", { class: "total" }, el("th", {}, t("sj_yaku_total")), el("td", {}, pts(w.points))))
        : el("p", {}, t("sj_no_yaku")));
  }

  /** The round-end screen: the round's (or match's) result; the round waits for "next". */
  function resultBlock(v) {
    const r = v.result;
    if (!r || !["round_over", "match_over"].includes(v.phase)) return ends.show({ key: null });
    const body = r.kind === "win"
      ? r.winners.map((w) => winnerBlock(w, r.from))
      : [el("p", { class: "sk-explain" }, t("sj_drawn")),
        r.tenpai.length ? null : el("p", {}, t("sj_no_tenpai")),
        ...r.tenpai.map((h) => el("div", { class: "sk-result-row", "data-result-seat": h.seat },
          el("p", {}, t("sj_tenpai", { who: who(h.seat) })), cardRow(h.hand),
          h.melds.map((m) => cardRow(m, { cls: "meld-row" }))))];
    const deltas = el("ul", { class: "sj-deltas" }, r.deltas.map((d, seat) => el("li", {},
      t("sj_delta", { who: who(seat), d: d >= 0 ? `+${d}` : String(d), total: v.scores[seat] }))));
    const outcome = ctx.message.outcome;
    return ends.show({
      key: `${v.phase}-${v.round}-${v.hand_no}`,
      title: v.phase === "match_over" ? t("sj_match_over") : t("sj_result_title"),
      waitingFor: v.phase === "round_over" ? (v.next_pending || []).filter((s) => !ctx.you.includes(s)).map(who) : null,
      waitsForMe: Boolean(find((a) => a.type === "next")),
      waitAll: true,
      body: [
        outcome ? placeLines(ctx, outcome.places, (seat) => pts(outcome.scores[seat])) : null,
        deltas, ...body,
      ],
    });
  }

  function nextButton() {
    const next = find((a) => a.type === "next");
    if (!next) return null;
    return el("div", { class: "controls" }, el("button", {
      type: "button", class: "big", id: "next-round", "data-key": "next-round", "data-focus-first": "",
      onclick: () => move(next), ...actionAttr(next),
    }, t("sj_next_round")));
  }

  function draw() {
    if (!ctx) return;
    const v = view();
    if (v.phase !== "insert") insertUp = "W";
    const result = resultBlock(v);
    paint(root,
      el("div", { class: "table sk-table", "data-phase": v.phase, "data-game": "shirokuro_jong" },
        result.top,
        tableHeader(ctx, [
          el("span", { class: "badge", id: "round-badge" }, t("sj_round", { n: v.round, total: v.rounds })),
          t("sj_oya", { who: who(v.oya) }),
          el("span", { class: "badge", id: "pile-count" }, t("sj_pile", { n: v.pile })),
        ]),
        el("div", { class: "sk-piles" }, doraBlock(v)),
        // Every seat's discards and melds, always in sight: the heart of the game.
        seatStrip(v.scores.map((_, seat) => seatPanel(v, seat)), { cls: "sj-ponds" }),
        dock(statusLine(statusText(v)), claimPrompt(v), myArea(v), nextButton()),
        result.below), motionOf(ctx.message));
  }

  return {
    render(context) {
      ctx = context;
      draw();
    },
    destroy() {},
  };
}
