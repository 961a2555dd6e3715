// The room page's match history: every finished match of the room (number, time,
// winners, scores) with Replay, Download and, for a player between matches, Review
// together (review.js), and the standings across the series.
// GET /api/rooms/{code}/matches is public; a match file is fetched with the seat token
// as a bearer token (players get the full file, anyone else the spectator file).

import { ApiError } from "./net.js";
import { addStrings, lang, t } from "./i18n.js";
import { el, seatLabel } from "./components.js";
import { namesList } from "./tables/round_end.js";

addStrings({
  en: {
    h_title: "Matches in this room",
    h_standings: "Standings",
    h_match_n: "Match {n}",
    h_winner: "Winner: {who}",
    h_winners: "Winners: {who}",
    h_scores: "Scores: {scores}",
    h_replay: "Replay",
    h_replay_label: "Replay match {n}",
    h_download: "Download",
    h_download_label: "Download match {n} as a file",
    h_review: "Review together",
    h_review_label: "Review match {n} together",
    h_wins: "{n} wins",
    h_win: "1 win",
    h_mean_place: "mean place {p}",
    h_none: "No match has finished yet.",
    h_loading: "Loading the matches…",
    h_downloaded: "Match file saved.",
  },
  ja: {
    h_title: "この部屋の対戦記録",
    h_standings: "通算成績",
    h_match_n: "第{n}戦",
    h_winner: "勝者：{who}",
    h_winners: "勝者：{who}",
    h_scores: "得点：{scores}",
    h_replay: "再生",
    h_replay_label: "第{n}戦を再生する",
    h_download: "保存",
    h_download_label: "第{n}戦をファイルに保存する",
    h_review: "みんなで感想戦",
    h_review_label: "第{n}戦をみんなで感想戦する",
    h_wins: "{n}勝",
    h_win: "1勝",
    h_mean_place: "平均{p}位",
    h_none: "終わった対戦はまだありません。",
    h_loading: "対戦記録を読み込み中…",
    h_downloaded: "対戦ファイルを保存しました。",
  },
});

/** GET a history route (with the seat token as a bearer token when given). */
export async function historyGet(path, token) {
  return (await historyFetch(path, token)).json().catch(() => ({}));
}

/** GET a history route, answered 2xx: {status, data} (a 202 is a review still made). */
export async function historyAnswer(path, token) {
  const response = await historyFetch(path, token);
  return { status: response.status, data: await response.json().catch(() => ({})) };
}

/** The answer to a history GET, checked: ApiError unless it is a 2xx. */
async function historyFetch(path, token) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  let response;
  try {
    response = await fetch(path, { headers });
  } catch (err) {
    throw new ApiError("network", String(err), 0);
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    throw new ApiError(data.code || "http_" + response.status, data.message || "", response.status);
  }
  return response;
}

