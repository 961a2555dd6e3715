// The coach of a first match ("Learn by playing"): POST /api/learn/GAME makes a room
// with the game's fixed deal (server/rooms/first_match.py); this device remembers the
// room as a lesson, and at that room's table the coach shows one line at each moment
// that matters (your first pass, a declaration, a claim, a knock...) as a small card in
// the dock, in place of the latest-move line. At each decision of the player it asks for
// a hint ({"t": "hint", "seat": S}), so the table marks the suggested move, the card says
// why and "Play it" makes it. "Skip" ends the coaching (the match goes on); at the end of the first round
// the card offers "Play a real match" (the lobby's create form for the game).
//
// Moments come from the view and the player's legal moves alone (`momentOf`), by the
// same rules as tests/rooms/first_deals.py `moment`, which chooses the deals.

import { api, seatStore } from "./net.js";
import { addStrings, lang, t } from "./i18n.js";
import { el, replaceKeepingFocus } from "./components.js";
import { errorText, gameName, main } from "./page.js";
import { myName } from "./names.js";
import { fold } from "./tables/frame.js";
import { COACH_STRINGS } from "./coach_strings.js";

addStrings(COACH_STRINGS);

const KEY = "zashiki.learn.";
const CLAIMS = ["pon", "chii", "ron"];

