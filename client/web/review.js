// 感想戦, review together: after a match the room's connections go through it step by
// step, the leader's step moving everyone's review (ws frames review_open, review_step,
// review_close, review_state: server/web/PROTOCOL.md "Review together"). Each shows the
// step from its own seat (a player may open every hand, as in a replay) with the Hard
// CPU's opinion on the move: agree, or differ with its move and why. The review's marks
// and each player's agreement rate come from GET .../matches/{n}/review, the steps from
// the replay's pages (replay.js); the table is the game's own, the chat stays in the bar.
// A review still being made answers 202 with how far it is: shown as "Preparing the
// review… 23 of 74 moves" with a bar, asked again every POLL_MS until it comes.

import { addStrings, lang, t } from "./i18n.js";
import { el, replaceKeepingFocus, seatLabel } from "./components.js";
import { TABLES } from "./tables/index.js";
import { errorText, notify } from "./page.js";
import { historyAnswer, historyGet } from "./history.js";
import { cardName, frameSentences } from "./move_log.js";
import { createStepCache, replayContext, replaySeats } from "./replay.js";

addStrings({
  en: {
    rv_review: "Review together",
    rv_join: "Join the review ({who} leads)",
    rv_title: "Review of match {n}",
    rv_close: "Leave the review",
    rv_leave: "Leave",
    rv_you_lead: "You lead: your steps move everyone's review.",
    rv_leads: "{who} leads; your review follows.",
    rv_view: "Seen from",
    rv_own: "Your seat",
    rv_open: "Every hand open",
    rv_step: "Step {i} of {n}",
    rv_deal: "The deal",
    rv_timer: "A rule timer ran out",
    rv_moved: "{who} moved",
    rv_agree: "✓ The CPU agrees: it would make the same move.",
    rv_differ: "✗ The CPU would {move} instead.",
    rv_differ_hidden: "✗ The CPU would have played differently here.",
    rv_none: "The CPU would have made no move here and let the time run.",
    rv_cpu_move: "A CPU's move: not marked.",
    rv_loading: "The CPU is looking through the match…",
    rv_preparing: "Preparing the review… {done} of {total} moves",
    rv_preparing_bar: "Review prepared so far",
    rv_first: "First step",
    rv_back: "One step back",
    rv_forward: "One step forward",
    rv_last: "Last step",
    rv_prev_diff: "Previous difference",
    rv_next_diff: "Next difference",
    rv_summary: "Summary",
    rv_table: "Table",
    rv_summary_title: "How often the CPU agreed",
    rv_rate: "{who}: the same move as the CPU {a} times in {m} ({p}%)",
    rv_rate_none: "{who}: no moves to compare",
    rv_largest: "Largest differences:",
    rv_largest_item: "Step {i}",
    rv_size: " (the CPU chose this in {p}% of its looks)",
    rv_ended: "The review has ended.",
    rv_started: "{who} opened a review of match {n}.",
    mv_play: "play {card}",
    mv_discard: "discard {card}",
    mv_discard_knock: "discard {card} and knock",
    mv_pass: "pass",
    mv_grab: "grab",
    mv_next: "go on",
    mv_mark: "mark {card}",
    mv_unmark: "take its mark off",
    mv_declare: "declare",
    mv_guess: "guess {value}",
    mv_pick: "pick {card}",
    mv_rotate_flip: "turn the hand the other way up",
    mv_rotate_keep: "keep the hand the way it is",
    mv_draw_discard: "take the top discard",
    mv_draw_stock: "draw from the stock",
    mv_insert: "put {card} in at place {n}",
    mv_insert_drawn: "put the drawn card in at place {n}",
    mv_knock: "knock",
    mv_chii: "call chii",
    mv_pon: "call pon",
    mv_ron: "call ron",
    mv_tsumo: "declare tsumo",
    mv_other: "make another move",
    err_not_leader: "Only the player leading the review moves it.",
    err_no_review: "No review is open in this room.",
  },
  ja: {
    rv_review: "みんなで感想戦",
    rv_join: "感想戦に参加（{who}が進行）",
    rv_title: "第{n}戦の感想戦",
    rv_close: "感想戦を抜ける",
    rv_leave: "抜ける",
    rv_you_lead: "あなたが進行役です。あなたの操作で全員の画面が進みます。",
    rv_leads: "{who}が進行中。あなたの画面もついていきます。",
    rv_view: "見る席",
    rv_own: "自分の席",
    rv_open: "全員の手札を公開",
    rv_step: "{n}手中{i}手目",
    rv_deal: "配札",
    rv_timer: "ルールの時間切れ",
    rv_moved: "{who}の手番",
    rv_agree: "✓ CPUも同じ手を選びます。",
    rv_differ: "✗ CPUなら「{move}」を選びます。",
    rv_differ_hidden: "✗ CPUならここで別の手を選びます。",
    rv_none: "CPUならここでは何もせず、時間を待ちます。",
    rv_cpu_move: "CPUの手番です（評価なし）。",
    rv_loading: "CPUが対局を検討しています…",
    rv_preparing: "感想戦を準備中…{total}手中{done}手",
    rv_preparing_bar: "感想戦の準備の進み具合",
    rv_first: "最初の場面",
    rv_back: "一手戻る",
    rv_forward: "一手進む",
    rv_last: "最後の場面",
    rv_prev_diff: "前の不一致",
    rv_next_diff: "次の不一致",
    rv_summary: "まとめ",
    rv_table: "卓",
    rv_summary_title: "CPUとの一致率",
    rv_rate: "{who}：{m}手中{a}手がCPUと同じ手（{p}%）",
    rv_rate_none: "{who}：比べる手がありません",
    rv_largest: "大きな不一致：",
    rv_largest_item: "{i}手目",
    rv_size: "（CPUは{p}%の検討でこの手を選択）",
    rv_ended: "感想戦が終わりました。",
    rv_started: "{who}が第{n}戦の感想戦を始めました。",
    mv_play: "{card}を出す",
    mv_discard: "{card}を捨てる",
    mv_discard_knock: "{card}を捨ててノックする",
    mv_pass: "パスする",
    mv_grab: "取る",
    mv_next: "次へ進む",
    mv_mark: "{card}に印をつける",
    mv_unmark: "印を外す",
    mv_declare: "宣言する",
    mv_guess: "{value}と予想する",
    mv_pick: "{card}を選ぶ",
    mv_rotate_flip: "手札の向きを反対にする",
    mv_rotate_keep: "手札の向きをそのままにする",
    mv_draw_discard: "捨て札の一番上を取る",
    mv_draw_stock: "山から引く",
    mv_insert: "{card}を{n}番目に入れる",
    mv_insert_drawn: "引いた札を{n}番目に入れる",
    mv_knock: "ノックする",
    mv_chii: "チーする",
    mv_pon: "ポンする",
    mv_ron: "ロンする",
    mv_tsumo: "ツモを宣言する",
    mv_other: "別の手を指す",
    err_not_leader: "感想戦を進められるのは進行役だけです。",
    err_no_review: "この部屋では感想戦が開かれていません。",
  },
});

