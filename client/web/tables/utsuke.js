// The Utsuke table (RULINGS section 3): the Lord's (and Prince's) open hands in dealt
// order with the trump chip, the secret guess 0-15 and who has guessed, must-follow
// trick play, trick counts, Homare and Uchikubi, and each round's judging explained.

import { el, tableHeader, termAttrs } from "../components.js";
import { t } from "../i18n.js";
import { utsukeCard } from "../cards_tricks.js";
import {
  handRow, legalActions, mergeStrings, mySeat, placesList, scoreTable, seatBox,
  trickArea,
} from "../tricks.js";
import { termHelp } from "../explain.js";
import { dock, fold, motionOf, paint, refuse, seatStrip, statusLine } from "./frame.js";
import { nameIn, namesList, roundEnds, winnersLine } from "./round_end.js";
import { actionAttr } from "./suggest.js";

const MAX_GUESS = 15;

/** One table instance per room page. */
export function create(root) {
  let ctx = null;
  let chosen = null; // the guess picked on the pad, not yet committed
  let chosenRound = null;
  const ends = roundEnds(() => draw());

  const who = (name) => (name === "lord" ? t("ut_lord") : name === "prince" ? t("ut_prince") : ctx.seatLabel(name));

  function card(view, code, opts = {}) {
    return utsukeCard(code, { ...opts, trump: code[0] === view.trump });
  }

  function npcHand(view, name, cards, tricks) {
    return el("section", { class: "npc-hand", id: name + "-hand", "aria-label": t("ut_hand_of", { who: who(name) }) },
      el("div", { class: "row" }, el("strong", {}, t("ut_hand_of", { who: who(name) })),
        el("span", { class: "badge" }, t("tc_tricks", { n: tricks })),
        el("span", { class: "muted" }, t("ut_left_to_right"))),
      el("div", { class: "hand thand" }, cards.map((c) => card(view, c, { chip: name === "lord" && c === view.chip }))));
  }

  function seatPanel(view, name) {
    if (typeof name === "string") {
      const tricks = name === "lord" ? view.lord_tricks : view.prince_tricks;
      return seatBox({
        seat: name, label: who(name), turn: view.turn === name, classes: "npc",
        lines: [el("span", { class: "badge" }, t("ut_npc")), t("tc_tricks", { n: tricks })],
      });
    }
    const guessing = view.phase === "guess";
    return seatBox({
      seat: name, label: ctx.seatLabel(name), me: ctx.you.includes(name), turn: view.turn === name,
      lines: [
        guessing ? el("span", { class: `badge${view.guessed[name] ? " strong" : ""}` },
          view.guessed[name] ? "✓ " + t("ut_guessed") : "… " + t("ut_thinking")) : null,
        // The count of cards in hand is its own span: a narrow phone leaves it out.
        [t("tc_tricks", { n: view.tricks[name] }),
          el("span", { class: "in-hand" }, " · " + t("tc_cards_in_hand", { n: view.hand_sizes[name] }))],
        [el("span", termAttrs("homare"), t("ut_homare_n", { n: view.homare[name] })), " · ",
          el("span", termAttrs("uchikubi"), t("ut_uchikubi_n", { n: view.uchikubi[name] }))],
      ],
    });
  }

  function guessPanel(view) {
    if (view.phase !== "guess") return null;
    const me = mySeat(ctx);
    const open = legalActions(ctx).some((a) => a.type === "guess");
    if (chosenRound !== view.round) {
      chosen = null;
      chosenRound = view.round;
    }
    if (!open) {
      return el("section", { class: "guess-panel", id: "guess-panel" },
        me === null ? null : el("p", { id: "my-guess" }, t("ut_your_guess", { n: view.guess })),
        el("p", { class: "muted" }, t("ut_waiting_guesses")));
    }
    return el("section", { class: "guess-panel", id: "guess-panel", "aria-labelledby": "guess-title" },
      el("p", { id: "guess-title" }, el("strong", {}, t("ut_guess_prompt"))),
      el("p", { class: "muted" }, t("ut_guess_note")),
      // The numbers and the confirmation in one compact block.
      el("div", { class: "guess-pad", id: "guess-pad", role: "group", "aria-label": t("ut_guess_prompt") },
        Array.from({ length: MAX_GUESS + 1 }, (_, n) => el("button", {
          type: "button", "data-guess": n, "data-key": "guess-" + n, "aria-pressed": String(chosen === n),
          ...actionAttr({ type: "guess", value: n }),
          onclick: () => { chosen = chosen === n ? null : n; draw(); },
        }, String(n))),
        el("button", {
          type: "button", class: "big", id: "guess-confirm", "data-key": "guess-confirm", disabled: chosen === null,
          onclick: () => ctx.move(me, { type: "guess", value: chosen }),
        }, chosen === null ? t("ut_pick_number") : t("ut_commit", { n: chosen }))));
  }

  function statusText(view, me) {
    if (view.phase === "over") return t("tc_match_over");
    if (view.phase === "guess") return t("ut_phase_guess");
    if (view.turn === me) return t("ut_your_turn");
    return t("tc_waiting_for", { who: who(view.turn) });
  }

  function currentTrick(view) {
    const lead = view.trick.length ? view.trick[0][1] : null;
    return trickArea({
      id: "current-trick", title: t("tc_trick_now"),
      entries: view.trick.map(([name, c]) => ({ who: who(name), card: card(view, c), seat: name })),
      empty: t("tc_no_cards_yet"),
      footer: lead ? el("p", { class: "trick-footer" }, t("ut_led", { colour: t("colour_" + lead[0]) })) : null,
    });
  }

  function lastTrick(view) {
    const last = view.history[view.history.length - 1];
    if (!last) return null;
    return trickArea({
      id: "last-trick", title: t("ut_trick_n", { n: view.history.length }),
      entries: last.cards.map(([name, c]) => ({ who: who(name), card: card(view, c), winner: name === last.winner })),
    });
  }

  function judgingLines(last) {
    const lord = last.lord_tricks;
    const exact = last.guesses.includes(lord);
    const lines = last.guesses.map((g, seat) => {
      const h = last.homare[seat];
      const award = h === 2 ? t("ut_exact") : h === 1 ? t("ut_closest") : t("ut_no_homare");
      const head = t("ut_judge_line", { who: ctx.seatLabel(seat), g, n: last.tricks[seat], award });
      return last.uchikubi[seat] ? `${head} ${t("ut_uchikubi_award")}` : head;
    });
    return [
      el("p", {}, t("ut_lord_took", { n: lord })),
      last.prince_tricks === null ? null : el("p", {}, t("ut_prince_took", { n: last.prince_tricks })),
      el("p", {}, exact ? t("ut_rule_exact") : t("ut_rule_closest")),
      el("ul", { id: "judging" }, lines.map((l) => el("li", {}, l))),
      el("p", {}, t("ut_rule_uchikubi")),
    ];
  }

  /** The round-end screen: the match's result, else the last round's judging. */
  function roundEnd(view) {
    const outcome = ctx.message.outcome;
    const last = view.last_round;
    if (outcome) {
      return ends.show({
        key: "over", title: t("tc_match_over"),
        body: [el("div", { id: "match-result" },
          outcome.winners.length ? el("p", {}, winnersLine(ctx, outcome.winners)) : null,
          outcome.losers.length ? el("p", {}, t("ut_executed", { who: namesList(outcome.losers.map((s) => nameIn(ctx, s))) })) : null,
          placesList(ctx, outcome.places, (s) => t("ut_homare_n", { n: outcome.homare[s] })
            + " · " + t("ut_uchikubi_n", { n: outcome.uchikubi[s] }))),
        last ? el("div", {}, judgingLines(last)) : null],
      });
    }
    if (!last) return ends.show({ key: null });
    return ends.show({
      key: "round-" + last.round, title: t("ut_judging_title", { n: last.round }), auto: true, body: judgingLines(last),
    });
  }

  /** Your guess while the round's tricks are played: it is what the tricks are about. */
  function guessReminder(view, me) {
    if (me === null || view.phase !== "play" || view.guess === null || view.guess === undefined) return null;
    return el("p", { class: "guess-reminder", id: "guess-reminder" },
      t("ut_guess_reminder", { g: view.guess, n: view.lord_tricks }));
  }

  function whyNot(view, me) {
    if (view.phase === "guess") return t("ut_why_guess");
    if (view.turn !== me) return t("fr_not_your_turn", { who: who(view.turn) });
    const lead = view.trick.length ? view.trick[0][1] : null;
    return lead ? t("ut_why_follow", { colour: t("colour_" + lead[0]) }) : t("fr_not_now");
  }

  function scores(view) {
    const players = Array.from({ length: view.seats }, (_, s) => s);
    return el("section", { class: "panel score-panel", id: "scores" },
      scoreTable({
        id: "utsuke-scores",
        caption: [t("ut_scores"), " ", termHelp({
          key: "help-homare", term: "homare", name: t("ut_scores"), lines: [t("ut_help_homare"), t("ut_help_uchikubi")],
        })],
        head: ["", t("ut_homare"), t("ut_uchikubi"), t("ut_tricks_round")],
        rows: players.map((s) => [ctx.seatLabel(s), String(view.homare[s]), String(view.uchikubi[s]), String(view.tricks[s])]),
        highlight: ctx.you,
      }),
      el("p", { class: "muted" }, t("ut_end_rule")));
  }

  function draw() {
    if (!ctx) return;
    const view = ctx.message.view;
    const me = mySeat(ctx);
    const playable = new Set(legalActions(ctx).filter((a) => a.type === "play").map((a) => a.card));
    const hand = view.hand ? handRow({
      cards: view.hand, label: t("tc_your_hand"), draw: (c, opts) => card(view, c, opts), playable,
      keyPrefix: "ut", onPlay: playable.size ? (c) => ctx.move(me, { type: "play", card: c }) : undefined,
      refuse: () => refuse(whyNot(view, me)),
    }) : el("p", { class: "muted" }, t("tc_watching"));
    const trump = view.trump
      ? el("span", { class: "badge strong", id: "trump", ...termAttrs("trump") }, t("ut_trump", { colour: t("colour_" + view.trump) }))
      : null;
    const result = roundEnd(view);
    paint(root,
      el("div", { class: "table tricks-table utsuke-table", "data-phase": view.phase, "data-round": view.round },
        result.top,
        tableHeader(ctx, [t("ut_round", { n: view.round }), trump]),
        npcHand(view, "lord", view.lord, view.lord_tricks),
        view.prince ? npcHand(view, "prince", view.prince, view.prince_tricks) : null,
        view.phase === "guess" && !view.trick.length ? null : currentTrick(view),
        seatStrip(view.table.filter((name) => typeof name !== "string").map((name) => seatPanel(view, name))),
        dock(statusLine(statusText(view, me)), guessReminder(view, me), guessPanel(view), hand),
        view.history.length ? fold("last-trick", t("tc_last_trick"), lastTrick(view)) : null,
        result.below,
        fold("scores", t("ut_scores"), scores(view))), motionOf(ctx.message));
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
    opt_lord_seat: "First Lord sits beside",
    opt_lord_seat_random: "A random seat",
    opt_lord_seat_0: "Seat 1", opt_lord_seat_1: "Seat 2", opt_lord_seat_2: "Seat 3",
    opt_lord_seat_3: "Seat 4", opt_lord_seat_4: "Seat 5",
    opt_end_rule: "Execution without a winner",
    opt_end_rule_ranked: "Rank the survivors by Homare",
    opt_end_rule_survivors_share: "Every survivor shares the win",
    ut_lord: "Lord",
    ut_prince: "Prince",
    ut_npc: "non-player (plays by fixed rules)",
    ut_round: "Round {n}",
    ut_trump: "Trump colour: {colour}",
    ut_hand_of: "{who}'s open hand",
    ut_left_to_right: "leftmost first; ◎ marks the trump chip",
    ut_guessed: "guessed",
    ut_thinking: "thinking",
    ut_homare: "Homare",
    ut_uchikubi: "Uchikubi",
    ut_homare_n: "Homare {n}",
    ut_uchikubi_n: "Uchikubi {n}",
    ut_tricks_round: "Tricks this round",
    ut_phase_guess: "Guessing: how many tricks will the Lord take?",
    ut_guess_prompt: "Your secret guess: how many tricks will the Lord take this round?",
    ut_guess_note: "Nobody sees your number until the judging.",
    ut_pick_number: "Pick a number",
    ut_commit: "Guess {n}",
    ut_your_guess: "Your guess: {n} (secret until the judging)",
    ut_waiting_guesses: "Waiting for every guess before the Lord leads…",
    ut_your_turn: "Your turn: follow the led colour if you can.",
    ut_led: "Led colour: {colour}",
    ut_trick_n: "Last trick (trick {n})",
    ut_judging_title: "Judging of round {n}",
    ut_lord_took: "The Lord took {n} tricks.",
    ut_prince_took: "The Prince took {n} tricks (never judged).",
    ut_rule_exact: "Exact guesses earn 2 Homare.",
    ut_rule_closest: "Nobody was exact: the closest guess (the higher one on a tie) earns 1 Homare.",
    ut_rule_uchikubi: "Taking more tricks than the Lord earns an Uchikubi.",
    ut_judge_line: "{who}: guessed {g}, took {n} — {award}",
    ut_exact: "exact, +2 Homare",
    ut_closest: "closest, +1 Homare",
    ut_no_homare: "no Homare",
    ut_uchikubi_award: "More tricks than the Lord: +1 Uchikubi.",
    ut_scores: "Homare and Uchikubi",
    ut_end_rule: "3 Homare wins; a second Uchikubi means execution (a loss).",
    ut_executed: "Executed: {who}",
    ut_guess_reminder: "Your guess: the Lord takes {g} · so far {n}",
    ut_why_guess: "First make your secret guess.",
    ut_why_follow: "Follow the led colour ({colour}) while you can.",
    ut_help_homare: "[Homare](homare) (honour): guess the Lord's tricks exactly for 2; if nobody is exact, the closest guess (the higher one on a tie) earns 1. 3 Homare win.",
    ut_help_uchikubi: "[Uchikubi](uchikubi) (beheading): take more tricks than the Lord in a round for 1; a second one is [execution](executed): you lose, even with 3 Homare.",
  },
  ja: {
    opt_lord_seat: "最初の殿の位置",
    opt_lord_seat_random: "ランダム",
    opt_lord_seat_0: "1番席の隣", opt_lord_seat_1: "2番席の隣", opt_lord_seat_2: "3番席の隣",
    opt_lord_seat_3: "4番席の隣", opt_lord_seat_4: "5番席の隣",
    opt_end_rule: "勝者なしで打ち首が出たとき",
    opt_end_rule_ranked: "生き残りを誉れの数で順位づけ",
    opt_end_rule_survivors_share: "生き残り全員が勝ち",
    ut_lord: "殿",
    ut_prince: "若君",
    ut_npc: "ノンプレイヤー（決まった手順で出す）",
    ut_round: "第{n}ラウンド",
    ut_trump: "切り札の色：{colour}",
    ut_hand_of: "{who}の公開手札",
    ut_left_to_right: "左端から。◎は切り札チップ",
    ut_guessed: "予想済み",
    ut_thinking: "考え中",
    ut_homare: "誉れ",
    ut_uchikubi: "打ち首",
    ut_homare_n: "誉れ{n}",
    ut_uchikubi_n: "打ち首{n}",
    ut_tricks_round: "このラウンドのトリック",
    ut_phase_guess: "予想：殿は何トリック取るでしょう？",
    ut_guess_prompt: "秘密の予想：このラウンドで殿は何トリック取るでしょう？",
    ut_guess_note: "判定まで誰にも数字は見えません。",
    ut_pick_number: "数字を選んでください",
    ut_commit: "{n}で予想する",
    ut_your_guess: "あなたの予想：{n}（判定まで秘密）",
    ut_waiting_guesses: "全員の予想がそろうと殿が打ち出します…",
    ut_your_turn: "あなたの番です。出された色があれば従ってください。",
    ut_led: "台の色：{colour}",
    ut_trick_n: "前のトリック（第{n}トリック）",
    ut_judging_title: "第{n}ラウンドの判定",
    ut_lord_took: "殿は{n}トリック取りました。",
    ut_prince_took: "若君は{n}トリック取りました（判定には使いません）。",
    ut_rule_exact: "ぴったり当てた人は誉れ+2。",
    ut_rule_closest: "ぴったりはいません。最も近い予想（同じ差なら大きい方）が誉れ+1。",
    ut_rule_uchikubi: "殿より多くトリックを取ると打ち首+1。",
    ut_judge_line: "{who}：予想{g}、{n}トリック — {award}",
    ut_exact: "的中、誉れ+2",
    ut_closest: "最も近い、誉れ+1",
    ut_no_homare: "誉れなし",
    ut_uchikubi_award: "殿より多く取った：打ち首+1。",
    ut_scores: "誉れと打ち首",
    ut_end_rule: "誉れ3つで勝ち。打ち首2つで処刑（負け）。",
    ut_executed: "処刑：{who}",
    ut_guess_reminder: "あなたの予想：殿は{g}トリック · いま{n}",
    ut_why_guess: "先に秘密の予想をしてください。",
    ut_why_follow: "出せるあいだは台の色（{colour}）に従ってください。",
    ut_help_homare: "[誉れ](homare)：殿のトリック数をぴったり当てると2つ。ぴったりがいなければ、いちばん近い予想（同じ差なら大きい方）に1つ。3つで勝ち。",
    ut_help_uchikubi: "[打ち首](uchikubi)：ラウンドで殿より多くトリックを取ると1つ。2つ目で[処刑](executed)となり、誉れが3つあっても負けです。",
  },
});
