// A room's page: the waiting room (share link, seats, start), taking a seat or watching,
// the game's table (a renderer module under tables/ gets the latest view and a way to
// move), the play again bar, the settings dialog and the connection status.

import { api, RoomSocket, seatStore } from "./net.js";
import { lang, setLang, t } from "./i18n.js";
import { el, replaceKeepingFocus, seatLabel } from "./components.js";
import { TABLES } from "./tables/index.js";
import { errorText, gameName, main, notify, optionLabel, optionTitle } from "./page.js";
import { createHistory } from "./history.js";

/**
 * Show the room `code` in the main area, as a spectator when `watch`. Returns the page's
 * rerender (for a language change) and teardown (closes the connection and the table).
 */
export function showRoom(code, { watch = false } = {}) {
  const page = {
    summary: null, message: null, status: "connecting", error: "", settingsOpen: false,
    // The match whose first view was reported shown on this connection (null: none yet).
    shownFor: null,
    // The match the table instance was made for: a new match gets a fresh table.
    tableMatch: null,
    // The finished match the host asked to play again from (the button waits meanwhile).
    againFrom: null,
  };
  let socket = null;
  let table = null; // the game's renderer instance, drawing into tableHolder
  const tableHolder = el("div", { id: "table-root" });
  const matchHistory = createHistory(code, {
    tokens: () => held().map((s) => s.token), mine: () => mySeats(), notify,
  });

  const held = () => seatStore.get(code);
  const mySeats = () => (page.message ? page.message.you || [] : held().map((s) => s.seat));

  async function loadSummary() {
    try {
      page.summary = await api("GET", `/api/rooms/${code}`);
    } catch (err) {
      page.error = errorText(err);
    }
  }

  function connect() {
    if (socket) socket.close();
    const tokens = watch ? [] : held().map((s) => s.token);
    socket = new RoomSocket(code, tokens, {
      onMessage(frame) {
        if (frame.t === "view") {
          page.message = frame;
          render();
        } else if (frame.t === "welcome" && frame.view) {
          page.message = frame.view;
          render();
        } else if (frame.t === "error") {
          notify(errorText(frame));
        }
      },
      onStatus(status) {
        if (status === "connecting") page.shownFor = null;
        page.status = status;
        render();
      },
    });
  }

  /**
   * After a (re)connection and at each new match the server holds the game clock until
   * the board is shown (RULINGS U11). Tables that report "shown" themselves (Usunoro, per
   * new hand) export REPORTS_SHOWN; for the others the page reports it once the first
   * view of the connection, or of a new match, is painted.
   */
  function reportShown(renderer) {
    const match = page.message.room && page.message.room.match;
    if (renderer.REPORTS_SHOWN || page.shownFor === match || !(page.message.you || []).length) return;
    page.shownFor = match;
    requestAnimationFrame(() => requestAnimationFrame(() => socket && socket.send({ t: "shown" })));
  }

  function setVisible() {
    if (socket) socket.send({ t: "visible", visible: !document.hidden && !page.settingsOpen });
  }

  async function takeSeat() {
    try {
      const answer = await api("POST", `/api/rooms/${code}/seats`, {});
      seatStore.add(code, answer.seat, answer.token);
      connect();
    } catch (err) {
      page.error = errorText(err);
      render();
    }
  }

  /** The host's start: the first match from the lobby, or the next one once a match is over. */
  async function start() {
    const hostSeat = page.summary ? page.summary.host : 0;
    const mine = held().find((s) => s.seat === hostSeat) || held()[0];
    try {
      await api("POST", `/api/rooms/${code}/start`, { token: mine.token });
      return true;
    } catch (err) {
      notify(errorText(err));
      return false;
    }
  }

  async function playAgain() {
    page.againFrom = page.message.room.match;
    render();
    // On success the new match's first view replaces this one; on failure try again.
    if (!(await start())) {
      page.againFrom = null;
      render();
    }
  }

  /**
   * Once a match is over (the table shows its result): the host's "Play again" (same
   * seats, a new deal), or for everyone else a note that the host decides. One place for
   * every game's table.
   */
  function playAgainBar() {
    const room = page.message.room || {};
    if (room.status !== "over") return null;
    const isHost = mySeats().includes(room.host);
    return el("section", { class: "panel play-again", id: "play-again", role: "region", "aria-label": t("play_again") },
      isHost
        ? [el("button", {
          type: "button", id: "play-again-button", "data-key": "play-again",
          disabled: page.againFrom === room.match, onclick: playAgain,
        }, t("play_again")), el("span", { class: "muted" }, t("play_again_note"))]
        : el("p", { class: "muted", id: "play-again-waiting", role: "status" }, t("waiting_play_again")));
  }

  function shareBox() {
    const link = `${location.origin}/?room=${code}`;
    return el("div", { class: "share" },
      el("label", { for: "share-link", class: "label" }, t("share_link")),
      el("input", { id: "share-link", readonly: true, value: link, "data-key": "share-link" }),
      el("button", {
        type: "button", "data-key": "copy",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            notify(t("copied"));
          } catch {
            document.getElementById("share-link").select();
            notify(t("copy_failed"));
          }
        },
      }, t("copy")));
  }

  function seatList(room, seats) {
    const mine = mySeats();
    return el("ul", { class: "room-list", id: "seat-list" }, seats.map((s, i) => el("li", {},
      el("span", {}, t("seat_n", { n: i + 1 }), " — ",
        s.kind === "open" ? el("em", {}, t("friend_waiting"))
          : s.kind === "cpu" ? t("seat_kind_cpu")
            : mine.includes(i) ? t("you") : (s.name || t("friend_joined"))))));
  }

  function waitingRoom() {
    const msg = page.message;
    const seats = (msg && msg.seats) || (page.summary && page.summary.seats) || [];
    const hostSeat = msg && msg.room ? msg.room.host : page.summary && page.summary.host;
    const isHost = mySeats().includes(hostSeat);
    return el("section", { class: "panel" },
      shareBox(),
      seatList(msg && msg.room, seats),
      isHost
        ? el("button", { type: "button", id: "start-button", "data-key": "start", onclick: start },
          t("start_match"))
        : el("p", { class: "muted" }, t("waiting_host")));
  }

  function visitorPanel() {
    const summary = page.summary;
    const canSit = summary && summary.open_seats > 0 && summary.status === "lobby";
    return el("section", { class: "panel" },
      el("p", {}, gameName(summary.game)),
      canSit
        ? el("button", { type: "button", id: "take-seat", "data-key": "take-seat", onclick: takeSeat },
          t("take_seat"))
        : el("p", {}, t("room_full")),
      " ",
      el("button", {
        type: "button", class: "ghost", id: "watch", onclick: () => { watch = true; connect(); },
      }, t("watch")));
  }

  function statusLine() {
    const text = {
      connecting: t("status_connecting"),
      connected: t("status_connected"),
      reconnecting: t("status_reconnecting"),
      refused: t("status_refused"),
    }[page.status] || "";
    return el("p", { class: "muted", id: "connection-status", role: "status" }, text,
      watch ? " · " + t("spectating") : "");
  }

  function tableContext() {
    const msg = page.message;
    return {
      message: msg,
      you: msg.you || [],
      seats: msg.seats || [],
      room: { ...(msg.room || {}), difficulty: page.summary && page.summary.difficulty },
      move: (seat, action) => socket && socket.move(seat, action),
      send: (frame) => socket && socket.send(frame),
      seatLabel: (seat) => seatLabel(msg.seats, seat, msg.you || []),
      openSettings,
      notify,
    };
  }

  function openSettings() {
    page.settingsOpen = true;
    setVisible();
    render();
  }

  function closeSettings() {
    page.settingsOpen = false;
    setVisible();
    render();
  }

  /** The room's fixed settings (chosen when it was made), shown read-only. */
  function roomSettings() {
    const summary = page.summary;
    if (!summary) return null;
    const rows = Object.entries(summary.options || {})
      .filter(([, value]) => typeof value !== "object")
      .map(([name, value]) => {
        const option = { name };
        return el("li", {}, `${optionTitle(option)}: ${optionLabel(option, value)}`);
      });
    rows.push(el("li", {}, `${t("difficulty")}: ${t("difficulty_" + summary.difficulty)}`));
    return el("div", {}, el("p", { class: "label" }, t("room_settings")),
      el("ul", { id: "room-settings" }, rows));
  }

  function settingsDialog() {
    if (!page.settingsOpen) return null;
    const reduced = localStorage.getItem("zashiki.reducedMotion") === "1";
    const dialog = el("div", { class: "panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "settings-title", id: "settings" },
      el("h2", { id: "settings-title" }, t("settings")),
      el("p", { class: "muted" }, t("settings_note")),
      roomSettings(),
      el("label", { class: "row" }, el("input", {
        type: "checkbox", checked: reduced, id: "reduced-motion",
        onchange: (e) => {
          localStorage.setItem("zashiki.reducedMotion", e.target.checked ? "1" : "0");
          document.body.classList.toggle("reduced-motion", e.target.checked);
        },
      }), t("reduced_motion")),
      el("div", { class: "field" }, el("label", { for: "language" }, t("language")),
        el("select", { id: "language", onchange: (e) => setLang(e.target.value) },
          ["en", "ja"].map((code) => el("option", { value: code, selected: lang() === code }, t("lang_" + code))))),
      el("button", { type: "button", id: "close-settings", "data-key": "close-settings", onclick: closeSettings },
        t("close")));
    dialog.addEventListener("keydown", (e) => { if (e.key === "Escape") closeSettings(); });
    return dialog;
  }

  function render() {
    const match = page.message && page.message.room ? page.message.room.match : 1;
    const title = el("h1", {}, t("room_title", { code }),
      page.summary ? el("span", { class: "muted" }, " · " + gameName(page.summary.game)) : null,
      match > 1 ? el("span", { class: "muted", id: "match-number" }, " · " + t("match_n", { n: match })) : null);
    if (page.error && !page.message) {
      replaceKeepingFocus(main, title, el("p", { class: "error", role: "alert" }, page.error),
        el("a", { href: "/" }, t("back_to_lobby")));
      return;
    }
    const parts = [title, statusLine()];
    const msg = page.message;
    if (!msg && !held().length && !watch && page.summary) {
      parts.push(visitorPanel());
    } else if (msg && msg.view) {
      const gameId = page.summary ? page.summary.game : null;
      const renderer = TABLES[gameId];
      const room = msg.room || {};
      const finished = room.status === "over" || room.match > 1;
      parts.push(settingsDialog(), playAgainBar(), tableHolder, finished ? matchHistory.element : null);
      matchHistory.update(room);
      replaceKeepingFocus(main, ...parts.filter(Boolean));
      if (!renderer) tableHolder.replaceChildren(el("p", {}, t("no_table")));
      else {
        // A new match starts on a fresh table: nothing of the last one's local state
        // (selections, result panels, the last hand reported shown) carries over.
        if (table && page.tableMatch !== match) {
          if (table.destroy) table.destroy();
          table = null;
        }
        if (!table) {
          table = renderer.create(tableHolder);
          page.tableMatch = match;
        }
        table.render(tableContext());
        reportShown(renderer);
      }
      const focusTarget = page.settingsOpen && document.getElementById("close-settings");
      if (focusTarget && !main.contains(document.activeElement)) focusTarget.focus();
      return;
    } else if (msg) {
      parts.push(waitingRoom());
    } else {
      parts.push(el("p", {}, t("loading")));
    }
    replaceKeepingFocus(main, ...parts.filter(Boolean));
  }

  const onVisibility = () => setVisible();
  document.addEventListener("visibilitychange", onVisibility);
  function teardown() {
    document.removeEventListener("visibilitychange", onVisibility);
    if (table && table.destroy) table.destroy();
    if (socket) socket.close();
  }

  /** The room's summary first; then a seat holder or a spectator connects. */
  async function open() {
    await loadSummary();
    if (page.summary && (held().length || watch)) connect();
    render();
  }

  render();
  open();
  return { rerender: render, teardown };
}