const STEP_SEND_MS = 100;
const POLL_MS = 1000;

/** A move in words ("discard White 3 / Black 6"), `card` the card it names or null. */
export function moveText(game, action, card) {
  const named = card ? cardName(game, card, lang()) : "";
  const type = action && action.type;
  if (type === "discard") return t(action.knock ? "mv_discard_knock" : "mv_discard", { card: named });
  if (type === "rotate") return t(action.flip ? "mv_rotate_flip" : "mv_rotate_keep");
  if (type === "draw") return t(action.from === "discard" ? "mv_draw_discard" : "mv_draw_stock");
  if (type === "guess") return t("mv_guess", { value: action.value });
  if (type === "insert") {
    const n = (action.pos ?? action.index ?? 0) + 1;
    return named ? t("mv_insert", { card: named, n }) : t("mv_insert_drawn", { n });
  }
  const key = "mv_" + type;
  const text = t(key, { card: named });
  return text === key ? t("mv_other") : text;
}

/**
 * The review of room `code` on its page. `send(frame)` sends on the room's socket,
 * `held()` the seats this device holds ([{seat, token}]), `watching()` whether it only
 * watches, `redraw()` draws the room page again. The page shows `element` instead of
 * the table while `active()`; `bar(room)` is the Review together (or Join) button.
 */
