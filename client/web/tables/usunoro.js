// The Usunoro table (rules text 000 and RULINGS section 1): hands, passing, tokens, grabs.
//
// Selecting a card is local until Exchange sends the marks (one per seat this browser
// holds). Grab buttons: one per held seat; with two seats F is Player 1 and J Player 2.
// With a single human seat the central tokens grab too. After a new hand is drawn the
// table reports "shown" so the server starts the CPUs' first-grab clocks.

import {
  el, frenchCard, frenchCardName, tableHeader, termAttrs,
} from "../components.js";
import { t } from "../i18n.js";
import { countdown } from "./countdown.js";
import { dock, fold, motionOf, paint, seatStrip, statusLine } from "./frame.js";
import { penaltiesText, placeLines, roundEnds, scoreLine } from "./round_end.js";
import { actionAttr } from "./suggest.js";

export const STRINGS = {
  en: {
    u_cd_mark: "{n} s to choose: then a card is passed for you",
    u_cd_idle: "{n} s without a move and the round is void",
    u_cd_race: "{n} s left to grab",
    u_confirm_title: "Grab without four of a kind?",
    u_confirm_text: "Your hand is not four of one rank: grabbing first now is an early grab and costs you a penalty.",
    u_confirm_yes: "Grab anyway",
    u_confirm_no: "Keep playing",
    u_confirm_off: "Don't ask me again",
  },
  ja: {
    u_cd_mark: "あと{n}秒で自動的にカードが渡されます",
    u_cd_idle: "あと{n}秒だれも動かなければこの回は無効になります",
    u_cd_race: "取れるのはあと{n}秒",
    u_confirm_title: "同じ数字4枚がそろっていませんが取りますか？",
    u_confirm_text: "手札は同じ数字4枚ではありません。いま最初に取ると早取りになり、罰点が1つつきます。",
    u_confirm_yes: "それでも取る",
    u_confirm_no: "交換を続ける",
    u_confirm_off: "次からは確認しない",
  },
};

const CONFIRM_KEY = "zashiki.usunoro.confirmGrab";
const IDLE_WARNING_MS = 30_000; // the idle void is shown once it is this close

/** Four cards of one rank (server/games/usunoro/rules.py is_matching). */
function matching(hand) {
  return Boolean(hand) && hand.length === 4 && new Set(hand.map((c) => c.slice(1))).size === 1;
}

/** This table sends "shown" itself, after each new hand is painted. */
export const REPORTS_SHOWN = true;

const GRAB_KEYS = ["f", "j"];