/** Four cards of one rank (Usunoro's matching hand: cards are suit then rank, "H1"). */
function matching(hand) {
  return Array.isArray(hand) && hand.length === 4 && new Set(hand.map((c) => c.slice(1))).size === 1;
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

// Refusals of a hint the coach asked for: the coach drops the ask, the page shows nothing.
const HINT_REFUSALS = new Set(["hints_off", "not_your_decision", "rate_limited"]);
// A room answers a connection's hints at a pace (server/web/limits.py): a refused ask for
// the same decision goes again after this long.
const RETRY_MS = 3000;

/**
 * The coach of room `code` if this device started it as a first match, else null.
 * `send(frame)` sends on the room's socket, `move(seat, action)` makes a move and
 * `redraw()` repaints the table. The page gives `onFrame` every frame first (true: the
 * frame was the coach's own, a refused hint, and needs nothing more) and puts `card()` in
 * the dock.
 *
 * Until the first round ends, every decision of the player gets a hint (the table marks
 * the move): the card shows why, and "Play it" makes that move (a lone legal move needs
 * no asking). The card's line changes only at a moment.
 */
export function createCoach(code, { send, move, redraw }) {
  const lesson = lessonOf(code);
  if (!lesson || lesson.done) return null;
  let line = null; // the moment whose line shows, or "end"
  let seat = null;
  let legal = []; // the player's legal moves now
  let decision = ""; // the same as JSON: a new decision when it changes
  let asks = 0; // hints asked and not yet answered
  let hint = null; // the move to suggest now: {move, why}
  let retry = null; // the timer asking again after a refusal

  function finish() {
    lesson.done = true;
    saveLesson(code, lesson);
    line = null;
    clearTimeout(retry);
    redraw();
  }

  function ask() {
    asks += 1;
    send({ t: "hint", seat });
  }

  /** A hint answered or refused. An answer counts while its move is still legal (answers
   * come in the order asked, so a late one for an old decision names an old move). */
  function answered(frame) {
    asks = Math.max(0, asks - 1);
    if (frame.t === "hint") {
      const move = JSON.stringify(frame.move);
      if (legal.some((a) => JSON.stringify(a) === move)) hint = { move: frame.move, why: frame.why };
    } else if (frame.code === "rate_limited" && !hint && legal.length) {
      const asked = decision;
      clearTimeout(retry);
      retry = setTimeout(() => { if (decision === asked && !hint && !lesson.done) ask(); }, RETRY_MS);
    }
  }

  function onFrame(frame) {
    if (lesson.done || line === "end") return false;
    if (frame.t === "hint" || (frame.t === "error" && asks && HINT_REFUSALS.has(frame.code))) {
      answered(frame);
      redraw();
      return frame.t === "error";
    }
    if (frame.t !== "view" || !frame.view || !(frame.you || []).length) return false;
    seat = frame.you[0];
    const room = frame.room || {};
    if (room.status !== "playing" || roundOver(lesson.game, frame.view)) {
      line = "end";
      clearTimeout(retry);
      return false;
    }
    legal = (frame.legal || {})[seat] || [];
    const now = momentOf(lesson.game, frame.view, legal);
    if (now && !lesson.seen.includes(now)) {
      lesson.seen.push(now);
      saveLesson(code, lesson);
      line = now;
    }
    const key = JSON.stringify(legal);
    if (key !== decision) {
      decision = key;
      hint = legal.length === 1 ? { move: legal[0], why: null } : null;
      if (legal.length > 1 && room.hints) ask();
    }
    return false;
  }

  function button(id, text, onclick, extra = {}) {
    return el("button", { type: "button", id, "data-key": id, onclick, ...extra }, text);
  }

  /** What the coach says now: its line (the first one after an intro saying what the
   * game is about), why the hint's move, and its buttons (ids end in `suffix`). */
  function parts(suffix) {
    if (line === "end") {
      return {
        intro: "", text: t("coach_end"), why: null,
        actions: [
          el("a", { href: `/?host=${encodeURIComponent(lesson.game)}`, class: "button", id: "coach-real" + suffix,
            onclick: () => { lesson.done = true; saveLesson(code, lesson); } }, t("coach_real")),
          button("coach-keep" + suffix, t("coach_keep"), finish, { class: "ghost" }),
        ],
      };
    }
    const suggested = hint;
    const reason = suggested && suggested.why && (suggested.why[lang()] || suggested.why.en);
    return {
      // Japanese runs sentences on without a space.
      intro: lesson.seen[0] === line ? t(`coach_${lesson.game}_intro`) + (lang() === "ja" ? "" : " ") : "",
      text: t(`coach_${lesson.game}_${line}`),
      why: reason ? t("coach_suggest", { why: reason }) : null,
      actions: [
        suggested ? button("coach-play" + suffix, t("coach_play"), () => {
          hint = null;
          move(seat, suggested.move);
          // Played from the sheet: the sheet closes, the table shows the move.
          const open = document.getElementById("fold-coach");
          if (open) open.open = false;
          redraw();
        }) : null,
        button("coach-skip" + suffix, suffix ? t("coach_skip") : "✕", finish,
          { class: "ghost", "aria-label": t("coach_skip_label") }),
      ],
    };
  }

  /** The coach's card for the dock (in place of the latest move), or null. `fit` then
   * makes it as small as the one-screen table needs. */
  function card() {
    if (lesson.done || !line) return null;
    const said = parts("");
    return el("div", { class: "coach-card", id: "coach-card", "data-moment": line, "data-fit": "0", role: "status" },
      el("p", { class: "coach-line" }, el("strong", {}, t("coach_title") + " · "),
        said.intro ? el("span", { class: "coach-intro" }, said.intro) : null, said.text),
      said.why ? el("p", { class: "coach-why" }, said.why) : null,
      el("div", { class: "coach-actions" }, said.actions));
  }

  /** The head row's Coach sheet: all the coach says and its buttons, whatever the size. */
  function sheet() {
    if (lesson.done || !line) return null;
    const said = parts("-sheet");
    return fold("coach", t("coach_title"), el("p", {}, said.intro, said.text), said.why ? el("p", {}, said.why) : null,
      el("div", { class: "coach-actions" }, said.actions));
  }

  /**
   * After a paint: the table is one screen, so the dock's card shrinks until nothing
   * goes past the window's bottom: all of it (0), its line on two lines with its buttons
   * beside (1), one line as the latest move takes (2), or nothing (3: a dock with no
   * room to spare, such as a phone on its side). The Coach sheet always has it all.
   */
  function fit() {
    const node = document.getElementById("coach-card");
    const dockNode = document.getElementById("dock");
    const middle = document.getElementById("middle");
    if (!node || !dockNode) return;
    // How far the page, the dock's content and the middle's content go past their room.
    const overflow = () => [
      document.documentElement.scrollHeight - innerHeight,
      dockNode.getBoundingClientRect().bottom - innerHeight,
      dockNode.scrollHeight - dockNode.clientHeight,
      middle ? middle.scrollHeight - middle.clientHeight : 0,
    ];
    // The table without the card: the card may take only what it leaves free.
    node.dataset.fit = "3";
    const room = overflow();
    for (const level of ["0", "1", "2"]) {
      node.dataset.fit = level;
      if (overflow().every((over, i) => over <= Math.max(room[i], 0) + 1)) return;
    }
    node.dataset.fit = "3";
  }

  // A window made smaller (a phone turned) may need a smaller card.
  addEventListener("resize", fit);
  const destroy = () => {
    removeEventListener("resize", fit);
    clearTimeout(retry);
  };

  return { onFrame, card, sheet, fit, destroy };
}
