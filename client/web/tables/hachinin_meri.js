// The Hachinin Meri table (RULINGS section 2): eight seats in two alternating teams, the
// Okie and trump suit, the declare/pass round, the Okie discard, trick play with trumps
// face down on plain leads, Meri/Monchi, combinations and scores over eight deals.

import { el, tableHeader, termAttrs } from "../components.js";
import { t } from "../i18n.js";
import { cardBack, unsunCard, unsunName } from "../cards_tricks.js";
import {
  handRow, legalActions, mergeStrings, mySeat, placesList, scoreTable, seatBox,
  trickArea,
} from "../tricks.js";
import { termHelp } from "../explain.js";
import { countdown } from "./countdown.js";
import { dock, fold, motionOf, paint, refuse, seatStrip, statusLine } from "./frame.js";
import { roundEnds } from "./round_end.js";
import { actionAttr } from "./suggest.js";

const TEAM_MARK = ["◆", "●"];

/** One table instance per room page. */
export function create(root) {
  let ctx = null;
  const combosByDeal = new Map(); // deal number -> combination records seen in that deal
  const ends = roundEnds(() => draw());

  const isTrump = (trump, code) => code[0] === trump || code === "PRo";
  const team = (seat) => seat % 2;
  const teamName = (side) => t("hm_team_" + side);
  const teamTag = (side) => `${TEAM_MARK[side]} ${teamName(side)}`;

  function card(view, code, opts = {}) {
    return unsunCard(code, { ...opts, trump: isTrump(view.trump, code) });
  }

  function seatPanel(view, seat) {
    const me = ctx.you.includes(seat);
    const answer = view.answers.find((a) => a[0] === seat);
    const won = view.tricks.filter((r) => r.winner === seat).length;
    const turn = (view.phase === "play" && view.turn === seat)
      || (view.phase === "declare" && view.asking === seat)
      || (view.phase === "discard" && view.recipient === seat);
    return seatBox({
      seat, me, turn, label: ctx.seatLabel(seat), classes: `team-${team(seat)}`,
      lines: [
        // The team's mark shows; its name is read out (and shown on a wide screen).
        el("span", { class: "badge team-badge" }, TEAM_MARK[team(seat)], el("span", { class: "team-name" }, " " + teamName(team(seat)))),
        seat === view.dealer ? el("span", { class: "badge", ...termAttrs("dealer") }, t("hm_dealer")) : null,
        seat === view.recipient ? el("span", { class: "badge strong" }, t("hm_has_okie")) : null,
        // The answers matter while they are given (and the Okie is taken): not in play.
        answer && view.phase !== "play" ? el("span", { class: "badge" }, t("hm_answer_" + answer[1])) : null,
        t("hm_seat_counts", { n: view.hand_counts[seat], k: won }),
      ],
    });
  }

  function phaseText(view) {
    if (view.phase === "declare" || view.phase === "discard") return t("hm_phase_declare");
    return view.monchi ? t("hm_monchi") : t("hm_before_meri");
  }

  function okieBox(view) {
    const declared = view.recipient === null ? ""
      : view.robai_declared ? t("hm_declared_by", { who: ctx.seatLabel(view.recipient) })
        : t("hm_not_declared");
    return el("div", { class: "okie", id: "okie" },
      el("div", {}, el("span", { class: "label", ...termAttrs("okie") }, t("hm_okie")), card(view, view.okie)),
      el("div", {},
        el("div", { id: "trump-suit", ...termAttrs("trump-suit") }, t("hm_trump_suit", { suit: t("us_suit_" + view.trump) })),
        el("div", { class: "muted" }, t("hm_trump_note")),
        el("div", { id: "meri-state" }, el("strong", {}, phaseText(view)), " ", termHelp({
          key: "help-meri", term: view.monchi ? "monchi" : "meri", name: t("hm_help_name"),
          lines: [t("hm_help_before_meri"), t("hm_help_meri"), t("hm_help_monchi")],
        })),
        declared ? el("div", {}, declared) : null));
  }

  function statusText(view, me) {
    if (view.phase === "over") return t("tc_match_over");
    if (view.phase === "declare") {
      return view.asking === me ? t("hm_you_answer") : t("hm_answering", { who: ctx.seatLabel(view.asking) });
    }
    if (view.phase === "discard") {
      return view.recipient === me ? t("hm_you_discard") : t("hm_discarding", { who: ctx.seatLabel(view.recipient) });
    }
    if (view.turn === me) {
      return view.trick === 1 && !view.table.length ? t("hm_you_lead_first") : t("tc_your_turn");
    }
    return t("tc_waiting_for", { who: ctx.seatLabel(view.turn) });
  }

  function answerButtons(view) {
    const legal = legalActions(ctx).filter((a) => a.type === "declare" || a.type === "pass");
    if (!legal.length) return null;
    const me = mySeat(ctx);
    const deadline = view.declare_deadline;
    return el("div", { class: "controls", id: "declare-prompt" },
      deadline === null || deadline === undefined ? null : countdown({
        id: "declare-countdown", message: ctx.message, deadline, label: (n) => t("hm_cd_declare", { n }),
      }),
      legal.map((a) => el("button", {
        type: "button", class: "big", id: a.type + "-button", "data-key": a.type,
        onclick: () => ctx.move(me, { type: a.type }), ...actionAttr(a),
      }, t("hm_" + a.type))),
      el("p", { class: "muted" }, t("hm_declare_note")));
  }

  function currentTrick(view) {
    const me = mySeat(ctx);
    // Eight cards as one trick: each under its seat's team mark, your partners marked.
    const entries = view.table.map((p) => ({
      who: `${TEAM_MARK[team(p.seat)]} ${ctx.seatLabel(p.seat)}`, seat: p.seat,
      cls: `team-${team(p.seat)}${me !== null && p.seat !== me && team(p.seat) === team(me) ? " partner" : ""}`,
      card: p.card ? card(view, p.card, { note: p.face_down ? t("hm_was_face_down") : null })
        : cardBack(t("hm_face_down_trump")),
      note: p.face_down ? t("hm_face_down_short") : null,
    }));
    const title = view.phase === "play" ? t("hm_trick_n", { n: view.trick }) : t("tc_trick_now");
    return trickArea({ id: "current-trick", title, entries, empty: t("tc_no_cards_yet") });
  }

  function comboText(record) {
    const side = team(record.winner);
    const [w, o] = record.combo.pair;
    return t("hm_combo", {
      n: record.number, win: unsunName(w), over: unsunName(o), team: teamName(side),
      other: teamName(1 - side), v: record.combo.value,
    });
  }

  function lastTrick(view) {
    const record = view.tricks.length ? view.tricks[view.tricks.length - 1]
      : view.previous ? view.previous.last_trick : null;
    if (!record) return null;
    // The previous deal's last trick keeps that deal's trump marks.
    const trump = view.tricks.length ? view.trump : view.previous.okie[0];
    const entries = record.cards.map((c, i) => ({
      who: ctx.seatLabel(record.seats[i]),
      card: unsunCard(c, {
        trump: isTrump(trump, c), note: record.face_down.includes(i) ? t("hm_was_face_down") : null,
      }),
      winner: record.seats[i] === record.winner,
      note: record.face_down.includes(i) ? t("hm_face_down_short") : null,
    }));
    const kind = record.meri ? t("hm_meri_trick") : record.number === 9 ? t("hm_trick9") : null;
    return trickArea({
      id: "last-trick", title: t("hm_last_trick_n", { n: record.number }), entries,
      footer: el("p", { class: "trick-footer" }, kind, record.combo ? " " + comboText(record) : ""),
    });
  }

  function deadCards(view) {
    if (!view.dead && !view.discard) return null;
    const cards = view.dead || [view.discard];
    return el("div", { class: "dead", id: "dead-cards" },
      el("span", { class: "label" }, view.dead ? t("hm_dead") : t("hm_your_discard")),
      el("div", { class: "hand thand small" }, cards.map((c) => card(view, c))));
  }

  function scores(view) {
    const me = mySeat(ctx);
    const tricks = [0, 1].map((s) => view.tricks.filter((r) => team(r.winner) === s).length);
    const rows = [0, 1].map((s) => [teamTag(s) + (me !== null && team(me) === s ? ` (${t("hm_your_team")})` : ""),
      String(tricks[s]), String(view.deal_score[s]), String(view.scores[s])]);
    const history = view.history.map((h, i) => [t("hm_deal_short", { n: i + 1 }), String(h[0]), String(h[1])]);
    const combos = view.tricks.filter((r) => r.combo);
    return el("section", { class: "panel score-panel", id: "scores" },
      scoreTable({
        id: "team-scores", caption: t("hm_scores"),
        head: [t("hm_team"), t("hm_tricks_col"), t("hm_deal_score"), t("tc_total")], rows,
        highlight: me === null ? [] : [team(me)],
      }),
      history.length ? scoreTable({
        id: "deal-history", caption: t("hm_history"), head: ["", teamTag(0), teamTag(1)], rows: history,
      }) : null,
      el("div", { id: "combos" }, el("strong", {}, t("hm_combos")),
        combos.length ? el("ul", {}, combos.map((r) => el("li", {}, comboText(r))))
          : el("p", { class: "muted" }, t("hm_no_combos"))));
  }

  /** The round-end screen: the match's result, else the last deal's (the game moved on). */
  function roundEnd(view) {
    const outcome = ctx.message.outcome;
    if (outcome) {
      const [a, b] = outcome.scores;
      const verdict = outcome.winner === null ? t("hm_draw") : t("hm_team_wins", { team: teamTag(outcome.winner) });
      return ends.show({
        key: "over", title: t("tc_match_over"),
        body: [el("div", { id: "match-result" }, el("p", {}, verdict),
          el("p", {}, t("hm_final", { a, b, ta: teamTag(0), tb: teamTag(1) })),
          placesList(ctx, outcome.places, (seat) => teamTag(team(seat))))],
      });
    }
    const prev = view.previous;
    if (!prev) return ends.show({ key: null });
    const combos = (combosByDeal.get(prev.deal) || []).filter((r) => r.number !== prev.last_trick.number);
    if (prev.last_trick.combo) combos.push(prev.last_trick);
    const [a, b] = prev.deal_score;
    return ends.show({
      key: "deal-" + prev.deal, title: t("hm_deal_result", { n: prev.deal }), auto: true,
      body: [
        el("p", {}, t("hm_deal_score_line", { a: `${teamTag(0)} ${a >= 0 ? "+" : ""}${a}`, b: `${teamTag(1)} ${b >= 0 ? "+" : ""}${b}` })),
        el("p", {}, t("hm_final_so_far", { a: view.scores[0], b: view.scores[1], ta: teamTag(0), tb: teamTag(1) })),
        el("p", {}, prev.robai_declared ? t("hm_prev_declared", { who: ctx.seatLabel(prev.recipient) })
          : t("hm_prev_not_declared", { who: ctx.seatLabel(prev.recipient) })),
        combos.length ? el("ul", {}, combos.map((r) => el("li", {}, comboText(r)))) : el("p", {}, t("hm_no_combos_prev")),
      ],
    });
  }

  /** Why a tapped card may not be played now (never naming another seat's card). */
  function whyNot(view, me) {
    const legal = legalActions(ctx);
    if (!legal.length) {
      const waiting = view.phase === "play" ? view.turn : view.phase === "discard" ? view.recipient : view.asking;
      return waiting === null || waiting === undefined ? t("fr_wait") : t("fr_not_your_turn", { who: ctx.seatLabel(waiting) });
    }
    if (view.phase === "discard") return t("hm_why_discard");
    if (view.phase === "declare") return t("hm_why_declare");
    if (view.trick === 1 && !view.table.length && view.turn === me) return t("hm_you_lead_first");
    if (view.monchi) return t("hm_monchi");
    return t("fr_not_now");
  }

  function draw() {
    if (!ctx) return;
    const view = ctx.message.view;
    const me = mySeat(ctx);
    if (view.tricks.length) combosByDeal.set(view.deal, view.tricks.filter((r) => r.combo));
    const legal = legalActions(ctx);
    const playable = new Set(legal.filter((a) => a.type === "play" || a.type === "discard").map((a) => a.card));
    const kind = legal.some((a) => a.type === "discard") ? "discard" : "play";
    const hand = view.hand ? handRow({
      cards: view.hand, label: t("tc_your_hand") + " · " + teamTag(team(me)),
      draw: (c, opts) => card(view, c, opts), playable, keyPrefix: "hm",
      onPlay: playable.size ? (c) => ctx.move(me, { type: kind, card: c }) : undefined,
      refuse: () => refuse(whyNot(view, me)),
    }) : el("p", { class: "muted" }, t("tc_watching"));
    const result = roundEnd(view);
    paint(root,
      el("div", { class: "table tricks-table hachinin", "data-phase": view.phase, "data-deal": view.deal },
        result.top,
        tableHeader(ctx, [
          t("hm_deal_of", { n: view.deal, total: view.deals }),
          t("hm_dealer_is", { who: ctx.seatLabel(view.dealer) }),
          me === null ? null : t("hm_you_are", { team: teamTag(team(me)) }),
        ]),
        seatStrip([0, 1, 2, 3, 4, 5, 6, 7].map((s) => seatPanel(view, s)), { cls: "eight" }),
        // Before the first card (the declaring, the Okie's discard) there is no trick to show.
        el("div", { class: "board" }, view.phase === "play" || view.table.length ? currentTrick(view) : null, okieBox(view)),
        dock(statusLine(statusText(view, me)), answerButtons(view), hand),
        view.tricks.length || view.previous || view.dead || view.discard
          ? fold("last-trick", t("tc_last_trick"), el("div", { class: "board" }, lastTrick(view), deadCards(view))) : null,
        result.below,
        fold("scores", t("hm_scores"), scores(view))), motionOf(ctx.message));
  }

  return {
    render(context) {
      ctx = context;
      draw();
    },
    destroy() {},
  };
}

