// The coach of a first match ("Learn by playing"): POST /api/learn/GAME makes a room
// with the game's fixed deal (server/rooms/first_match.py); this device remembers the
// room as a lesson, and at that room's table the coach shows one line at each moment
// that matters (your first pass, a declaration, a claim, a knock...) as a small card in
// the dock, in place of the latest-move line. Where the player must act it asks for a
// hint ({"t": "hint", "seat": S}), so the table marks the suggested move and the card
// says why. "Skip" ends the coaching (the match goes on); at the end of the first round
// the card offers "Play a real match" (the lobby's create form for the game).
//
// Moments come from the view and the player's legal moves alone (`momentOf`), by the
// same rules as tests/rooms/first_deals.py `moment`, which chooses the deals.

import { api, seatStore } from "./net.js";
import { addStrings, lang, t } from "./i18n.js";
import { el, replaceKeepingFocus } from "./components.js";
import { errorText, gameName, main } from "./page.js";
import { myName } from "./names.js";
import { COACH_STRINGS } from "./coach_strings.js";

addStrings(COACH_STRINGS);

const KEY = "zashiki.learn.";
const CLAIMS = ["pon", "chii", "ron"];

/** Four cards of one rank (Usunoro's matching hand). */
function matching(hand) {
  return Array.isArray(hand) && hand.length === 4 && new Set(hand.map((c) => c.slice(0, -1))).size === 1;
}

/** The coach's moment for `game` at this view and these legal moves, or null. */
export function momentOf(game, view, legal) {
  const kinds = new Set(legal.map((a) => a.type));
  const first = (...names) => names.find((n) => kinds.has(n)) || null;
  switch (game) {
    case "usunoro":
      if (kinds.has("grab") && (view.phase === "race" || matching(view.hand))) return "grab";
      return kinds.has("mark") && view.mark == null ? "pass" : null;
    case "utsuke":
      return first("guess", "play");
    case "junocos":
      if (kinds.has("pick")) return (view.open[view.seat] || []).length ? null : "declare";
      return first("play");
    case "hachinin_meri":
      return first("declare", "discard", "play");
    case "kokuto_rum":
      if (legal.some((a) => a.knock)) return "knock";
      return first("rotate", "draw", "insert");
    case "shirokuro_jong":
      if (kinds.has("ron") || kinds.has("tsumo")) return "win";
      if (CLAIMS.some((c) => kinds.has(c))) return "claim";
      return first("rotate", "insert", "discard");
    default:
      return null;
  }
}

/** Whether the view shows the first round over (first_deals.py `round_over`). */
export function roundOver(game, view) {
  switch (game) {
    case "usunoro": return view.phase === "done" || view.phase === "void";
    case "utsuke": case "kokuto_rum": return view.last_round != null;
    case "junocos": return (view.history || []).length > 0;
    case "hachinin_meri": return view.previous != null;
    default: return view.phase === "round_over" || view.phase === "over";
  }
}

/** The lesson this device keeps for room `code` ({game, seen, done}), or null. */
export function lessonOf(code) {
  try {
    return JSON.parse(localStorage.getItem(KEY + code) || "null");
  } catch {
    return null;
  }
}

function saveLesson(code, lesson) {
  localStorage.setItem(KEY + code, JSON.stringify(lesson));
}

/** Start `game`'s first match: the room is made and started; returns its code. */
export async function startFirstMatch(game, name) {
  const made = await api("POST", `/api/learn/${encodeURIComponent(game)}`, name ? { name } : {});
  seatStore.add(made.code, made.seat, made.token);
  saveLesson(made.code, { game, seen: [], done: false });
  return made.code;
}

/**
 * The page at "/?learn=GAME": says the first match is being dealt, makes it, then
 * `open(code)` opens its room; a refusal is shown with the way back to the lobby.
 */
export function showFirstMatch(game, open) {
  let error = "";
  let live = true;
  function render() {
    replaceKeepingFocus(main, el("h1", {}, t("learn_by_playing"), " · ", gameName(game)),
      error ? [el("p", { class: "error", role: "alert" }, error), el("a", { href: "/" }, t("back_to_lobby"))]
        : el("p", { role: "status" }, t("learn_starting")));
  }
  render();
  startFirstMatch(game, myName()).then((code) => { if (live) open(code); }, (err) => {
    error = errorText(err);
    if (live) render();
  });
  return { rerender: render, teardown: () => { live = false; } };
}

/** The lobby's and the rules pages' link to a game's first match. */
export function learnLink(game) {
  return el("a", {
    href: `/?learn=${encodeURIComponent(game)}`, class: "learn-link", id: "learn-link-" + game,
    "data-key": "learn-" + game,
  }, t("learn_by_playing"));
}

/**
 * The coach of room `code` if this device started it as a first match, else null.
 * `send(frame)` sends on the room's socket; `redraw()` repaints the table.
 * The table's page calls `onFrame` with every frame and puts `card()` in the dock.
 */
export function createCoach(code, { send, redraw }) {
  const lesson = lessonOf(code);
  if (!lesson || lesson.done) return null;
  let line = null; // the moment whose line shows, or "end"
  let why = null; // the latest hint's reason, for the moment it was asked at
  let asked = null; // the moment a hint was asked for

  function finish() {
    lesson.done = true;
    saveLesson(code, lesson);
    line = null;
    redraw();
  }

  function onFrame(frame) {
    if (lesson.done || line === "end") return;
    if (frame.t === "hint") {
      if (asked && frame.why) why = frame.why;
      redraw();
      return;
    }
    if (frame.t !== "view" || !frame.view || !(frame.you || []).length) return;
    const seat = frame.you[0];
    const room = frame.room || {};
    if (room.status !== "playing" || roundOver(lesson.game, frame.view)) {
      line = "end";
      return;
    }
    const legal = (frame.legal || {})[seat] || [];
    const now = momentOf(lesson.game, frame.view, legal);
    if (now && !lesson.seen.includes(now)) {
      lesson.seen.push(now);
      saveLesson(code, lesson);
      line = now;
      why = null;
      asked = null;
      if (legal.length && room.hints) {
        asked = now;
        send({ t: "hint", seat });
      }
    }
  }

  function button(id, text, onclick, extra = {}) {
    return el("button", { type: "button", id, "data-key": id, onclick, ...extra }, text);
  }

  /** The coach's card for the dock, or null when it has nothing to say. */
  function card() {
    if (lesson.done || !line) return null;
    if (line === "end") {
      return el("div", { class: "coach-card", id: "coach-card", "data-moment": "end", role: "status" },
        el("p", { class: "coach-line" }, t("coach_end")),
        el("div", { class: "coach-actions" },
          el("a", { href: `/?host=${encodeURIComponent(lesson.game)}`, class: "button", id: "coach-real",
            onclick: () => { lesson.done = true; saveLesson(code, lesson); } }, t("coach_real")),
          button("coach-keep", t("coach_keep"), finish, { class: "ghost" })));
    }
    const reason = why && (why[lang()] || why.en);
    return el("div", { class: "coach-card", id: "coach-card", "data-moment": line, role: "status" },
      el("p", { class: "coach-line" }, el("strong", {}, t("coach_title") + " · "),
        // The first line opens with what the game is about.
        lesson.seen[0] === line ? t(`coach_${lesson.game}_intro`) + " " : "",
        t(`coach_${lesson.game}_${line}`)),
      reason ? el("p", { class: "coach-why" }, t("coach_suggest", { why: reason })) : null,
      button("coach-skip", t("coach_skip"), finish, { class: "ghost", "aria-label": t("coach_skip_label") }));
  }

  return { onFrame, card };
}