export function createReview(code, { send, held, watching, redraw }) {
  const element = el("section", { id: "review", class: "review", "aria-labelledby": "review-title" });
  const tableHolder = el("div", { id: "table-root", class: "review-table" });
  let session = null; // the latest open review_state
  // summary: null shows it at the last step only; true or false as the viewer chose.
  const local = { open: false, match: null, perspective: "", index: 0, summary: null, error: "" };
  let cache = null;
  let game = null;
  let reviews = new Map(); // perspective -> the review as that perspective sees it
  let preparing = null; // {done, total} while the server makes the review
  let pollTimer = null;
  let table = null;
  let tableFor = "";
  let stepTimer = null;

  const tokens = () => (watching() ? [] : held().map((s) => s.token));
  const mine = () => (watching() ? [] : held().map((s) => s.seat));
  const isPlayer = () => tokens().length > 0;
  const leads = () => Boolean(session && session.lead);
  const seats = () => (cache ? cache.info.seats : []);
  const who = (seat) => seatLabel(replaySeats(seats()), seat, local.perspective === "open" ? [] : mine());

  /**
   * A frame of the room's connection (true: handled here): review_state, and the refusal
   * of a step when the review has ended meanwhile (this device was away).
   */
  function onFrame(frame) {
    if (frame.t === "error" && frame.code === "no_review" && local.open) {
      local.open = false;
      notify(t("rv_ended"));
      redraw();
      return true;
    }
    if (frame.t !== "review_state") return false;
    const was = session;
    session = frame.open ? frame : null;
    if (session && session.following) {
      if (!local.open || local.match !== session.match) show(session.match);
      // The leader's own steps come back too; one still to be sent is newer.
      if (!(session.lead && stepTimer !== null)) goLocal(session.step);
    } else if (session && local.open) {
      open(session.match); // back after a reconnect: follow again
    } else if (!session && local.open) {
      local.open = false;
      notify(t("rv_ended"));
    } else if (session && !was && !session.lead) {
      notify(t("rv_started", { who: who(session.leader), n: session.match }));
    }
    redraw();
    return true;
  }

  /** Start showing match `number` here (the frames say which step). */
  function show(number) {
    local.open = true;
    local.match = number;
    local.index = 0;
    local.summary = null;
    local.error = "";
    local.perspective = isPlayer() ? String(mine()[0]) : "spectator";
    cache = createStepCache(code, number, tokens()[0]);
    reviews = new Map();
    preparing = null;
    if (table && table.destroy) table.destroy();
    table = null;
    load();
  }

  async function load() {
    try {
      if (!game) game = (await historyGet(`/api/rooms/${code}/matches`)).game;
      await cache.ensure(local.perspective, local.index);
      if (!reviews.has(local.perspective)) await fetchReview();
    } catch (err) {
      local.error = errorText(err);
    }
    if (local.open) redraw();
  }

  /** Ask for the review: kept once made; while it is made, its progress, asked again soon. */
  async function fetchReview() {
    const [match, perspective] = [local.match, local.perspective];
    const path = `/api/rooms/${code}/matches/${match}/review?seat=${perspective}`;
    const { status, data } = await historyAnswer(path, tokens()[0]);
    if (match !== local.match) return;
    if (status !== 202) {
      reviews.set(perspective, data);
      preparing = null;
      return;
    }
    preparing = { done: data.done, total: data.total };
    if (pollTimer === null) {
      pollTimer = setTimeout(() => {
        pollTimer = null;
        if (local.open && local.match === match) load();
      }, POLL_MS);
    }
  }

  /** "Preparing the review… 23 of 74 moves" and its bar (the review is being made). */
  function preparingLine(id) {
    return el("p", { id, class: "muted review-preparing", "data-agree": "loading" },
      el("span", { id: "review-progress-text", role: "status" }, t("rv_preparing", preparing)),
      el("progress", {
        id: "review-progress", max: String(Math.max(1, preparing.total)), value: String(preparing.done),
        "aria-label": t("rv_preparing_bar"),
      }));
  }

  function goLocal(step) {
    const last = cache && cache.info.total ? cache.info.total - 1 : step;
    const index = Math.max(0, Math.min(last, step));
    if (index !== local.index) local.summary = null; // a new step: the summary only at the last
    local.index = index;
    load();
  }

  /**
   * The leader's step: everyone's review moves with it. Steps taken quickly one after
   * another (a held arrow key) go out as the latest one, at most every STEP_SEND_MS,
   * within the connection's frame rate.
   */
  function go(step) {
    if (!leads()) return;
    goLocal(step);
    if (stepTimer === null) {
      stepTimer = setTimeout(() => {
        stepTimer = null;
        send({ t: "review_step", step: local.index });
      }, STEP_SEND_MS);
    }
  }

  function open(number) {
    send({ t: "review_open", match: number });
  }

  function close() {
    send({ t: "review_close" });
    local.open = false;
    redraw();
  }

  function marks() {
    const review = reviews.get(local.perspective);
    return review ? review.marks : [];
  }

  /** The step of the previous (-1) or next (1) difference from here, or null. */
  function difference(direction) {
    const steps = marks().filter((m) => m.agree === false).map((m) => m.step);
    const found = direction > 0 ? steps.find((s) => s > local.index) : steps.reverse().find((s) => s < local.index);
    return found === undefined ? null : found;
  }

  function button(id, label, onclick, text, disabled = false) {
    return el("button", { type: "button", id, class: "ghost review-button", "aria-label": label, title: label, onclick, disabled }, text);
  }

  /**
   * The Review together button (a player, once the match is over, no review on) or Join
   * (one on, not in it: also while the next match is played).
   */
  function bar(room) {
    if (local.open) return null;
    if (session && !session.following) {
      return el("button", {
        type: "button", id: "review-join", "data-key": "review-join", onclick: () => open(session.match),
      }, t("rv_join", { who: who(session.leader) }));
    }
    if (!isPlayer() || room.status !== "over") return null;
    return el("button", {
      type: "button", id: "review-open", "data-key": "review-open", class: "ghost", onclick: () => open(room.match),
    }, t("rv_review"));
  }

  function stepLine(step) {
    const shown = currentView(step);
    const sentences = step.events && step.events.length
      ? frameSentences(game, { events: step.events, seats: replaySeats(seats()), you: shown.you, view: shown.view }, null)
        .map((line) => line[lang()] || line.en)
      : [];
    const what = sentences.length ? sentences.join(t("ml_join")) : step.kind === "deal" ? t("rv_deal")
      : step.kind === "timer" ? t("rv_timer") : t("rv_moved", { who: who(step.seat) });
    return el("p", { id: "review-step", "data-step": String(step.step), "aria-live": "polite" },
      el("strong", {}, t("rv_step", { i: step.step + 1, n: cache.info.total })), " — ", what);
  }

  function markLine(step) {
    const review = reviews.get(local.perspective);
    if (!review && preparing) return preparingLine("review-mark");
    if (!review) return el("p", { id: "review-mark", class: "muted", "data-agree": "loading" }, t("rv_loading"));
    const mark = review.marks.find((m) => m.step === step.step);
    if (!mark) {
      const cpu = step.kind === "move" && (seats()[step.seat] || {}).kind !== "human";
      return el("p", { id: "review-mark", class: "muted", "data-agree": "none" }, cpu ? t("rv_cpu_move") : "");
    }
    if (mark.agree === true) return el("p", { id: "review-mark", class: "review-agree", "data-agree": "true" }, t("rv_agree"));
    if (mark.agree === null) return el("p", { id: "review-mark", class: "muted", "data-agree": "null" }, t("rv_none"));
    if (!mark.cpu) return el("p", { id: "review-mark", class: "review-differ", "data-agree": "false" }, t("rv_differ_hidden"));
    const why = mark.why ? mark.why[lang()] || mark.why.en : "";
    return el("p", { id: "review-mark", class: "review-differ", "data-agree": "false" },
      t("rv_differ", { move: moveText(game, mark.cpu, mark.card) }), " ", el("span", { class: "review-why" }, why));
  }

  function controls() {
    if (!leads()) {
      return el("p", { class: "muted", id: "review-leader" }, t("rv_leads", { who: who(session ? session.leader : 0) }));
    }
    const last = cache.info.total - 1;
    const prev = difference(-1);
    const next = difference(1);
    return el("div", { class: "review-controls", role: "toolbar", "aria-label": t("rv_title", { n: local.match }) },
      el("span", { class: "review-lead", id: "review-leader" }, t("rv_you_lead")),
      button("review-first", t("rv_first"), () => go(0), "|‹", local.index === 0),
      button("review-prev-diff", t("rv_prev_diff"), () => go(prev), "✗‹", prev === null),
      button("review-back", t("rv_back"), () => go(local.index - 1), "‹", local.index === 0),
      button("review-forward", t("rv_forward"), () => go(local.index + 1), "›", local.index >= last),
      button("review-next-diff", t("rv_next_diff"), () => go(next), "›✗", next === null),
      button("review-last", t("rv_last"), () => go(last), "›|", local.index >= last));
  }

  /** Whether the summary shows instead of the table. */
  function summaryShown() {
    return local.summary ?? (cache.info.total > 0 && local.index >= cache.info.total - 1);
  }

  function head() {
    const picker = isPlayer() ? el("select", {
      id: "review-view", "aria-label": t("rv_view"),
      onchange: (e) => { local.perspective = e.target.value; load(); redraw(); },
    }, el("option", { value: String(mine()[0]), selected: local.perspective !== "open" }, t("rv_own")),
    el("option", { value: "open", selected: local.perspective === "open" }, t("rv_open"))) : null;
    return el("div", { class: "review-head" },
      el("h2", { id: "review-title" }, t("rv_title", { n: local.match })),
      picker,
      el("button", {
        type: "button", id: "review-summary-toggle", class: "ghost review-button",
        onclick: () => { local.summary = !summaryShown(); redraw(); },
      }, cache && summaryShown() ? t("rv_table") : t("rv_summary")),
      el("button", {
        type: "button", id: "review-close", class: "ghost review-button", "aria-label": t("rv_close"),
        title: t("rv_close"), onclick: close,
      }, t("rv_leave")));
  }

  function summary() {
    const review = reviews.get(local.perspective);
    if (!review && preparing) return preparingLine("review-summary-preparing");
    if (!review) return el("p", { class: "muted" }, t("rv_loading"));
    const bySteps = new Map(review.marks.map((m) => [m.step, m]));
    return el("div", { id: "review-summary", class: "review-summary" },
      el("h3", {}, t("rv_summary_title")),
      el("ul", {}, review.players.map((p) => el("li", {
        id: `review-rate-${p.seat}`, "data-seat": String(p.seat), "data-agreed": String(p.agreed),
        "data-moves": String(p.moves),
      },
      el("strong", {}, p.moves ? t("rv_rate", { who: who(p.seat), a: p.agreed, m: p.moves, p: Math.round(p.rate * 100) })
        : t("rv_rate_none", { who: who(p.seat) })),
      p.largest.length ? el("div", { class: "review-largest" }, el("span", { class: "muted" }, t("rv_largest")),
        p.largest.map((s) => {
          const mark = bySteps.get(s) || {};
          const detail = mark.cpu ? " — " + moveText(game, mark.cpu, mark.card) : "";
          const size = mark.size ? t("rv_size", { p: Math.round(mark.size * 100) }) : "";
          const label = t("rv_largest_item", { i: s + 1 }) + detail + size;
          return leads()
            ? el("button", { type: "button", class: "ghost small", "data-step": String(s), onclick: () => { local.summary = false; go(s); } }, label)
            : el("span", { class: "review-largest-item", "data-step": String(s) }, label);
        })) : null))));
  }

  function currentView(step) {
    if (local.perspective === "open") {
      const side = mine()[0] ?? 0;
      const pick = (map) => (map ? map[side] || map[String(side)] : null);
      return { step, view: pick(step.views), you: [side], legal: pick(step.legal) || [] };
    }
    const you = local.perspective === "spectator" ? [] : [Number(local.perspective)];
    return { step, view: step.view, you, legal: step.legal || [] };
  }

  function drawTable(step) {
    const renderer = TABLES[game];
    if (!renderer) return;
    if (table && tableFor !== local.perspective) {
      if (table.destroy) table.destroy();
      table = null;
    }
    if (!table) {
      table = renderer.create(tableHolder);
      tableFor = local.perspective;
    }
    table.render(replayContext({ code, game, number: local.match, seats: seats(), ...currentView(step) }));
  }

  /** Draw the review (the room page calls it while `active()`). */
  function render() {
    if (local.error) {
      replaceKeepingFocus(element, head(), el("p", { class: "error", role: "alert" }, local.error));
      return;
    }
    const step = cache && cache.list(local.perspective)[local.index];
    if (!step || !game) {
      replaceKeepingFocus(element, head(), el("p", { class: "muted" }, t("rv_loading")));
      return;
    }
    replaceKeepingFocus(element, head(),
      el("div", { class: "review-bar" }, stepLine(step), markLine(step), controls()),
      summaryShown() ? summary() : tableHolder);
    if (!summaryShown()) drawTable(step);
  }

  function onKey(event) {
    if (!local.open || !leads() || event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowRight") go(local.index + 1);
    else if (event.key === "ArrowLeft") go(local.index - 1);
    else return;
    event.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  return {
    element, onFrame, bar, render,
    active: () => local.open,
    /** Whether this device may open a review of a finished match now (a player, not in one). */
    canOpen: () => isPlayer() && !local.open,
    open,
    destroy() {
      document.removeEventListener("keydown", onKey);
      clearTimeout(stepTimer);
      clearTimeout(pollTimer);
      if (table && table.destroy) table.destroy();
    },
  };
}
