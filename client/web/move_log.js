// The move log: every event a seat receives, said as a sentence in English and Japanese
// ("Ben played the Guru (tomoe) 7", "CPU 3 claimed Pon on Aki's White 4 / Black 2").
//
// A sentence is built only from what the seat may know: the frame's events (public facts),
// the seat's own view of that frame and the one before, and the seats' names. A card is
// named only when an event or the seat's view names it; another seat's hidden card never
// is (the seat's own mark, discard or drawn card comes from its own view).
//
// `describeEvent` is pure (no page state): the room page feeds `createMoveLog().update`
// each view frame, and a replay step's events go through the same function.

import { addStrings, lang, tIn } from "./i18n.js";
import { el } from "./components.js";
import { CARD_STRINGS } from "./cards_tricks.js";
import { SHIRO_STRINGS } from "./shirokuro.js";
import { MOVE_LOG_STRINGS } from "./move_log_strings.js";

addStrings(CARD_STRINGS);
addStrings(SHIRO_STRINGS);
addStrings(MOVE_LOG_STRINGS);

export const LANGS = ["en", "ja"];
const KEEP = 300; // lines the log keeps (the oldest go first)

// -- card names, as the tables say them ------------------------------------------------

const shiroValue = (l, text) => tIn(l, "sk_value", { colour: tIn(l, "sk_colour_" + text[0]), n: text[1] });

/** A Shirokuro card text held either way ("B5/W2") as its loose form ("W2/B5"). */
export function looseText(text) {
  return text[0] === "W" ? text : `${text.slice(3)}/${text.slice(0, 2)}`;
}

const CARD_NAMES = {
  usunoro: (l, c) => tIn(l, "card_name", { rank: tIn(l, "rank_" + c.slice(1)), suit: tIn(l, "suit_" + c[0]) }),
  hachinin_meri: (l, c) => tIn(l, "us_card", { rank: tIn(l, "us_rank_" + c.slice(1)), suit: tIn(l, "us_suit_" + c[0]) }),
  utsuke: (l, c) => tIn(l, "ut_card", { n: c.slice(1), colour: tIn(l, "colour_" + c[0]) }),
  junocos: (l, c) => tIn(l, "uno_card", { value: c[1] === "S" ? tIn(l, "uno_skip") : c[1], colour: tIn(l, "colour_" + c[0]) }),
  kokuto_rum: (l, c) => {
    const loose = looseText(c);
    return tIn(l, "sk_pair", { a: shiroValue(l, loose.slice(0, 2)), b: shiroValue(l, loose.slice(3)) });
  },
};
CARD_NAMES.shirokuro_jong = CARD_NAMES.kokuto_rum;

/** The name of card `code` of `game` in language `l`, as the move log says it. */
export function cardName(game, code, l) {
  const name = CARD_NAMES[game];
  return name && typeof code === "string" ? name(l, code) : String(code);
}

// -- the sentence builder ----------------------------------------------------------------

/**
 * The sentence for one event, in both languages: {en, ja, known} (`known` false: an event
 * this module has no sentence for, said as "The table changed."). `ctx`: {game, seats,
 * you (held seats), view (the seat's view after the frame), prev (its view before, or
 * null), events (the frame's events, for a sentence that needs its neighbours)}.
 */
export function describeEvent(event, ctx) {
  const build = (BUILDERS[ctx.game] && BUILDERS[ctx.game][event.type]) || COMMON[event.type];
  const out = { type: event.type, known: Boolean(build) };
  for (const l of LANGS) {
    const say = speaker(l, ctx);
    out[l] = build ? build(say, event) : say.t("ml_unknown");
  }
  return out;
}

