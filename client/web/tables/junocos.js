// The Junocos table (RULINGS section 4): the face-up row and the draft, everyone's open
// cards, the trump indicator, must-follow play from hand and open cards (legal cards
// only), trick counts against each player's last open card, and scores over the rounds.

import { el, tableHeader, termAttrs } from "../components.js";
import { t } from "../i18n.js";
import { unoCard, unoName } from "../cards_tricks.js";
import {
  handRow, legalActions, mergeStrings, mySeat, placesList, scoreTable, seatBox,
  trickArea,
} from "../tricks.js";
import { dock, fold, motionOf, paint, refuse, seatStrip, statusLine } from "./frame.js";
import { roundEnds } from "./round_end.js";

/** The class of a card under the trump indicator (spec 8); 'plain' before the draft ends. */
function cardClass(code, trump) {
  if (!trump) return "plain";
  if (code[1] === trump[1]) return code[0] === trump[0] ? "super" : "trump_number";
  return code[0] === trump[0] ? "trump_suit" : "plain";
}

/** One table instance per room page. */
export function create(root) {
  let ctx = null;
  const ends = roundEnds(() => draw());

  function card(view, code, opts = {}) {
    return unoCard(code, { ...opts, trumpClass: cardClass(code, view.trump) });
  }

  function targetLine(view, seat) {
    const opens = view.open[seat];
    const won = view.won[seat];
    if (view.phase === "play" && opens.length === 1) {
      const target = Number(opens[0][1]);
      return el("span", { class: `declaration${won === target ? " hit" : ""}` },
        t("jc_tricks_vs", { n: won, target }) + (won === target ? " ✓" : ""));
    }
    return t("tc_tricks", { n: won });
  }

  function seatPanel(view, seat) {
    const me = ctx.you.includes(seat);
    return seatBox({
      seat, me, turn: view.phase !== "over" && view.turn === seat, label: ctx.seatLabel(seat),
      lines: [
        seat === view.start ? el("span", { class: "badge", ...termAttrs("start-player") }, "★ " + t("jc_start_player")) : null,
        t("tc_cards_in_hand", { n: view.hand_sizes[seat] }),
        targetLine(view, seat),
        me ? null : el("div", { class: "open-cards", role: "group", "aria-label": t("jc_open_of", { who: ctx.seatLabel(seat) }) },
          view.open[seat].map((c) => card(view, c))),
      ],
    });
  }

  function trumpBox(view) {
    if (!view.trump) return null;
    const colour = t("colour_" + view.trump[0]);
    return el("div", { class: "okie", id: "trump-indicator" },
      el("div", {}, el("span", { class: "label", ...termAttrs("indicator") }, t("jc_indicator")), card(view, view.trump)),
      el("div", {},
        el("div", {}, t("jc_trump_is", { colour, n: view.trump[1] })),
        el("div", { class: "muted" }, t("jc_trump_order", { colour, n: view.trump[1] }))));
  }

  function draftRow(view) {
    if (view.phase !== "draft") return null;
    const me = mySeat(ctx);
    const picks = new Set(legalActions(ctx).filter((a) => a.type === "pick").map((a) => a.card));
    return el("section", { class: "draft-row", id: "draft-row", "aria-label": t("jc_row") },
      el("div", { class: "row" }, el("strong", {}, t("jc_row")),
        el("span", { class: "muted" }, t("jc_row_note"))),
      el("div", { class: "hand thand" }, view.row.map((c, i) => card(view, c, {
        key: `row-${c}-${i}`,
        onclick: picks.size ? () => ctx.move(me, { type: "pick", card: c }) : undefined,
        disabled: !picks.has(c),
      }))),
      view.picks.length ? el("p", { class: "muted", id: "picks" }, t("jc_picks"), " ",
        view.picks.map(([s, c]) => `${ctx.seatLabel(s)}: ${unoName(c)}`).join(" · ")) : null);
  }

  function statusText(view, me) {
    if (view.phase === "over") return t("tc_match_over");
    if (view.turn !== me) return t("tc_waiting_for", { who: ctx.seatLabel(view.turn) });
    if (view.phase === "draft") return t("jc_your_pick");
    return view.trick.length ? t("jc_your_follow") : t("jc_your_lead");
  }

  function currentTrick(view) {
    return trickArea({
      id: "current-trick", title: t("jc_trick_n", { n: view.tricks.length + 1 }),
      entries: view.trick.map(([s, c, src]) => ({
        who: ctx.seatLabel(s), card: card(view, c), note: src === "open" ? t("jc_from_open") : null, seat: s,
      })),
      empty: t("tc_no_cards_yet"),
    });
  }

  function lastTrick(view) {
    const last = view.last_trick;
    if (!last) return null;
    return trickArea({
      id: "last-trick", title: t("tc_last_trick"),
      entries: last.cards.map(([s, c, src]) => ({
        who: ctx.seatLabel(s), card: unoCard(c), winner: s === last.winner,
        note: src === "open" ? t("jc_from_open") : null,
      })),
    });
  }

  function myCards(view, me) {
    if (!view.hand) return el("p", { class: "muted" }, t("tc_watching"));
    const legal = legalActions(ctx).filter((a) => a.type === "play");
    const fromHand = new Set(legal.filter((a) => a.from === "hand").map((a) => a.card));
    const fromOpen = new Set(legal.filter((a) => a.from === "open").map((a) => a.card));
    const play = (from) => (legal.length ? (c) => ctx.move(me, { type: "play", card: c, from }) : undefined);
    const opens = view.open[me];
    return el("div", { class: "hands" },
      handRow({
        cards: view.hand, label: t("tc_your_hand"), draw: (c, o) => card(view, c, o), playable: fromHand,
        keyPrefix: "jh", onPlay: play("hand"), refuse: () => refuse(whyNot(view, me, false)),
      }),
      opens.length ? el("div", { class: "my-open", id: "my-open" }, handRow({
        cards: opens, label: t("jc_your_open"), draw: (c, o) => card(view, c, o), playable: fromOpen,
        keyPrefix: "jo", onPlay: view.phase === "play" ? play("open") : undefined, id: "my-open-hand",
        refuse: () => refuse(whyNot(view, me, true)),
        extra: el("span", { class: "muted" }, opens.length === 1 && view.phase === "play"
          ? targetLine(view, me) : t("jc_open_note")),
      })) : null);
  }

  function roundLine(h, seat) {
    const won = h.won[seat];
    const target = Number(h.declarations[seat][1]);
    const parts = [won === 0 ? t("jc_zero_tricks") : t("jc_base", { n: won })];
    if (h.points[seat] > (won === 0 ? 10 : won)) parts.push(t("jc_bonus"));
    return t("jc_round_line", {
      who: ctx.seatLabel(seat), won, target, why: parts.join(" + "), points: h.points[seat],
    });
  }

  /** The round-end screen: the match's result, else the last round's (the game moved on). */
  function roundEnd(view) {
    const outcome = ctx.message.outcome;
    const h = view.history[view.history.length - 1];
    if (outcome) {
      return ends.show({
        key: "over", title: t("tc_match_over"),
        body: [el("div", { id: "match-result" },
          h ? el("ul", {}, h.points.map((_, s) => el("li", {}, roundLine(h, s)))) : null,
          placesList(ctx, outcome.places, (s) => t("jc_points", { n: outcome.scores[s] })))],
      });
    }
    if (!h) return ends.show({ key: null });
    return ends.show({
      key: "round-" + h.round, title: t("jc_round_result", { n: h.round + 1 }), auto: true,
      body: [el("ul", {}, h.points.map((_, s) => el("li", {}, roundLine(h, s))))],
    });
  }

  function whyNot(view, me, open) {
    if (view.phase === "draft") return t("jc_why_draft");
    if (view.turn !== me) return t("fr_not_your_turn", { who: ctx.seatLabel(view.turn) });
    if (open && view.open[me].length === 1) return t("jc_open_note");
    return view.trick.length ? t("jc_your_follow") : t("fr_not_now");
  }

  function scores(view) {
    const seats = Array.from({ length: view.seats }, (_, s) => s);
    const rows = view.history.map((h) => [t("jc_round_short", { n: h.round + 1 }),
      ...seats.map((s) => `${h.points[s]} (${h.won[s]}/${h.declarations[s][1]})`)]);
    rows.push([t("tc_total"), ...seats.map((s) => String(view.scores[s]))]);
    return el("section", { class: "panel score-panel", id: "scores" },
      scoreTable({
        id: "junocos-scores", caption: t("jc_scores"), head: ["", ...seats.map((s) => ctx.seatLabel(s))], rows,
      }),
      el("p", { class: "muted" }, t("jc_scoring_rule")));
  }

  function leftovers(view) {
    if (!view.leftover.length) return null;
    return el("div", { class: "dead", id: "leftover" }, el("span", { class: "label" }, t("jc_leftover")),
      el("div", { class: "hand thand small" }, view.leftover.map((c) => unoCard(c))));
  }

  function draw() {
    if (!ctx) return;
    const view = ctx.message.view;
    const me = mySeat(ctx);
    const round = Math.min(view.round + 1, view.rounds);
    const result = roundEnd(view);
    paint(root,
      el("div", { class: "table tricks-table junocos-table", "data-phase": view.phase, "data-round": round },
        result.top,
        tableHeader(ctx, [
          t("tc_round", { n: round, total: view.rounds }),
          t("jc_start_is", { who: ctx.seatLabel(view.start) }),
          view.trump ? el("span", { class: "badge strong", id: "trump-badge" },
            t("jc_trump_badge", { colour: t("colour_" + view.trump[0]), n: view.trump[1] })) : null,
        ]),
        seatStrip(Array.from({ length: view.seats }, (_, s) => seatPanel(view, s))),
        // The face-up row is the shared middle while the draft runs.
        draftRow(view),
        el("div", { class: "board" }, view.phase === "play" ? currentTrick(view) : null, trumpBox(view)),
        dock(statusLine(statusText(view, me)), myCards(view, me)),
        view.last_trick || view.leftover.length
          ? fold("last-trick", t("tc_last_trick"), el("div", { class: "board" }, lastTrick(view), leftovers(view))) : null,
        result.below,
        fold("scores", t("jc_scores"), scores(view))), motionOf(ctx.message));
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
    opt_trump_number_suit: "Trump-number cards",
    opt_trump_number_suit_trump: "Belong to the trump suit (Nokosu)",
    opt_trump_number_suit_printed: "Follow their printed colour",
    opt_zero_trick_bonus: "Zero tricks and the +5 bonus",
    opt_zero_trick_bonus_stack: "Both count (10 + 5)",
    opt_zero_trick_bonus_replace: "10 replaces everything",
    jc_start_player: "Start player",
    jc_start_is: "Start player: {who}",
    jc_open_of: "{who}'s open cards",
    jc_open_of_you: "Your open cards",
    jc_tricks_vs: "Tricks {n} / open card {target}",
    jc_indicator: "Trump indicator",
    jc_trump_is: "Trumps: every {colour} card and every {n}.",
    jc_trump_order: "Strongest: a second {colour} {n} (if the deck has one), then any {n}, then {colour} high to low, Skip lowest; of equal cards the later wins.",
    jc_row: "Face-up row",
    jc_row_note: "Take one card in turn; the last card left is the trump indicator.",
    jc_picks: "Taken:",
    jc_your_pick: "Draft: take one face-up card for your open cards.",
    jc_your_lead: "Your lead: play any highlighted card from your hand or open cards.",
    jc_your_follow: "Your turn: follow the led suit if you can (trumps are one suit).",
    jc_trick_n: "Trick {n} of 12",
    jc_from_open: "open card",
    jc_your_open: "Your open cards",
    jc_open_note: "The last one left is never played: it is your target.",
    jc_zero_tricks: "no tricks: 10",
    jc_base: "{n} for tricks",
    jc_bonus: "5 for matching the open card",
    jc_round_line: "{who}: won {won}, open card {target} — {why} = {points}",
    jc_round_result: "Round {n} result",
    jc_round_short: "Round {n}",
    jc_points: "{n} points",
    jc_scores: "Scores (points, tricks/open card)",
    jc_scoring_rule: "A trick is 1 point, no tricks is 10; taking as many tricks as your last open card adds 5.",
    jc_leftover: "Out of play",
    jc_why_draft: "First take a card from the face-up row.",
    jc_trump_badge: "Trumps: {colour} and every {n}",
  },
  ja: {
    opt_trump_number_suit: "切り札の数字のカード",
    opt_trump_number_suit_trump: "切り札の組として扱う（ノコスダイス式）",
    opt_trump_number_suit_printed: "印刷された色に従う",
    opt_zero_trick_bonus: "0トリックと+5ボーナス",
    opt_zero_trick_bonus_stack: "両方数える（10＋5）",
    opt_zero_trick_bonus_replace: "10点のみ",
    jc_start_player: "スタートプレイヤー",
    jc_start_is: "スタートプレイヤー：{who}",
    jc_open_of: "{who}の公開札",
    jc_tricks_vs: "トリック{n}／公開札{target}",
    jc_indicator: "切り札表示",
    jc_trump_is: "切り札：{colour}のカードすべてと、すべての{n}。",
    jc_trump_order: "強い順：二枚目の{colour}の{n}（あれば）、ほかの{n}、{colour}の大きい順（スキップが最弱）。同じ強さなら後出しの勝ち。",
    jc_row: "表向きの列",
    jc_row_note: "順番に一枚ずつ取ります。最後に残った一枚が切り札表示になります。",
    jc_picks: "取った札：",
    jc_your_pick: "ドラフト：表向きの札を一枚取って公開札にしてください。",
    jc_your_lead: "あなたの打ち出し：手札か公開札から明るいカードを出してください。",
    jc_your_follow: "あなたの番です。台の組に従ってください（切り札は一つの組）。",
    jc_trick_n: "第{n}トリック／全12",
    jc_from_open: "公開札",
    jc_your_open: "あなたの公開札",
    jc_open_note: "最後の一枚は出せません。それがあなたの目標です。",
    jc_zero_tricks: "0トリック：10点",
    jc_base: "{n}トリック",
    jc_bonus: "公開札と一致で5点",
    jc_round_line: "{who}：{won}トリック、公開札{target} — {why} ＝ {points}点",
    jc_round_result: "第{n}ラウンドの結果",
    jc_round_short: "第{n}ラウンド",
    jc_points: "{n}点",
    jc_scores: "得点（点数、トリック／公開札）",
    jc_scoring_rule: "1トリック1点、0トリックは10点。最後の公開札と同じ数のトリックを取ると+5点。",
    jc_leftover: "使わない札",
    jc_why_draft: "先に表向きの列から一枚取ってください。",
    jc_trump_badge: "切り札：{colour}とすべての{n}",
  },
});
