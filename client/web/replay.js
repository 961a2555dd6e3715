// The replay viewer ("/?room=CODE&replay=N"): a finished match step by step, on the
// game's own table (tables/*, fed with the views the server rebuilt through the engine).
// Players of the room choose whose eyes to see through (any seat, or every hand open);
// anyone else sees the spectator view only. Steps come in pages from
// GET /api/rooms/{code}/matches/{n}/steps and are kept per perspective.

import { seatStore } from "./net.js";
import { addStrings, lang, t } from "./i18n.js";
import { el, frenchCard, replaceKeepingFocus, seatLabel } from "./components.js";
import { unoCard, unsunCard, utsukeCard } from "./cards_tricks.js";
import { shiroCard } from "./shirokuro.js";
import { TABLES } from "./tables/index.js";
import { errorText, gameName, main, notify } from "./page.js";
import { historyGet, matchTime } from "./history.js";
import { frameSentences } from "./move_log.js";

addStrings({
  en: {
    r_title: "Replay of match {n}",
    r_back_to_room: "Back to the room",
    r_perspective: "Whose eyes",
    r_seat_side: "Seat {n}'s view ({who})",
    r_open: "Every hand open",
    r_spectator: "Spectator view",
    r_spectator_only: "You hold no seat in this room, so the replay shows the spectator view only.",
    r_table_side: "Table from",
    r_step: "Step {i} of {n}",
    r_round: "round {r}",
    r_trick: "trick {k}",
    r_deal: "The deal",
    r_moved: "{who} moved",
    r_timer: "A rule timer ran out",
    r_first: "First step",
    r_last: "Last step",
    r_back: "One step back",
    r_forward: "One step forward",
    r_prev_round: "Previous round",
    r_next_round: "Next round",
    r_prev_trick: "Previous trick",
    r_next_trick: "Next trick",
    r_play: "Play",
    r_pause: "Pause",
    r_speed: "Speed",
    r_speed_n: "{n} steps a second",
    r_hands: "Every hand",
    r_no_cards: "no cards",
    r_loading: "Loading the replay…",
    r_no_moves: "This is a replay: moves are not sent.",
    r_game_time: "{s} s into the match",
    r_ended: "Finished {when}",
    err_match_not_found: "This room has no finished match with that number.",
  },
  ja: {
    r_title: "第{n}戦の再生",
    r_back_to_room: "部屋に戻る",
    r_perspective: "誰の目で見るか",
    r_seat_side: "{n}番席から見た場面（{who}）",
    r_open: "全員の手札を公開",
    r_spectator: "観戦者の視点",
    r_spectator_only: "この部屋の席を持っていないため、観戦者の視点だけを再生します。",
    r_table_side: "卓の向き",
    r_step: "{n}手中{i}手目",
    r_round: "第{r}局",
    r_trick: "第{k}トリック",
    r_deal: "配札",
    r_moved: "{who}の手番",
    r_timer: "ルールの時間切れ",
    r_first: "最初の場面",
    r_last: "最後の場面",
    r_back: "一手戻る",
    r_forward: "一手進む",
    r_prev_round: "前の局",
    r_next_round: "次の局",
    r_prev_trick: "前のトリック",
    r_next_trick: "次のトリック",
    r_play: "再生",
    r_pause: "一時停止",
    r_speed: "速さ",
    r_speed_n: "毎秒{n}手",
    r_hands: "全員の手札",
    r_no_cards: "札なし",
    r_loading: "再生を準備中…",
    r_no_moves: "これは再生です。手は送られません。",
    r_game_time: "開始から{s}秒",
    r_ended: "{when}に終了",
    err_match_not_found: "この部屋にはその番号の終わった対戦がありません。",
  },
});

const PAGE = 50;
const SPEEDS = [1, 2, 4, 8];
const CARDS = {
  usunoro: (c) => frenchCard(c),
  hachinin_meri: (c) => unsunCard(c),
  utsuke: (c) => utsukeCard(c),
  junocos: (c) => unoCard(c),
  kokuto_rum: (c) => shiroCard(c),
  shirokuro_jong: (c) => shiroCard(c),
};

/**
 * The steps of match `number` of room `code`, loaded a page at a time and kept per
 * perspective (a seat number, "open" or "spectator"). `info` has the match's step count
 * and seats once a page has come. review.js shares it.
 */