/** What a builder uses to say things in language `l` (seat_acts.js says its short words with it too). */
export function speaker(l, ctx) {
  const you = ctx.you || [];
  const seats = ctx.seats || [];
  const alone = you.length === 1;
  const say = {
    ctx,
    t: (key, params = {}) => tIn(l, key, params),
    /** A seat (or Utsuke's "lord"/"prince") as the subject: "You", "Aki", "CPU 3". */
    who(seat) {
      return name(seat, false);
    },
    /** The same seat anywhere else in a sentence: "you" in English. */
    whom(seat) {
      return name(seat, true);
    },
    /** True when `seat` is this device's only seat (sentences about "your" hidden card). */
    mine: (seat) => alone && you[0] === seat,
    card: (code) => cardName(ctx.game, code, l),
    cards: (codes) => codes.map((c) => cardName(ctx.game, c, l)).join(tIn(l, "ml_sep")),
    list: (items) => items.join(tIn(l, "ml_sep")),
    /** "Aki 35, Ben 35, CPU 3 42" for one number per seat. */
    perSeat: (numbers, key = "ml_item", field = "n") => numbers
      .map((n, seat) => tIn(l, key, { who: name(seat, true), [field]: n, p: n }))
      .join(tIn(l, "ml_sep")),
    /** "1st Aki, 2nd you, …" for one place per seat, best first. */
    places: (places) => places.map((place, seat) => [place, seat])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .map(([place, seat]) => tIn(l, "ml_place_item", { place: tIn(l, "ml_ord_" + place), who: name(seat, true) }))
      .join(tIn(l, "ml_sep")),
  };
  function name(seat, object) {
    if (seat === "lord" || seat === "prince") return tIn(l, `ml_ut_${seat}${object ? "_object" : ""}`);
    if (you.includes(seat)) {
      if (!alone) return tIn(l, "player_n", { n: you.indexOf(seat) + 1 });
      return tIn(l, object ? "ml_you_object" : "you");
    }
    const info = seats[seat] || {};
    if (info.name) return info.name;
    if (info.kind === "cpu") return tIn(l, "cpu_n", { n: seat + 1 });
    return tIn(l, "seat_n", { n: seat + 1 });
  }
  return say;
}

/** The seat's own view (a same-device message carries one per seat). */
export function ownView(ctx, seat) {
  if (ctx.views) return ctx.views[seat] || ctx.views[String(seat)] || null;
  return (ctx.you || [])[0] === seat ? ctx.view : null;
}

// Room events, in every game.
const COMMON = {
  match_started: (s, e) => s.t("ml_match_started", { n: e.match }),
  paused: (s, e) => (typeof e.by === "number" ? s.t("ml_paused", { who: s.who(e.by) }) : s.t("ml_paused_anon")),
  resumed: (s, e) => (typeof e.by === "number" ? s.t("ml_resumed", { who: s.who(e.by) }) : s.t("ml_resumed_anon")),
  seat_left: (s, e) => s.t("ml_seat_left", { who: s.who(e.seat) }),
  seat_handed: (s, e) => s.t("ml_seat_handed", { who: s.who(e.seat) }),
  // Seat clocks (seat_clock.js): a bank ran out, a days room's vacation began or ended.
  time_out: (s, e) => s.t("ml_time_out", { whom: s.whom(e.seat) }),
  vacation: (s, e) => s.t(s.mine(e.seat) ? "ml_vacation_you" : "ml_vacation", { who: s.who(e.seat) }),
  back: (s, e) => s.t(s.mine(e.seat) ? "ml_back_you" : "ml_back", { who: s.who(e.seat) }),
  match_over: (s, e) => s.t("ml_match_over", { list: s.places(e.places) }),
  game_over: (s, e) => s.t("ml_match_over", { list: s.places(e.places) }),
};

