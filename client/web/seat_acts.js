// What each seat did last, said short in its panel at the table ("played red 5", "took …",
// "drew, discarded W3/B5"): what just happened around the table, at a glance. It is built
// from the same view frames and the same speaker as the move log (move_log.js), so it
// names only what this device may know: another seat's face-down card is "a card", and
// a seat's own hidden card comes from its own view only.
//
// A seat's words stay until it acts again; its next action in the same turn joins them
// ("drew, discarded …", "Pon, discarded …"). Once a trick is taken, the cards said played
// in it are shown as from an earlier trick (greyed). A new round or deal clears what
// earlier frames said; the frame that ended the round keeps its words (the knock, the
// last card).

import { addStrings, lang, tIn } from "./i18n.js";
import { el } from "./components.js";
import { LANGS, cardName, looseText, ownFaceDown, ownView, speaker } from "./move_log.js";

addStrings({
  en: {
    sa_last: "Last move:",
    sa_played: "played {card}",
    sa_played_down: "played a card face down",
    sa_played_down_card: "played {card} face down",
    sa_put_back: "put back a card",
    sa_put_back_card: "put back {card}",
    sa_took: "took {card}",
    sa_drew: "drew",
    sa_drew_card: "drew {card}",
    sa_discarded: "discarded {card}",
    sa_knocked: "knocked",
    sa_chii: "called Chii",
    sa_pon: "called Pon",
    sa_ron: "won by Ron",
    sa_tsumo: "won by Tsumo",
    sa_grab: "grabbed a token",
    sa_first_grab: "grabbed first",
    sa_early_grab: "grabbed too early",
    sa_sk_card: "{a}/{b}",
    sa_sk_W: "W",
    sa_sk_B: "B",
  },
  ja: {
    sa_last: "直前：",
    sa_played: "{card}を出した",
    sa_played_down: "1枚伏せて出した",
    sa_played_down_card: "{card}を伏せて出した",
    sa_put_back: "1枚伏せて戻した",
    sa_put_back_card: "{card}を伏せて戻した",
    sa_took: "{card}を取った",
    sa_drew: "山から引いた",
    sa_drew_card: "{card}を引いた",
    sa_discarded: "{card}を捨てた",
    sa_knocked: "ノック",
    sa_chii: "チー",
    sa_pon: "ポン",
    sa_ron: "ロン和了",
    sa_tsumo: "ツモ和了",
    sa_grab: "札を取った",
    sa_first_grab: "一番に札を取った",
    sa_early_grab: "お手つき",
    sa_sk_card: "{a}/{b}",
    sa_sk_W: "白",
    sa_sk_B: "黒",
  },
});

// -- short card names (a panel is narrow) -------------------------------------------------

const shiroShort = (l, c) => {
  const loose = looseText(c);
  return tIn(l, "sa_sk_card", { a: tIn(l, "sa_sk_" + loose[0]) + loose[1], b: tIn(l, "sa_sk_" + loose[3]) + loose[4] });
};
const SHORT_NAMES = {
  hachinin_meri: (l, c) => tIn(l, "us_card", { rank: tIn(l, "us_rank_" + c.slice(1)), suit: tIn(l, "us_suit_short_" + c[0]) }),
  kokuto_rum: shiroShort,
  shirokuro_jong: shiroShort,
};

/** Card `code` of `game` as a seat panel names it in language `l` ("W3/B5", "Koppu Kaba"). */
export function shortCard(game, code, l) {
  return SHORT_NAMES[game] ? SHORT_NAMES[game](l, code) : cardName(game, code, l);
}

// -- what each event says about a seat ----------------------------------------------------

/** One seat's words: `join` adds them to the seat's own words of this turn; `quiet` says
 * more about an earlier move (a face-down card turned up) without being a move. */
const act = (seat, text, { join = false, quiet = false } = {}) => ({ seat, text, join, quiet });

const PLAYED = (s, seat, card) => act(seat, s.t("sa_played", { card: s.short(card) }));

const BUILDERS = {
  usunoro: {
    first_grab: (s, e) => [act(e.seat, s.t("sa_first_grab"))],
    early_grab: (s, e) => [act(e.seat, s.t("sa_early_grab"))],
    grab: (s, e) => [act(e.seat, s.t("sa_grab"))],
  },
  // Hachinin Meri's answers (pass, declare) are the table's own badges until play begins.
  hachinin_meri: {
    discard(s, e) {
      const view = s.mine(e.seat) ? ownView(s.ctx, e.seat) : null;
      return [act(e.seat, view && view.discard ? s.t("sa_put_back_card", { card: s.short(view.discard) })
        : s.t("sa_put_back"))];
    },
    play(s, e) {
      if (e.card) return [PLAYED(s, e.seat, e.card)];
      const own = s.mine(e.seat) ? ownFaceDown(s.ctx, e.seat) : null;
      return [act(e.seat, own ? s.t("sa_played_down_card", { card: s.short(own) }) : s.t("sa_played_down"))];
    },
    // The trick turns its face-down cards up: now everyone may know them.
    trick: (s, e) => (Array.isArray(e.face_down) ? e.face_down : []).map((i) => act(e.seats[i],
      s.t("sa_played_down_card", { card: s.short(e.cards[i]) }), { quiet: true })),
  },
  utsuke: {
    played: (s, e) => [PLAYED(s, e.by, e.card)],
  },
  junocos: {
    pick: (s, e) => [act(e.seat, s.t("sa_took", { card: s.short(e.card) }))],
    play: (s, e) => [PLAYED(s, e.seat, e.card)],
  },
  kokuto_rum: {
    draw(s, e) {
      if (e.from === "discard" && e.card) return [act(e.seat, s.t("sa_took", { card: s.short(e.card) }))];
      const view = s.mine(e.seat) ? ownView(s.ctx, e.seat) : null;
      return [act(e.seat, view && view.drawn ? s.t("sa_drew_card", { card: s.short(view.drawn) }) : s.t("sa_drew"))];
    },
    discard: (s, e) => [act(e.seat, s.t("sa_discarded", { card: s.short(e.card) }), { join: true })],
    round_end: (s, e) => (e.reason === "knock" && typeof e.knocker === "number"
      ? [act(e.knocker, s.t("sa_knocked"), { join: true })] : []),
  },
  shirokuro_jong: {
    drew(s, e) {
      const view = s.mine(e.seat) ? ownView(s.ctx, e.seat) : null;
      return [act(e.seat, view && view.drawn ? s.t("sa_drew_card", { card: s.short(view.drawn) }) : s.t("sa_drew"))];
    },
    discarded: (s, e) => [act(e.seat, s.t("sa_discarded", { card: s.short(e.card) }), { join: true })],
    chii: (s, e) => [act(e.seat, s.t("sa_chii"))],
    pon: (s, e) => [act(e.seat, s.t("sa_pon"))],
    round_over: (s, e) => (e.result && e.result.kind === "win" ? e.result.winners : [])
      .map((w) => act(w.seat, s.t(w.by === "tsumo" ? "sa_tsumo" : "sa_ron"), { join: true })),
  },
};