export function createStepCache(code, number, token) {
  const cache = new Map();
  const info = { total: 0, seats: [] };
  const list = (perspective) => {
    if (!cache.has(perspective)) cache.set(perspective, []);
    return cache.get(perspective);
  };
  /** Step `i` from `perspective`, loaded first when needed. */
  async function ensure(perspective, i) {
    const steps = list(perspective);
    let from = Math.floor(i / PAGE) * PAGE;
    while (!steps[i]) {
      const answer = await historyGet(
        `/api/rooms/${code}/matches/${number}/steps?seat=${perspective}&from=${from}&count=${PAGE}`, token);
      info.total = answer.steps_total;
      info.seats = answer.seats;
      for (const step of answer.steps) steps[step.step] = step;
      if (answer.next === null || answer.next === undefined || answer.next > i) break;
      from = answer.next;
    }
    return steps[i];
  }
  return { info, list, ensure };
}

/** The seats as a replayed table lists them (nobody connected, nobody covered). */
export function replaySeats(seats) {
  return seats.map((s) => ({ kind: s.kind, name: s.name, covered: false, connected: false, difficulty: null }));
}

/**
 * What a game's table is given for a replayed step: the step's view and the moves the
 * seat could make then, as the room sent them live; a replay sends nothing (a move only
 * says so). review.js shares it.
 */
export function replayContext({ code, game, number, seats, step, view, you, legal }) {
  const listed = replaySeats(seats);
  const message = {
    t: "view", version: step.step + 1, view, legal: you.length ? { [you[0]]: legal } : {},
    you, seats: listed, events: [], seqs: {},
    room: {
      code, game, status: step.outcome ? "over" : "playing", match: number,
      paused: false, running: false, game_ms: step.t, host: -1, can_pause: false,
    },
  };
  if (step.outcome) message.outcome = step.outcome;
  return {
    message, you, seats: listed, room: message.room,
    move: () => notify(t("r_no_moves")), send: () => {}, openSettings: () => {}, notify,
    seatLabel: (seat) => seatLabel(listed, seat, you),
  };
}