/** "14:05" today, else the date and time, in the page's language. */
export function matchTime(seconds) {
  if (!seconds) return "";
  const when = new Date(seconds * 1000);
  const locale = lang() === "ja" ? "ja-JP" : "en-GB";
  const sameDay = when.toDateString() === new Date().toDateString();
  return sameDay
    ? when.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" })
    : when.toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * The history panel of room `code`. `tokens()` gives the seat tokens this browser holds
 * there; `mine()` the seats it holds. `review`, when given, is {can() -> whether this
 * device may open a review now, open(number)}: each match gets a Review together button
 * while it may. `update(room)` (the latest view's room) reloads the list when a match has
 * finished since; `element` stays the same node across renders.
 */
export function createHistory(code, { tokens, mine, notify, review = null }) {
  const element = el("section", {
    class: "panel match-history", id: "match-history", role: "region", "aria-labelledby": "match-history-title",
  });
  let listing = null;
  let loadedFor = null;
  let failed = "";

  async function load(finished) {
    loadedFor = finished;
    try {
      listing = await historyGet(`/api/rooms/${code}/matches`);
      failed = "";
    } catch (err) {
      failed = err.code || "error";
      loadedFor = null;
    }
    draw();
  }

  function update(room) {
    if (!room) return;
    const finished = room.status === "over" ? room.match : room.match - 1;
    if (finished > 0 && finished !== loadedFor) load(finished);
    draw();
  }

  /** A seat's name as it was in `match` (the latest match's by default). */
  function label(seat, match = listing.matches.at(-1)) {
    return seatLabel(match.seats, seat, mine());
  }

  /** The same inside a sentence: "you" rather than "You". */
  function nameIn(seat, match) {
    const name = label(seat, match);
    return name === t("you") ? t("re_you") : name;
  }

  async function download(number) {
    try {
      // The server's bytes as they are: parsed and written again, numbers past 2^53
      // would be rounded (a file saved before seeds were strings).
      const response = await historyFetch(`/api/rooms/${code}/matches/${number}`, tokens()[0]);
      const blob = new Blob([await response.arrayBuffer()], { type: "application/json" });
      const link = el("a", { href: URL.createObjectURL(blob), download: `zashiki-${code}-match-${number}.json` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      notify(t("h_downloaded"));
    } catch (err) {
      notify(t("error_generic", { message: err.code || "?" }));
    }
  }

  function matchItem(match) {
    const winners = namesList(match.winners.map((seat) => nameIn(seat, match)));
    const scores = match.scores
      ? match.scores.map((n, seat) => t("re_score_item", { who: label(seat, match), n })).join(t("re_score_sep"))
      : null;
    return el("li", { class: "match-row", "data-match": String(match.match) },
      el("div", {},
        el("strong", {}, t("h_match_n", { n: match.match })),
        el("span", { class: "muted" }, " · " + matchTime(match.ended)),
        el("div", { class: "match-winner" },
          t(match.winners.length > 1 ? "h_winners" : "h_winner", { who: winners })),
        scores ? el("div", { class: "muted match-scores" }, t("h_scores", { scores })) : null),
      el("div", { class: "match-actions" },
        el("a", {
          class: "button", href: `/?room=${code}&replay=${match.match}`, "data-key": "replay",
          "aria-label": t("h_replay_label", { n: match.match }),
        }, t("h_replay")),
        el("button", {
          type: "button", class: "ghost", "data-key": "download",
          "aria-label": t("h_download_label", { n: match.match }), onclick: () => download(match.match),
        }, t("h_download")),
        review && review.can() ? el("button", {
          type: "button", class: "ghost", "data-key": "review-" + match.match, "data-review-match": String(match.match),
          "aria-label": t("h_review_label", { n: match.match }), onclick: (e) => openReview(e, match.match),
        }, t("h_review")) : null));
  }

  /** Open match `number`'s review, closing the sheet the list is in (the review shows instead of the table). */
  function openReview(event, number) {
    const sheet = event.currentTarget.closest("details");
    if (sheet) sheet.open = false;
    review.open(number);
  }

  function standingsList() {
    return el("ol", { class: "standings", id: "standings" }, listing.standings
      .slice()
      .sort((a, b) => b.wins - a.wins || a.mean_place - b.mean_place)
      .map((row) => el("li", { "data-seat": String(row.seat) },
        el("strong", {}, label(row.seat)), " — ",
        row.wins === 1 ? t("h_win") : t("h_wins", { n: row.wins }), ", ",
        t("h_mean_place", { p: row.mean_place }))));
  }

  function draw() {
    const title = el("h2", { id: "match-history-title" }, t("h_title"));
    if (failed) {
      element.replaceChildren(title, el("p", { class: "error" }, t("error_generic", { message: failed })));
    } else if (!listing) {
      element.replaceChildren(title, el("p", { class: "muted" }, t("h_loading")));
    } else if (!listing.matches.length) {
      element.replaceChildren(title, el("p", { class: "muted" }, t("h_none")));
    } else {
      element.replaceChildren(title,
        el("ul", { class: "room-list match-list", id: "match-list" },
          listing.matches.slice().reverse().map(matchItem)),
        el("h3", {}, t("h_standings")), standingsList());
    }
  }

  return { element, update, rerender: draw, hasMatches: () => loadedFor !== null };
}