export const STRINGS = mergeStrings({
  en: {
    opt_concealed_robai_bonus: "Concealed Robai bonus",
    opt_concealed_robai_bonus_robai_pairs: "Only pairs with the Robai score 5 (rules text)",
    opt_concealed_robai_bonus_every_pair: "Every pair of the deal scores 5 (boardoor)",
    hm_team_0: "Team A", hm_team_1: "Team B",
    hm_seat_counts: "{n} cards · {k} tricks",
    hm_team: "Team",
    hm_your_team: "yours",
    hm_you_are: "You: {team}",
    hm_dealer: "Dealer",
    hm_dealer_is: "Dealer: {who}",
    hm_has_okie: "Took the Okie",
    hm_answer_pass: "Passed",
    hm_answer_declare: "Declared",
    hm_deal_of: "Deal {n} of {total}",
    hm_deal_short: "Deal {n}",
    hm_okie: "Okie",
    hm_trump_suit: "Trump suit: {suit}",
    hm_trump_note: "Trumps: the trump suit and the Pao Robai (Tenka). Trumps carry the T mark.",
    hm_phase_declare: "Declaring",
    hm_before_meri: "Before Meri: no duty to follow",
    hm_monchi: "Monchi: follow the led suit or play a trump",
    hm_declared_by: "{who} declared the Robai and took the Okie.",
    hm_not_declared: "Nobody declared: the dealer took the Okie.",
    hm_you_answer: "Declare or pass? Only the holder of the trump suit's Robai may declare.",
    hm_answering: "{who} is answering: declare or pass…",
    hm_answering_you: "You are answering: declare or pass…",
    hm_declare: "Declare",
    hm_pass: "Pass",
    hm_declare_note: "Every seat answers; passing keeps your cards secret.",
    hm_you_discard: "You took the Okie: discard one nontrump (face down).",
    hm_discarding: "{who} took the Okie and is discarding…",
    hm_discarding_you: "You took the Okie and are discarding…",
    hm_you_lead_first: "Your lead: trick 1 is led with a nontrump.",
    hm_trick_n: "Trick {n}",
    hm_last_trick_n: "Last trick (trick {n})",
    hm_meri_trick: "Meri (a trump lead): no combination.",
    hm_trick9: "Trick 9: every last card turned up at once; the dealer's card sets the led suit.",
    hm_face_down_trump: "face-down trump",
    hm_face_down_short: "face down",
    hm_was_face_down: "played face down",
    hm_combo: "Trick {n}: {win} over {over} — {team} +{v}, {other} −{v}",
    hm_dead: "Dead cards (discard and talon)",
    hm_your_discard: "Your discard",
    hm_scores: "Scores",
    hm_tricks_col: "Tricks",
    hm_deal_score: "This deal",
    hm_history: "Deals",
    hm_combos: "Combinations this deal",
    hm_no_combos: "No combination yet.",
    hm_no_combos_prev: "No combination in that deal.",
    hm_deal_result: "Deal {n} result",
    hm_deal_score_line: "{a} · {b}",
    hm_prev_declared: "{who} declared the Robai.",
    hm_prev_not_declared: "Nobody declared; the Okie went to {who}.",
    hm_draw: "Equal totals: a draw.",
    hm_team_wins: "{team} wins.",
    hm_final: "Final scores: {ta} {a}, {tb} {b}",
    hm_final_so_far: "Totals: {ta} {a}, {tb} {b}",
    hm_why_discard: "Only a nontrump may be discarded.",
    hm_why_declare: "First declare or pass.",
    hm_cd_declare: "{n} s to answer: then you pass",
    hm_help_name: "Before Meri, Meri and Monchi",
    hm_help_before_meri: "[Before Meri](before-meri): until a trick is led with a trump, you may play any card.",
    hm_help_meri: "[Meri](meri): a trick led with a trump. Holding a trump, you must play one, face up (a lone Sun may be kept back: the [Sun exception](sun-exception)).",
    hm_help_monchi: "[Monchi](monchi): from the first Meri to the end of the deal. On a plain lead, play the led suit or a trump; holding none of the led suit, play any card.",
  },
  ja: {
    opt_concealed_robai_bonus: "隠れロバイの得点",
    opt_concealed_robai_bonus_robai_pairs: "ロバイを含む組だけ5点（ルール本文）",
    opt_concealed_robai_bonus_every_pair: "その配りの組はすべて5点（ボードア版）",
    hm_team_0: "Aチーム", hm_team_1: "Bチーム",
    hm_seat_counts: "手札{n}・{k}トリック",
    hm_team: "チーム",
    hm_your_team: "味方",
    hm_you_are: "あなた：{team}",
    hm_dealer: "親",
    hm_dealer_is: "親：{who}",
    hm_has_okie: "オキを受け取った",
    hm_answer_pass: "パス",
    hm_answer_declare: "宣言",
    hm_deal_of: "第{n}配り／全{total}",
    hm_deal_short: "第{n}配り",
    hm_okie: "オキ",
    hm_trump_suit: "切り札の紋：{suit}",
    hm_trump_note: "切り札：切り札の紋とパオのロバイ（天下）。切り札には「切」の印があります。",
    hm_phase_declare: "宣言中",
    hm_before_meri: "メリ前：出す札の制限なし",
    hm_monchi: "モンチ：台の紋に従うか切り札を出す",
    hm_declared_by: "{who}がロバイを宣言してオキを取りました。",
    hm_not_declared: "宣言なし：親がオキを取りました。",
    hm_you_answer: "宣言しますか、パスしますか？宣言できるのは切り札の紋のロバイを持つ人だけです。",
    hm_answering: "{who}が宣言かパスかを答えています…",
    hm_declare: "宣言",
    hm_pass: "パス",
    hm_declare_note: "全員が答えます。パスすれば手札は秘密のままです。",
    hm_you_discard: "オキを受け取りました。切り札以外を一枚伏せて捨ててください。",
    hm_discarding: "{who}がオキを受け取り、一枚捨てています…",
    hm_you_lead_first: "あなたの打ち出し：第1トリックは切り札以外で出します。",
    hm_trick_n: "第{n}トリック",
    hm_last_trick_n: "前のトリック（第{n}トリック）",
    hm_meri_trick: "メリ（切り札の打ち出し）：役はありません。",
    hm_trick9: "第9トリック：最後の札を全員同時に開き、親の札の紋が台の紋になります。",
    hm_face_down_trump: "伏せた切り札",
    hm_face_down_short: "伏せ札",
    hm_was_face_down: "伏せて出した",
    hm_combo: "第{n}トリック：{win}が{over}に勝ち — {team} +{v}、{other} −{v}",
    hm_dead: "死に札（捨て札と残り札）",
    hm_your_discard: "あなたの捨て札",
    hm_scores: "得点",
    hm_tricks_col: "トリック",
    hm_deal_score: "この配り",
    hm_history: "配りごとの得点",
    hm_combos: "この配りの役",
    hm_no_combos: "役はまだありません。",
    hm_no_combos_prev: "その配りでは役はありませんでした。",
    hm_deal_result: "第{n}配りの結果",
    hm_deal_score_line: "{a}・{b}",
    hm_prev_declared: "{who}がロバイを宣言しました。",
    hm_prev_not_declared: "宣言なし。オキは{who}へ。",
    hm_draw: "同点：引き分けです。",
    hm_team_wins: "{team}の勝ち。",
    hm_final: "最終得点：{ta} {a}、{tb} {b}",
    hm_final_so_far: "合計：{ta} {a}、{tb} {b}",
    hm_why_discard: "捨てられるのは切り札以外のカードだけです。",
    hm_why_declare: "先に宣言かパスを選んでください。",
    hm_cd_declare: "あと{n}秒で自動的にパスになります",
    hm_help_name: "メリ前・メリ・モンチ",
    hm_help_before_meri: "[メリ前](before-meri)：切り札で打ち出されるトリックまでは、どのカードを出してもかまいません。",
    hm_help_meri: "[メリ](meri)：切り札で打ち出されたトリック。切り札を持っていれば必ず一枚、表向きで出します（切り札がスンだけなら出さずにおけます：[スンの例外](sun-exception)）。",
    hm_help_monchi: "[モンチ](monchi)：最初のメリから配りの終わりまで。切り札でない打ち出しには台の紋か切り札を出します。台の紋を持っていなければ何を出してもかまいません。",
  },
});