const USUNORO = {
  deal: (s, e) => s.t("ml_u_deal", { n: e.round }),
  hand_shown: (s) => s.t("ml_u_hand_shown"),
  marked(s, e) {
    const view = s.mine(e.seat) ? ownView(s.ctx, e.seat) : null;
    // The last mark of a pass is exchanged at once: the view then shows it as sent.
    const exchanged = s.ctx.events.some((x) => x.type === "exchange");
    const card = view ? (exchanged ? view.last_sent : view.mark) : null;
    return card ? s.t("ml_u_marked_card", { card: s.card(card) }) : s.t("ml_u_marked", { who: s.who(e.seat) });
  },
  unmarked: (s, e) => s.t("ml_u_unmarked", { who: s.who(e.seat) }),
  auto_marked: (s, e) => s.t("ml_u_auto_marked", { list: s.list(e.seats.map((seat) => s.whom(seat))) }),
  exchange(s, e) {
    const me = (s.ctx.you || [])[0];
    const view = s.mine(me) ? ownView(s.ctx, me) : null;
    const step = view && view.direction === "previous" ? -1 : 1;
    if (view && view.last_sent && view.last_received) {
      const n = (view.hands || []).length || 4;
      return s.t("ml_u_exchange_mine", {
        n: e.count, sent: s.card(view.last_sent), got: s.card(view.last_received),
        to: s.whom((me + step + n) % n), from: s.whom((me - step + n) % n),
      });
    }
    const direction = s.ctx.view && s.ctx.view.direction === "previous" ? "previous" : "next";
    return s.t("ml_u_exchange", { n: e.count, dir: s.t("ml_u_dir_" + direction) });
  },
  first_grab: (s, e) => s.t("ml_u_first_grab", { who: s.who(e.seat) }),
  early_grab: (s, e) => s.t("ml_u_early_grab", { who: s.who(e.seat) }),
  grab: (s, e) => s.t("ml_u_grab", { who: s.who(e.seat) }),
  round_over: (s, e) => s.t(e.reason === "early_grab" ? "ml_u_penalty_early_grab" : "ml_u_penalty_no_token",
    { who: s.who(e.penalised) }),
  void: (s, e) => s.t("ml_u_void", {
    why: s.t(["exchange_cap", "race_timeout", "idle"].includes(e.reason) ? "ml_u_void_" + e.reason : "ml_unknown"),
  }),
};

const team = (s, side) => s.t("ml_hm_team_" + side);
const signed = (n) => (n > 0 ? `+${n}` : String(n));

const MERI = {
  deal: (s, e) => s.t("ml_hm_deal", {
    n: e.deal, who: s.who(e.dealer), card: s.card(e.okie), suit: s.t("us_suit_" + e.okie[0]),
  }),
  answer: (s, e) => s.t(e.answer === "declare" ? "ml_hm_declare" : "ml_hm_pass", { who: s.who(e.seat) }),
  okie: (s, e) => (e.declared ? s.t("ml_hm_okie", { who: s.who(e.seat) })
    : s.t("ml_hm_okie_undeclared", { to: s.whom(e.seat) })),
  discard(s, e) {
    const view = s.mine(e.seat) ? ownView(s.ctx, e.seat) : null;
    return view && view.discard ? s.t("ml_hm_discard_card", { card: s.card(view.discard) })
      : s.t("ml_hm_discard", { who: s.who(e.seat) });
  },
  dead: (s, e) => s.t("ml_hm_dead", { cards: s.cards(e.cards) }),
  play(s, e) {
    if (e.card) return s.t("ml_hm_play", { who: s.who(e.seat), card: s.card(e.card) });
    const own = s.mine(e.seat) ? ownFaceDown(s.ctx, e.seat) : null;
    return own ? s.t("ml_hm_play_down_card", { card: s.card(own) }) : s.t("ml_hm_play_down", { who: s.who(e.seat) });
  },
  trick(s, e) {
    const parts = [e.winner === null || e.winner === undefined ? s.t("ml_hm_trick_nobody", { n: e.number })
      : s.t("ml_hm_trick", { n: e.number, who: s.who(e.winner) })];
    if (e.meri) parts.push(s.t("ml_hm_meri"));
    const down = Array.isArray(e.face_down) ? e.face_down : [];
    if (down.length) parts.push(s.t("ml_hm_revealed", { cards: s.cards(down.map((i) => e.cards[i])) }));
    if (e.combo && e.winner !== null && e.winner !== undefined) {
      const [win, over] = e.combo.pair;
      parts.push(s.t("ml_hm_combo", { team: team(s, e.winner % 2), v: e.combo.value, win: s.card(win), over: s.card(over) }));
    }
    return parts.join(s.t("ml_join"));
  },
  deal_end: (s, e) => s.t("ml_hm_deal_end", {
    a: `${team(s, 0)} ${signed(e.deal_score[0])}`, b: `${team(s, 1)} ${signed(e.deal_score[1])}`,
    ta: `${team(s, 0)} ${e.scores[0]}`, tb: `${team(s, 1)} ${e.scores[1]}`,
  }),
  match_end: (s, e) => s.t("ml_hm_match_end", { a: `${team(s, 0)} ${e.scores[0]}`, b: `${team(s, 1)} ${e.scores[1]}` }),
};