// The event that begins each game's next round or deal: what earlier frames said is cleared.
const NEW_ROUND = {
  usunoro: "deal", hachinin_meri: "deal", utsuke: "round", junocos: "round_end", kokuto_rum: "deal",
  shirokuro_jong: "dealt",
};

/** Whether `event` starts a new round of `game` (or a new match, in every game). */
function newRound(game, event) {
  return event.type === "match_started" || NEW_ROUND[game] === event.type;
}

/**
 * The seats' last moves. `update(message, game)` takes each view frame (as the move log
 * does); `decorate(panel, seat)` puts the seat's words into its panel on every paint
 * (tables/frame.js's seat decoration); `text(seat, l)` is the words, `earlier(seat)`
 * whether they are about a trick already taken. With `storageKey`, the match's words
 * are kept in sessionStorage through a reload.
 */
export function createSeatActs({ storageKey = null } = {}) {
  const state = load(storageKey);
  let prevView = null;

  function update(message, game) {
    if (!message || message.t !== "view") return;
    const number = message.room ? message.room.match : null;
    if (number !== state.match) Object.assign(state, { match: number, serial: 0, lastActor: null, acts: {} });
    const events = message.events || [];
    const ctx = {
      game, events, prev: prevView, seats: message.seats || [], you: message.you || [],
      view: message.view || null, views: message.views || null,
    };
    prevView = message.view || prevView;
    if (!events.length) return;
    state.serial += 1;
    const says = LANGS.map((l) => {
      const say = speaker(l, ctx);
      say.short = (code) => shortCard(game, code, l);
      return say;
    });
    for (const event of events) {
      if (newRound(game, event)) {
        for (const [seat, entry] of Object.entries(state.acts)) if (entry.serial < state.serial) delete state.acts[seat];
      }
      const build = BUILDERS[game] && BUILDERS[game][event.type];
      if (event.type === "trick") for (const entry of Object.values(state.acts)) entry.earlier = true;
      if (!build) continue;
      const told = says.map((s) => build(s, event));
      told[0].forEach((one, i) => {
        if (one.seat === undefined || one.seat === null) return;
        const seat = String(one.seat);
        const text = Object.fromEntries(LANGS.map((l, n) => [l, told[n][i].text]));
        const before = state.acts[seat];
        const parts = one.join && before && state.lastActor === seat ? [...before.parts.slice(-1), text] : [text];
        state.acts[seat] = { parts, serial: state.serial, earlier: one.quiet && Boolean(before && before.earlier) };
        if (!one.quiet) state.lastActor = seat;
      });
    }
    save(storageKey, state);
  }

  /** The seat's words in language `l`, or "" when it has none. */
  function text(seat, l = lang()) {
    const entry = state.acts[String(seat)];
    return entry ? entry.parts.map((p) => p[l] || p.en).join(tIn(l, "ml_sep")) : "";
  }

  /** Whether the seat's words are about a trick already taken. */
  function earlier(seat) {
    const entry = state.acts[String(seat)];
    return Boolean(entry && entry.earlier);
  }

  /** Put the seat's words (if any) into its panel, once per paint, in the page's language. */
  function decorate(panel, seat) {
    const said = text(seat);
    if (!said || panel.querySelector(".seat-last")) return;
    const l = lang();
    const line = el("p", { class: `seat-last${earlier(seat) ? " earlier" : ""}`, "data-last-of": String(seat) },
      el("span", { class: "visually-hidden" }, tIn(l, "sa_last") + " "), said);
    // After the seat's words about itself, before its rows of cards.
    const cards = panel.querySelector(":scope > :is(.sk-row, .sj-melds, .sj-discards, .line:has(.open-cards))");
    if (cards) cards.before(line);
    else panel.append(line);
  }

  return { update, decorate, text, earlier };
}

function load(key) {
  try {
    const kept = key ? JSON.parse(sessionStorage.getItem(key) || "null") : null;
    if (kept && kept.acts) return kept;
  } catch {
    // A broken entry is as good as none.
  }
  return { match: null, serial: 0, lastActor: null, acts: {} };
}

function save(key, value) {
  if (!key) return;
  try {
    sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or off: the words live on in the page.
  }
}