/** One table instance per room page; `render(ctx, root)` runs on every change. */
export function create(root) {
  const selection = new Map(); // seat -> locally selected card (before Exchange)
  let ctx = null;
  let shownHandSeq = null;
  let confirming = null; // the seat whose first grab waits for "Grab anyway"
  const ends = roundEnds(() => draw());

  function legal(seat) {
    return (ctx.message.legal || {})[seat] || [];
  }

  function viewOf(seat) {
    const views = ctx.message.views;
    return (views && (views[seat] || views[String(seat)])) || ctx.message.view;
  }

  function can(seat, type) {
    return legal(seat).some((a) => a.type === type);
  }

  function grab(seat, confirmed = false) {
    if (!can(seat, "grab")) return;
    const view = viewOf(seat);
    // An early grab is a rule of the game: asked about once, and it still costs the penalty.
    if (!confirmed && view.phase === "passing" && !matching(view.hand)
        && localStorage.getItem(CONFIRM_KEY) !== "off") {
      confirming = seat;
      draw();
      document.getElementById("grab-anyway")?.focus();
      return;
    }
    confirming = null;
    ctx.move(seat, { type: "grab" });
  }

  function confirmPanel() {
    if (confirming === null || !can(confirming, "grab") || viewOf(confirming).phase !== "passing") {
      confirming = null;
      return null;
    }
    const seat = confirming;
    return el("div", { class: "u-confirm", id: "grab-confirm", role: "alertdialog", "aria-labelledby": "grab-confirm-title", "aria-describedby": "grab-confirm-text" },
      el("strong", { id: "grab-confirm-title" }, t("u_confirm_title")),
      el("p", { id: "grab-confirm-text" }, t("u_confirm_text")),
      el("div", { class: "row" },
        el("button", { type: "button", id: "grab-anyway", "data-key": "grab-anyway", onclick: () => grab(seat, true) }, t("u_confirm_yes")),
        el("button", {
          type: "button", class: "ghost", id: "grab-cancel", "data-key": "grab-cancel", "data-focus-first": "",
          onclick: () => { confirming = null; draw(); },
        }, t("u_confirm_no"))),
      el("label", { class: "row check" }, el("input", {
        type: "checkbox", id: "grab-confirm-off",
        onchange: (e) => localStorage.setItem(CONFIRM_KEY, e.target.checked ? "off" : "on"),
      }), t("u_confirm_off")));
  }

  function deselect(seat) {
    selection.delete(seat);
    const view = viewOf(seat);
    if (view.mark && can(seat, "unmark")) ctx.move(seat, { type: "unmark" });
    draw();
  }

  function deselectAll() {
    for (const seat of ctx.you) deselect(seat);
  }

  function toggle(seat, card) {
    const view = viewOf(seat);
    const current = view.mark || selection.get(seat);
    if (current === card) {
      deselect(seat);
      return;
    }
    if (view.mark) {
      // Already sent: changing it is a new mark, allowed until the exchange runs.
      ctx.move(seat, { type: "mark", card });
    } else {
      selection.set(seat, card);
    }
    draw();
  }

  function exchange() {
    for (const seat of ctx.you) {
      const card = selection.get(seat);
      if (card && can(seat, "mark")) ctx.move(seat, { type: "mark", card });
    }
    selection.clear();
  }

  // The keys belong to the table: they act only while the player is on it, not while
  // they read or type somewhere else (the Rules or Settings panel open over the page, the
  // chat, any field), and never with a modifier (Ctrl+F is the browser's find).
  function keysForTable(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return false;
    if (document.querySelector("#rules-panel, #settings")) return false;
    const target = event.target;
    const onTable = target === document.body || target === document.documentElement || root.contains(target);
    return onTable && !target.closest("input, select, textarea, [contenteditable]:not([contenteditable=false])");
  }

  function onKey(event) {
    if (!ctx || !keysForTable(event)) return;
    if (event.key === "Escape") {
      deselectAll();
      return;
    }
    const index = GRAB_KEYS.indexOf(event.key.toLowerCase());
    if (index >= 0 && ctx.you[index] !== undefined) {
      event.preventDefault();
      grab(ctx.you[index]);
    }
  }
  document.addEventListener("keydown", onKey);

  function seatPanel(seat, view) {
    const mine = ctx.you.includes(seat);
    const taken = view.taken.includes(seat);
    return el("div", { class: `seat${mine ? " me" : ""}`, "data-seat": seat },
      el("div", { class: "name" }, ctx.seatLabel(seat)),
      el("div", {},
        taken ? el("span", { class: "badge strong", "data-taken": "", ...termAttrs("token") }, "✓ " + t("u_taken")) : null,
        view.phase === "passing"
          ? el("span", { class: "badge" }, view.marked[seat] ? "● " + t("u_marked") : "○ " + t("u_not_marked"))
          : null),
      el("div", termAttrs("penalty"), t("u_penalties", { n: view.penalties[seat] }) + " / " + view.penalty_limit));
  }

  function tokens(view) {
    const single = ctx.you.length === 1;
    const me = ctx.you[0];
    const list = [];
    for (let i = 0; i < 3; i++) {
      const left = i < view.tokens_left;
      // While a first grab waits for its confirmation, the tokens do not grab again.
      if (left && single && can(me, "grab") && confirming === null) {
        list.push(el("button", {
          type: "button", class: "token", "data-key": "token-" + i, "aria-label": t("u_grab"),
          onclick: () => grab(me),
        }, t("u_token")));
      } else {
        list.push(el("span", {
          class: `token${left ? "" : " gone"}`, role: "img",
          "aria-label": left ? t("u_token") : t("u_taken"),
        }, left ? t("u_token") : "—"));
      }
    }
    return el("div", { class: "center" },
      el("div", { class: "tokens", "aria-hidden": "false" }, list),
      el("div", { id: "tokens-left", role: "status", ...termAttrs("token") }, t("u_tokens_left", { n: view.tokens_left })));
  }

  function hand(seat, view, label) {
    const seatView = viewOf(seat);
    const cards = seatView.hand || [];
    const chosen = seatView.mark || selection.get(seat);
    const passing = seatView.phase === "passing" && can(seat, "mark");
    return el("div", { class: "hand-block my-hand", "data-hand": seat, id: seat === ctx.you[0] ? "my-hand" : null },
      el("div", { class: "row" }, el("strong", {}, label),
        passing && chosen
          ? el("button", {
            type: "button", class: "ghost", "data-key": "cancel-" + seat, onclick: () => deselect(seat),
          }, t("u_cancel"))
          : null),
      el("div", {
        class: "hand",
        onclick: (e) => { if (e.target === e.currentTarget && chosen) deselect(seat); },
      }, cards.map((card) => frenchCard(card, {
        selected: card === chosen,
        key: `card-${seat}-${card}`,
        onclick: passing ? () => toggle(seat, card) : undefined,
      }))),
      el("div", { class: "muted" },
        seatView.last_sent ? t("u_last_sent", { card: frenchCardName(seatView.last_sent) }) + " " : "",
        seatView.last_received ? t("u_last_received", { card: frenchCardName(seatView.last_received) }) : ""));
  }

  function otherHands(view) {
    // Open hands (same-device humans) during play, every hand once the round is over.
    return view.hands
      .map((cards, seat) => [cards, seat])
      .filter(([cards, seat]) => cards && !ctx.you.includes(seat))
      .map(([cards, seat]) => el("div", { class: "hand-block", "data-hand": seat },
        el("strong", {}, t("u_hand_of", { who: ctx.seatLabel(seat) })),
        el("div", { class: "hand" }, cards.map((card) => frenchCard(card)))));
  }

  /** The moves: Exchange / Next on the left, Grab on the right in a place of its own. */
  function controls(view) {
    const left = [];
    if (view.phase === "passing") {
      const unsent = ctx.you.filter((s) => !viewOf(s).mark && can(s, "mark"));
      if (unsent.length) {
        const ready = unsent.every((s) => selection.has(s));
        left.push(el("button", {
          type: "button", class: "big", id: "exchange", "data-key": "exchange", disabled: !ready, onclick: exchange,
        }, t("u_exchange")));
      }
    }
    const nextSeat = ctx.you.find((s) => can(s, "next"));
    if (nextSeat !== undefined) {
      left.push(el("button", {
        type: "button", class: "big", id: "next-round", "data-key": "next-round", "data-focus-first": "",
        onclick: () => ctx.move(nextSeat, { type: "next" }), ...actionAttr({ type: "next" }),
      }, t("u_next_round")));
    }
    const grabs = ctx.you.map((seat, i) => {
      const label = ctx.you.length > 1
        ? t("u_grab_player", { who: ctx.seatLabel(seat), key: GRAB_KEYS[i].toUpperCase() })
        : t("u_grab");
      return el("button", {
        type: "button", class: "big grab", "data-key": "grab-" + seat, "data-grab": seat,
        disabled: !can(seat, "grab"), onclick: () => grab(seat), ...actionAttr({ type: "grab" }),
      }, label);
    });
    return el("div", { class: "u-actions" },
      el("div", { class: "controls u-left" }, left),
      el("div", { class: "controls u-grab" }, grabs));
  }

  /** The rule timer that will act for this player next (PROTOCOL.md "Rule timers"). */
  function timer(view) {
    if (!ctx.you.length) return null;
    const game = (ctx.message.room || {}).game_ms || 0;
    const unmarked = ctx.you.some((s) => !viewOf(s).mark);
    let deadline = null;
    let key = null;
    if (view.phase === "race" && ctx.you.some((s) => can(s, "grab"))) [deadline, key] = [view.void_at, "u_cd_race"];
    else if (view.phase === "passing" && unmarked && view.mark_deadline !== null) [deadline, key] = [view.mark_deadline, "u_cd_mark"];
    else if (view.phase === "passing" && view.idle_deadline !== null && view.idle_deadline - game < IDLE_WARNING_MS) {
      [deadline, key] = [view.idle_deadline, "u_cd_idle"];
    }
    if (deadline === null || deadline === undefined) return null;
    return countdown({
      id: "usunoro-countdown", message: ctx.message, deadline, label: (n) => t(key, { n }),
    });
  }

  function statusText(view) {
    if (view.phase === "passing") {
      const waiting = ctx.you.length && ctx.you.every((s) => viewOf(s).mark);
      return waiting ? t("u_waiting_others") : t("u_phase_passing");
    }
    return view.match_over ? t("u_match_over") : t("u_phase_" + view.phase);
  }

  function roundResult(view) {
    if (!view.result || (view.phase !== "done" && view.phase !== "void")) return ends.show({ key: null });
    const { penalised, reason } = view.result;
    let text = t("u_void_reason");
    if (penalised !== null && penalised !== undefined) {
      text = t(reason === "early_grab" ? "u_early_grab" : "u_round_penalty", { who: ctx.seatLabel(penalised) });
    }
    const outcome = ctx.message.outcome;
    // Any seated human deals the next hand; CPUs never do.
    const humans = (ctx.seats || []).map((s, i) => [s, i])
      .filter(([s, i]) => s && s.kind === "human" && !ctx.you.includes(i)).map(([, i]) => ctx.seatLabel(i));
    return ends.show({
      key: `${view.round}-${view.phase}`,
      title: view.match_over ? t("u_match_over") : t("u_phase_" + view.phase),
      waitingFor: view.match_over ? null : humans,
      waitsForMe: !view.match_over && ctx.you.some((s) => can(s, "next")),
      body: [
        el("p", {}, text),
        // Every hand revealed at the round's end, in sight with the result.
        otherHands(view).length ? el("div", { class: "hands revealed", id: "revealed-hands" }, otherHands(view)) : null,
        el("p", {}, t("u_penalties", { n: scoreLine(ctx, view.penalties) })),
        outcome ? el("div", {},
          el("p", {}, t("u_loser", { who: ctx.seatLabel(outcome.loser) })),
          placeLines(ctx, outcome.places, (seat) => penaltiesText(outcome.penalties[seat]))) : null,
      ],
    });
  }

  function ranges(view) {
    const current = (ctx.room && ctx.room.difficulty) || null;
    return fold("ranges", t("u_cpu_ranges"),
      el("table", { class: "ranges panel", id: "cpu-ranges" },
        el("tr", {}, el("th", {}, ""), el("th", {}, t("u_first_grab")), el("th", {}, t("u_follow_up"))),
        Object.entries(view.timing).map(([difficulty, times]) => el("tr", {
          class: difficulty === current ? "current" : "",
        }, el("th", {}, t("difficulty_" + difficulty)),
        el("td", {}, times.first_grab.join("–")), el("td", {}, times.follow_up.join("–"))))));
  }

  function draw() {
    if (!ctx) return;
    const view = ctx.message.view;
    if (view.phase !== "passing") selection.clear();
    const myHands = ctx.you.map((seat) => hand(seat, view,
      ctx.you.length > 1 ? t("u_hand_of", { who: ctx.seatLabel(seat) }) : t("u_your_hand")));
    const result = roundResult(view);
    paint(root,
      el("div", { class: "table usunoro-table", "data-phase": view.phase },
        result.top,
        tableHeader(ctx, [
          t("u_round", { n: view.round }),
          t("u_exchanges", { n: view.exchanges, cap: view.exchange_cap }),
          t("u_direction", { dir: t("u_dir_" + view.direction) }),
        ]),
        seatStrip([0, 1, 2, 3].map((seat) => seatPanel(seat, view))),
        tokens(view),
        // Open hands during play (same-device seats); at the round's end the result shows them.
        !result.top && otherHands(view).length ? el("div", { class: "hands" }, otherHands(view)) : null,
        dock(statusLine(statusText(view)), timer(view), myHands, confirmPanel() || controls(view)),
        result.below,
        ranges(view)), motionOf(ctx.message));
    if (view.hand_seq !== shownHandSeq && ctx.you.length) {
      shownHandSeq = view.hand_seq;
      // Report only once the browser has painted the new hand.
      requestAnimationFrame(() => requestAnimationFrame(() => ctx.send({ t: "shown" })));
    }
  }

  return {
    render(context) {
      ctx = context;
      draw();
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
    },
  };
}