/** The card this seat just played face down: on the table in its view, or in the trick
 * that the same frame closed (every card of it is turned up then). */
export function ownFaceDown(ctx, seat) {
  const view = ownView(ctx, seat);
  const onTable = view && Array.isArray(view.table) ? view.table.find((p) => p && p.seat === seat && p.card) : null;
  if (onTable) return onTable.card;
  const trick = ctx.events.find((x) => x.type === "trick" && Array.isArray(x.seats) && x.seats.includes(seat));
  return trick ? trick.cards[trick.seats.indexOf(seat)] : null;
}

const UTSUKE = {
  round: (s, e) => s.t("ml_ut_round", { n: e.round }),
  guessed(s, e) {
    const view = s.mine(e.seat) ? ownView(s.ctx, e.seat) : null;
    return view && typeof view.guess === "number" ? s.t("ml_ut_guessed_mine", { g: view.guess })
      : s.t("ml_ut_guessed", { who: s.who(e.seat) });
  },
  tricks_begin: (s, e) => s.t("ml_ut_tricks_begin", { n: e.round }),
  played: (s, e) => s.t("ml_ut_played", { who: s.who(e.by), card: s.card(e.card) }),
  trick(s, e) {
    const text = s.t("ml_ut_trick", { who: s.who(e.winner) });
    // The trump chip moves when the Lord's rightmost card goes: say the new colour.
    const before = previousTrump(s.ctx, e);
    return e.trump && before && e.trump !== before
      ? text + s.t("ml_join") + s.t("ml_ut_trump_now", { colour: s.t("colour_" + e.trump) }) : text;
  },
  judged: (s, e) => s.t("ml_ut_judged", {
    n: e.round, lord: e.lord_tricks, list: s.perSeat(e.guesses),
  }),
};

/** The trump colour before this trick event: an earlier trick of the frame, else the
 * view before the frame. */
function previousTrump(ctx, event) {
  const earlier = ctx.events.slice(0, ctx.events.indexOf(event)).filter((x) => x.type === "trick");
  if (earlier.length) return earlier[earlier.length - 1].trump;
  return ctx.prev ? ctx.prev.trump : null;
}

const JUNOCOS = {
  pick: (s, e) => s.t("ml_jc_pick", { who: s.who(e.seat), card: s.card(e.card) }),
  trump: (s, e) => s.t("ml_jc_trump", { card: s.card(e.card) }),
  play: (s, e) => s.t(e.from === "open" ? "ml_jc_play_open" : "ml_jc_play", { who: s.who(e.seat), card: s.card(e.card) }),
  trick: (s, e) => s.t("ml_jc_trick", { who: s.who(e.winner), n: e.count }),
  round_end: (s, e) => s.t("ml_jc_round_end", { n: e.round + 1, list: s.perSeat(e.points, "ml_jc_points_item", "p") }),
};

// Kokuto Rum and Shirokuro Jong share the deck and a few moves.
const SHIRO = {
  rotation_chosen(s, e) {
    const view = s.mine(e.seat) ? ownView(s.ctx, e.seat) : null;
    if (view && typeof view.rotation === "boolean") return s.t(view.rotation ? "ml_sk_rotated" : "ml_sk_kept");
    return s.t("ml_sk_rotation", { who: s.who(e.seat) });
  },
  discard: (s, e) => s.t("ml_sk_discard", { who: s.who(e.seat), card: s.card(e.card) }),
};

const KOKUTO = {
  ...SHIRO,
  deal: (s, e) => s.t("ml_kr_deal", { n: e.round, who: s.who(e.dealer) }),
  first_discard: (s, e) => s.t("ml_kr_first_discard", { card: s.card(e.card) }),
  play_starts: (s, e) => (typeof e.turn === "number" ? s.t("ml_sk_first", { who: s.who(e.turn) }) : s.t("ml_unknown")),
  draw(s, e) {
    if (e.from === "discard" && e.card) return s.t("ml_kr_draw_discard", { who: s.who(e.seat), card: s.card(e.card) });
    const view = s.mine(e.seat) ? ownView(s.ctx, e.seat) : null;
    return view && view.drawn ? s.t("ml_kr_draw_pile_card", { card: s.card(view.drawn) })
      : s.t("ml_kr_draw_pile", { who: s.who(e.seat) });
  },
  insert: (s, e) => s.t("ml_sk_insert", { who: s.who(e.seat) }),
  round_end: (s, e) => (e.reason === "knock" && typeof e.knocker === "number"
    ? s.t("ml_kr_round_knock", { n: e.round, who: s.who(e.knocker), list: s.perSeat(e.gains.map(signed)) })
    : s.t("ml_kr_round_pile_out", { n: e.round, list: s.perSeat(e.gains.map(signed)) })),
  game_over: (s, e) => s.t("ml_kr_game_over", {
    names: e.winners.map((seat) => s.whom(seat)).join(s.t("ml_and")), list: s.perSeat(e.vp),
  }),
};