/** The replay page of match `number` of room `code`; returns {rerender, teardown}. */
export function showReplay(code, number) {
  const tokens = seatStore.get(code).map((s) => s.token);
  const mine = seatStore.get(code).map((s) => s.seat);
  const isPlayer = tokens.length > 0;
  const page = {
    game: null, match: null, total: 0, index: 0, error: "",
    perspective: isPlayer ? String(mine[0]) : "spectator",
    side: isPlayer ? mine[0] : 0, playing: false, speed: 2,
  };
  const loaded = createStepCache(code, number, tokens[0]);
  const tableHolder = el("div", { id: "table-root", class: "replay-table" });
  let table = null;
  let tableFor = null;
  let timer = null;
  let seats = [];

  const steps = () => loaded.list(page.perspective);

  /** Make sure step `i` of the current perspective is loaded. */
  async function ensure(i) {
    const step = await loaded.ensure(page.perspective, i);
    page.total = loaded.info.total;
    seats = loaded.info.seats;
    return step;
  }

  async function go(i) {
    if (!page.total) return;
    page.index = Math.max(0, Math.min(page.total - 1, i));
    try {
      await ensure(page.index);
    } catch (err) {
      page.error = errorText(err);
    }
    render();
  }

  const roundKey = (s) => JSON.stringify(s.round);
  const trickKey = (s) => JSON.stringify([s.round, s.trick]);

  /** The next step whose `key` differs from the current one's (the last step if none). */
  async function forwardTo(key) {
    const now = key(await ensure(page.index));
    for (let i = page.index + 1; i < page.total; i++) {
      if (key(await ensure(i)) !== now) return go(i);
    }
    return go(page.total - 1);
  }

  /** The start of the current round/trick, or of the one before when already there. */
  async function backTo(key) {
    const startOf = async (i) => {
      const k = key(await ensure(i));
      while (i > 0 && key(await ensure(i - 1)) === k) i--;
      return i;
    };
    const start = await startOf(page.index);
    return go(start < page.index || start === 0 ? start : await startOf(start - 1));
  }

  function stop() {
    page.playing = false;
    clearTimeout(timer);
    timer = null;
  }

  function tick() {
    if (!page.playing) return;
    if (page.index >= page.total - 1) {
      stop();
      render();
      return;
    }
    go(page.index + 1).then(() => {
      if (page.playing) timer = setTimeout(tick, 1000 / page.speed);
    });
  }

  function togglePlay() {
    if (page.playing) stop();
    else {
      page.playing = true;
      if (page.index >= page.total - 1) page.index = 0;
      timer = setTimeout(tick, 1000 / page.speed);
    }
    render();
  }

  function setPerspective(value) {
    page.perspective = value;
    go(page.index);
  }

  const publicSeats = () => replaySeats(seats);

  function viewer() {
    const step = steps()[page.index];
    if (!step) return null;
    if (page.perspective === "open") {
      const pick = (map) => (map ? map[page.side] || map[String(page.side)] : null);
      return { step, view: pick(step.views), you: [page.side], legal: pick(step.legal) || [] };
    }
    const you = page.perspective === "spectator" ? [] : [Number(page.perspective)];
    return { step, view: step.view, you, legal: step.legal || [] };
  }

  const tableContext = (shown) => replayContext({ code, game: page.game, number, seats, ...shown });

  function drawTable(shown) {
    const renderer = TABLES[page.game];
    if (!renderer) return;
    const key = `${page.perspective}/${page.side}`;
    if (table && tableFor !== key) {
      if (table.destroy) table.destroy();
      table = null;
    }
    if (!table) {
      table = renderer.create(tableHolder);
      tableFor = key;
    }
    table.render(tableContext(shown));
  }

  function who(seat) {
    return seatLabel(publicSeats(), seat, page.perspective === "open" ? [] : mine);
  }

  /**
   * The step's events as the move log says them (move_log.js), from the perspective's
   * eyes: "you" and a seat's own hidden cards only for this player's own seat.
   */
  function stepSentences(step, shown) {
    if (!step.events || !step.events.length) return [];
    const seat = Number(page.perspective);
    const you = Number.isInteger(seat) && mine.includes(seat) ? [seat] : [];
    const before = steps()[step.step - 1];
    const prev = before ? before.view || (before.views && (before.views[page.side] || before.views[String(page.side)])) : null;
    const message = { events: step.events, seats: publicSeats(), you, view: shown.view };
    return frameSentences(page.game, message, prev || null).map((line) => line[lang()] || line.en);
  }

  function stepLine(step, shown) {
    const parts = [t("r_step", { i: step.step + 1, n: page.total })];
    if (step.round !== null && step.round !== undefined) parts.push(t("r_round", { r: step.round }));
    if (step.trick !== null && step.trick !== undefined) parts.push(t("r_trick", { k: step.trick + 1 }));
    const said = stepSentences(step, shown);
    const what = said.length ? said.join(t("ml_join")) : step.kind === "deal" ? t("r_deal")
      : step.kind === "timer" ? t("r_timer") : t("r_moved", { who: who(step.seat) });
    return el("p", {
      id: "replay-step", "aria-live": page.playing ? "off" : "polite",
      "data-step": String(step.step), "data-perspective": page.perspective,
    },
      el("strong", {}, parts.join(" · ")), " — ", what,
      el("span", { class: "muted" }, " · " + t("r_game_time", { s: (step.t / 1000).toFixed(1) })));
  }

  function button(id, label, onclick, text) {
    return el("button", {
      type: "button", id, class: "ghost replay-button", "aria-label": label, title: label, onclick,
    }, text);
  }

  /** The toolbar, built once per layout; `updateControls` sets what may be pressed. */
  function controls(tricks) {
    return el("div", { class: "replay-controls", role: "toolbar", "aria-label": t("r_title", { n: number }) },
      button("replay-first", t("r_first"), () => go(0), "|‹"),
      button("replay-prev-round", t("r_prev_round"), () => backTo(roundKey), "«"),
      tricks ? button("replay-prev-trick", t("r_prev_trick"), () => backTo(trickKey), "‹‹") : null,
      button("replay-back", t("r_back"), () => go(page.index - 1), "‹"),
      el("button", { type: "button", id: "replay-play", class: "replay-button", onclick: togglePlay }),
      button("replay-forward", t("r_forward"), () => go(page.index + 1), "›"),
      tricks ? button("replay-next-trick", t("r_next_trick"), () => forwardTo(trickKey), "››") : null,
      button("replay-next-round", t("r_next_round"), () => forwardTo(roundKey), "»"),
      button("replay-last", t("r_last"), () => go(page.total - 1), "›|"),
      el("label", { class: "replay-speed" }, t("r_speed") + " ",
        el("select", {
          id: "replay-speed",
          onchange: (e) => { page.speed = Number(e.target.value); },
        }, SPEEDS.map((n) => el("option", { value: String(n), selected: n === page.speed }, t("r_speed_n", { n }))))));
  }

  function updateControls(bar) {
    const atStart = page.index === 0;
    const atEnd = page.index >= page.total - 1;
    for (const node of bar.querySelectorAll("button")) {
      const backwards = ["replay-first", "replay-prev-round", "replay-prev-trick", "replay-back"];
      if (node.id === "replay-play") {
        node.textContent = page.playing ? t("r_pause") : t("r_play");
        node.setAttribute("aria-pressed", String(page.playing));
      } else {
        node.disabled = backwards.includes(node.id) ? atStart : atEnd;
      }
    }
  }

  function perspectivePicker() {
    if (!isPlayer) return el("p", { class: "muted", id: "replay-spectator-only" }, t("r_spectator_only"));
    const options = seats.map((s, i) => el("option", {
      value: String(i), selected: page.perspective === String(i),
    }, t("r_seat_side", { n: i + 1, who: who(i) })));
    options.push(el("option", { value: "open", selected: page.perspective === "open" }, t("r_open")));
    options.push(el("option", { value: "spectator", selected: page.perspective === "spectator" }, t("r_spectator")));
    const picker = el("div", { class: "field replay-perspective" },
      el("label", { for: "replay-perspective" }, t("r_perspective")),
      el("select", { id: "replay-perspective", onchange: (e) => setPerspective(e.target.value) }, options));
    if (page.perspective !== "open") return picker;
    return el("div", {}, picker, el("div", { class: "field" },
      el("label", { for: "replay-side" }, t("r_table_side")),
      el("select", {
        id: "replay-side", onchange: (e) => { page.side = Number(e.target.value); render(); },
      }, seats.map((s, i) => el("option", { value: String(i), selected: page.side === i }, who(i))))));
  }

  function hands(step) {
    const card = CARDS[page.game] || ((c) => el("span", {}, String(c)));
    return seats.map((_, i) => {
      const view = step.views[i] || step.views[String(i)] || {};
      const hand = Array.isArray(view.hand) ? view.hand : [];
      return el("div", { class: "replay-hand", "data-seat": String(i) },
        el("p", { class: "label" }, who(i)),
        el("div", { class: "hand" }, hand.length ? hand.map((c) => card(c)) : el("span", { class: "muted" }, t("r_no_cards"))));
    });
  }

  let shell = null; // the page's fixed parts while the layout stays the same

  function header() {
    const title = el("h1", {}, t("r_title", { n: number }),
      page.game ? el("span", { class: "muted" }, " · " + gameName(page.game)) : null,
      el("span", { class: "muted" }, " · " + t("room_title", { code })));
    const back = el("p", {}, el("a", { href: `/?room=${code}`, id: "replay-back-to-room" }, t("r_back_to_room")),
      page.match && page.match.ended ? el("span", { class: "muted" }, " · " + t("r_ended", { when: matchTime(page.match.ended) })) : null);
    return [title, back];
  }

  /**
   * Draw the current step. The page's layout (picker, toolbar, table, hands) is built
   * only when the language, perspective or side changes; a step only refreshes the step
   * line, the toolbar's state, the hands and the table, so buttons stay put while the
   * replay plays.
   */
  function render() {
    if (page.error) {
      shell = null;
      replaceKeepingFocus(main, ...header(), el("p", { class: "error", role: "alert" }, page.error));
      return;
    }
    const shown = viewer();
    if (!shown) {
      shell = null;
      replaceKeepingFocus(main, ...header(), el("p", {}, t("r_loading")));
      return;
    }
    const tricks = shown.step.trick !== null && shown.step.trick !== undefined;
    const layout = [lang(), page.perspective, page.side, tricks, seats.length].join("|");
    if (!shell || shell.layout !== layout) {
      shell = {
        layout,
        stepBox: el("div", { class: "replay-step-box" }),
        bar: controls(tricks),
        hands: page.perspective === "open"
          ? el("section", { class: "panel replay-hands", id: "replay-hands", "aria-labelledby": "replay-hands-title" })
          : null,
      };
      replaceKeepingFocus(main, ...header(),
        el("section", { class: "panel replay-bar", id: "replay-bar" }, perspectivePicker(), shell.stepBox, shell.bar),
        ...[tableHolder, shell.hands].filter(Boolean));
    }
    shell.stepBox.replaceChildren(stepLine(shown.step, shown));
    updateControls(shell.bar);
    if (shell.hands) {
      shell.hands.replaceChildren(el("h2", { id: "replay-hands-title" }, t("r_hands")), ...hands(shown.step));
    }
    drawTable(shown);
  }

  function onKey(event) {
    if (event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowRight") go(page.index + 1);
    else if (event.key === "ArrowLeft") go(page.index - 1);
    else return;
    event.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  async function open() {
    try {
      const listing = await historyGet(`/api/rooms/${code}/matches`);
      page.game = listing.game;
      page.match = listing.matches.find((m) => m.match === number) || null;
      if (!page.match) throw Object.assign(new Error(""), { code: "match_not_found" });
      seats = page.match.seats;
      page.total = page.match.steps;
      await ensure(0);
    } catch (err) {
      page.error = errorText(err);
    }
    render();
  }

  render();
  open();
  return {
    rerender: render,
    teardown() {
      stop();
      document.removeEventListener("keydown", onKey);
      if (table && table.destroy) table.destroy();
    },
  };
}