const JONG = {
  ...SHIRO,
  discarded: SHIRO.discard,
  dealt: (s, e) => s.t("ml_sj_dealt", { n: e.round, who: s.who(e.oya) }),
  dora: (s, e) => s.t("ml_sj_dora", { card: s.card(e.dora) }),
  turn: (s, e) => s.t("ml_sk_first", { who: s.who(e.seat) }),
  drew(s, e) {
    const view = s.mine(e.seat) ? ownView(s.ctx, e.seat) : null;
    return view && view.drawn ? s.t("ml_sj_drew_card", { card: s.card(view.drawn), n: e.pile })
      : s.t("ml_sj_drew", { who: s.who(e.seat), n: e.pile });
  },
  inserted: (s, e) => s.t("ml_sk_insert", { who: s.who(e.seat) }),
  chii: (s, e) => claim(s, e, "ml_sj_chii"),
  pon: (s, e) => claim(s, e, "ml_sj_pon"),
  round_over(s, e) {
    const r = e.result;
    const parts = [];
    if (r && r.kind === "win") {
      for (const w of r.winners) {
        if (w.by === "tsumo") parts.push(s.t("ml_sj_tsumo", { who: s.who(w.seat), p: w.points }));
        else {
          const fromYou = s.mine(r.from);
          parts.push(s.t(fromYou ? "ml_sj_ron_from_you" : "ml_sj_ron", { who: s.who(w.seat), from: s.whom(r.from), p: w.points }));
        }
      }
    } else {
      parts.push(s.t("ml_sj_drawn"));
      const tenpai = r && Array.isArray(r.tenpai) ? r.tenpai.map((h) => s.whom(h.seat)) : [];
      parts.push(tenpai.length ? s.t("ml_sj_tenpai", { names: s.list(tenpai) }) : s.t("ml_sj_no_tenpai"));
    }
    parts.push(s.t("ml_sj_scores", { list: s.perSeat(e.scores) }));
    return parts.join(s.t("ml_join"));
  },
  match_over: (s, e) => s.t("ml_sj_scores", { list: s.perSeat(e.scores) }),
};

/** A Chii or Pon: the claimed card is the discard the claim window was open on. */
function claim(s, e, kindKey) {
  const kind = s.t(kindKey);
  const meld = s.cards(e.meld.map(looseText));
  const prev = s.ctx.prev;
  const claimed = prev && typeof prev.claim_on === "string" ? prev.claim_on : null;
  if (!claimed) return s.t("ml_sj_claim_meld", { who: s.who(e.seat), kind, from: s.whom(e.from), meld });
  return s.t(s.mine(e.from) ? "ml_sj_claim_from_you" : "ml_sj_claim", {
    who: s.who(e.seat), kind, from: s.whom(e.from), card: s.card(claimed), meld,
  });
}

const BUILDERS = {
  usunoro: USUNORO,
  hachinin_meri: MERI,
  utsuke: UTSUKE,
  junocos: JUNOCOS,
  kokuto_rum: KOKUTO,
  shirokuro_jong: JONG,
};

/**
 * The sentences of one view frame: `message` as the room sends it (events, view, views,
 * seats, you), `prev` the seat's view before it (or null).
 */
export function frameSentences(game, message, prev = null) {
  const events = message.events || [];
  const ctx = {
    game, events, prev, seats: message.seats || [], you: message.you || [],
    view: message.view || null, views: message.views || null,
  };
  return events.map((event) => describeEvent(event, ctx));
}

// -- the log on the page --------------------------------------------------------------------

/**
 * The room page's move log. `update(message, game)` takes each view frame and returns
 * the lines it added ({en, ja, known, type}); `latestLine()` is the element at the table
 * that shows the newest lines (role="log", so a screen reader reads each move out);
 * `openButton()` opens `logSheet()`, the whole log as a sheet over the table. With
 * `storageKey`, the current match's lines are kept in sessionStorage, so a reload of the
 * tab (whose new connection sends no past events) still shows them.
 */
export function createMoveLog({ storageKey = null } = {}) {
  const kept = load(storageKey);
  const lines = kept.lines;
  let match = kept.match;
  let prevView = null;
  let latestFrom = Math.max(0, lines.length - 1); // the first line of the newest frame
  const region = el("div", {
    class: "latest-move-line", id: "latest-move-line", role: "log", "aria-live": "polite",
    "aria-label": tIn(lang(), "ml_latest"),
  });
  const list = el("ol", { class: "move-log-list", id: "move-log-list" });
  const title = el("h2", { id: "move-log-title" });
  const empty = el("p", { class: "muted" });
  const close = el("button", { type: "button", id: "close-log", "data-key": "close-log", onclick: () => sheet.close() });
  const sheet = el("dialog", { class: "panel move-log-sheet", id: "move-log", "aria-labelledby": "move-log-title" },
    title, empty, list, close);
  const button = el("button", {
    type: "button", class: "ghost", id: "open-log", "data-key": "open-log", onclick: () => open(),
  });

  function text(line) {
    return line[lang()] || line.en;
  }

  function update(message, game) {
    if (!message || message.t !== "view") return [];
    const number = message.room ? message.room.match : null;
    if (number !== match) {  // a new match starts a new log
      match = number;
      lines.length = 0;
      latestFrom = 0;
    }
    const added = (message.events || []).length ? frameSentences(game, message, prevView) : [];
    prevView = message.view || prevView;
    if (!added.length) return added;
    latestFrom = lines.length;
    lines.push(...added);
    if (lines.length > KEEP) {
      const drop = lines.length - KEEP;
      lines.splice(0, drop);
      latestFrom = Math.max(0, latestFrom - drop);
    }
    save(storageKey, { match, lines });
    draw();
    return added;
  }

  /** Redraw the latest lines (and the open sheet) in the page's language. */
  function draw() {
    region.setAttribute("aria-label", tIn(lang(), "ml_latest"));
    const newest = lines.slice(latestFrom);
    region.replaceChildren(...(newest.length ? newest.map((line) => el("p", { class: "move-line" }, text(line)))
      : [el("p", { class: "move-line muted" }, tIn(lang(), "ml_empty"))]));
    button.textContent = tIn(lang(), "ml_open");
    button.setAttribute("aria-label", tIn(lang(), "ml_open_label"));
    if (sheet.open) fillSheet();
  }

  function fillSheet() {
    title.textContent = tIn(lang(), "ml_title");
    empty.textContent = lines.length ? "" : tIn(lang(), "ml_empty");
    empty.hidden = lines.length > 0;
    close.textContent = tIn(lang(), "ml_close");
    list.replaceChildren(...lines.map((line) => el("li", {}, text(line))));
  }

  function open() {
    fillSheet();
    if (!sheet.isConnected) document.body.append(sheet);
    if (!sheet.open) sheet.showModal();
    list.lastElementChild?.scrollIntoView({ block: "end" });
  }

  function destroy() {
    if (sheet.open) sheet.close();
    sheet.remove();
  }

  draw();
  return {
    update, open, destroy, draw,
    lines: () => lines.slice(),
    latestLine: () => region,
    openButton: () => button,
    logSheet: () => sheet,
  };
}

/** The kept log of `key` ({match, lines}), or an empty one. */
function load(key) {
  try {
    const kept = key ? JSON.parse(sessionStorage.getItem(key) || "null") : null;
    if (kept && Array.isArray(kept.lines)) return { match: kept.match ?? null, lines: kept.lines };
  } catch {
    // A broken entry is as good as none.
  }
  return { match: null, lines: [] };
}

function save(key, value) {
  if (!key) return;
  try {
    sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or off: the log lives on in the page.
  }
}
