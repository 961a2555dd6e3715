// A room's page: its connection and state, the game's table (a renderer module under
// tables/ gets the latest view and a way to move), the play again bar and the connection
// status. The waiting room and a visitor's panel are room_lobby.js, the settings sheet
// room_settings.js; both draw from this page's context (`ctx`).

import { api, RoomSocket, seatStore, UNAVAILABLE_RETRY_MS } from "./net.js";
import { addStrings, t } from "./i18n.js";
import { el, replaceKeepingFocus, seatLabel } from "./components.js";
import { TABLES } from "./tables/index.js";
import { errorText, gameName, main, notify } from "./page.js";
import { createHistory } from "./history.js";
import { createMoveLog } from "./move_log.js";
import { createSeatActs } from "./seat_acts.js";
import { myName, seatName } from "./names.js";
import { presencePanel } from "./presence.js";
import { claimSeatLink, copyBox, seatLink } from "./seat_link.js";
import { clearTurnSignal, setYourMove } from "./turn_signal.js";
import { placeSeatClocks, seatClockChip, vacationButton } from "./seat_clock.js";
import { visitorPanel, waitingRoom } from "./room_lobby.js";
import { settingsDialog } from "./room_settings.js";
import { createCoach } from "./coach.js";
import { createHints } from "./hints.js";
import { createTalk } from "./chat.js";
import { createReview } from "./review.js";
import { openRules, setExplainGame } from "./explain.js";
import {
  fold, setAfterPaint, setHeadControls, setHints, setLatestMove, setSeatDecor,
} from "./tables/frame.js";
import { setRoundNote } from "./tables/round_end.js";

addStrings({
  en: {
    presence_away_short: "away",
    past_matches: "Matches",
    room_unavailable_retry: "This page tries again every minute.",
    room_unavailable_seat: "Your seat is kept.",
    room_unavailable_leave: "Leave this room",
    room_unavailable_leave_confirm: "Forget your seat in this room on this device? The room leaves Your rooms, and this device cannot come back to the seat.",
    room_unavailable_left: "Room {code} is no longer in Your rooms.",
  },
  ja: {
    presence_away_short: "離席中",
    past_matches: "対戦記録",
    room_unavailable_retry: "このページは1分ごとに再試行します。",
    room_unavailable_seat: "あなたの席はそのまま残っています。",
    room_unavailable_leave: "この部屋を離れる",
    room_unavailable_leave_confirm: "この端末からこの部屋の席を消しますか？ 参加中の部屋から外れ、この端末からは席に戻れなくなります。",
    room_unavailable_left: "部屋{code}を参加中の部屋から外しました。",
  },
});

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
    // When the latest view arrived (performance.now()): presence times count from it.
    receivedAt: 0,
    // Why this device lost its seat (a "closed" frame: seat_left, seat_reissued).
    revoked: "",
    confirmStart: false, // the host pressed Start with seats still open
    confirmLeave: false,
    confirmForget: false, // Leave this room asked on the unavailable page (forgetControls)
    reissued: null, // {seat, token}: a seat link the host just re-issued
  };
  let socket = null;
  let table = null; // the game's renderer instance, drawing into tableHolder
  const tableHolder = el("div", { id: "table-root" });
  const matchHistory = createHistory(code, {
    tokens: () => held().map((s) => s.token), mine: () => mySeats(), notify,
    // Any finished match may be reviewed together, between matches (review.js's bar).
    review: {
      can: () => review.canOpen() && ((page.message && page.message.room) || {}).status === "over",
      open: (number) => review.open(number),
    },
  });
  // Every move said in words (move_log.js): the latest at the table, the whole as a sheet.
  const moveLog = createMoveLog({ storageKey: `zashiki.movelog.${code}` });
  // Each seat's last move, short, in its panel (seat_acts.js; decorateSeat puts it there).
  const seatActs = createSeatActs({ storageKey: `zashiki.seatacts.${code}` });
  // On every paint, the table's own redraws (a tap) included, the dock's #latest-move
  // slot gets the latest line and the head row the Log button (the whole log's sheet).
  // A first match's coach (coach.js) says its line there instead, while it has one.
  const coach = createCoach(code, {
    send: (frame) => socket && socket.send(frame),
    move: (seat, action) => socket && socket.move(seat, action),
    redraw: () => render(),
  });
  if (coach) setAfterPaint(coach.fit);
  setLatestMove(() => {
    const said = coach && coach.card();
    if (said) return said;
    const line = moveLog.latestLine();
    line.removeAttribute("style");
    return line;
  });
  // Hints (hints.js): the dock's Hint button and helper line, the suggested move marked on
  // every paint, the head row's Hints sheet, and the hints used in each round's result.
  const hints = createHints({ send: (frame) => socket && socket.send(frame), redraw: () => render() });
  const labelOf = (seat) => seatLabel(page.message.seats, seat, page.message.you || []);
  setHints(hints);
  setRoundNote(() => hints.usedLine(labelOf));
  setHeadControls(() => [coach && coach.sheet(), hints.sheet(labelOf), moveLog.openButton()].filter(Boolean));
  // The chat panel and reactions (chat.js), kept across renders.
  const talk = createTalk({ send: (frame) => socket && socket.send(frame) });
  // Review together (review.js): shown instead of the table while this device is in it.
  const review = createReview(code, {
    send: (frame) => socket && socket.send(frame), held: () => held(), watching: () => watch, redraw: () => render(),
  });

  claimSeatLink(code);
  const held = () => seatStore.get(code);
  const mySeats = () => (page.message ? page.message.you || [] : held().map((s) => s.seat));

  // Set while the room's save cannot be loaded on the server (room_unavailable): the page
  // says so and opens the room again once a minute (net.js UNAVAILABLE_RETRY_MS).
  let unavailableTimer = null;

  async function loadSummary() {
    try {
      page.summary = await api("GET", `/api/rooms/${code}`);
      page.unavailable = false;
      setExplainGame(page.summary.game);
    } catch (err) {
      if (err.code === "room_unavailable") {
        page.unavailable = true;
        clearTimeout(unavailableTimer);
        unavailableTimer = setTimeout(open, UNAVAILABLE_RETRY_MS);
      } else page.error = errorText(err);
    }
  }

  function connect() {
    if (socket) socket.close();
    const tokens = watch ? [] : held().map((s) => s.token);
    socket = new RoomSocket(code, tokens, {
      onMessage(frame) {
        talk.onFrame(frame);
        if (review.onFrame(frame)) return;
        if (coach && coach.onFrame(frame)) return;
        if (hints.onFrame(frame)) return;
        if (frame.t === "view") {
          page.message = frame;
          moveLog.update(frame, frame.room && frame.room.game);
          seatActs.update(frame, frame.room && frame.room.game);
          page.receivedAt = performance.now();
          const legal = frame.legal || {};
          const moves = frame.room && frame.room.status === "playing"
            && Object.values(legal).some((actions) => actions && actions.length);
          setYourMove(Boolean(moves), code);
          render();
        } else if (frame.t === "closed" && (frame.code === "seat_left" || frame.code === "seat_reissued")) {
          page.revoked = frame.code;
          seatStore.forget(code);
          setYourMove(false, code);
          loadSummary().then(render);
        } else if (frame.t === "welcome" && frame.view) {
          page.message = frame.view;
          render();
        } else if (frame.t === "error" && frame.code !== "room_unavailable") {
          // (room_unavailable: the page says so in full once the socket closes.)
          notify(errorText(frame));
        }
      },
      onStatus(status, closeCode) {
        if (status === "connecting") page.shownFor = null;
        if (status === "refused" && closeCode === 4001 && !watch && !page.revoked) {
          // A stale token (left or re-issued while this page was away).
          page.revoked = "seat_reissued";
          seatStore.forget(code);
          loadSummary().then(render);
        }
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
      const answer = await api("POST", `/api/rooms/${code}/seats`, { name: myName() });
      seatStore.add(code, answer.seat, answer.token);
      connect();
    } catch (err) {
      page.error = errorText(err);
      render();
    }
  }

  function toLobby() {
    history.pushState({}, "", "/");
    window.dispatchEvent(new PopStateEvent("popstate"));
  }

  /** The room's seat clocks (null: relaxed), from the latest view or the summary. */
  function roomClock() {
    const room = page.message && page.message.room;
    return (room ? room.clock : page.summary && page.summary.clock) || null;
  }

  /** The host's seat token, for host requests. */
  function hostToken() {
    const hostSeat = page.message && page.message.room ? page.message.room.host
      : page.summary ? page.summary.host : 0;
    const mine = held().find((s) => s.seat === hostSeat);
    return mine ? mine.token : null;
  }

  const seatActions = {
    async handToCpu(seat) {
      try {
        await api("POST", `/api/rooms/${code}/seats/${seat}/cpu`, { token: hostToken() });
      } catch (err) {
        notify(errorText(err));
      }
    },
    async reissue(seat) {
      try {
        const answer = await api("POST", `/api/rooms/${code}/seats/${seat}/reissue`, { token: hostToken() });
        page.reissued = { seat: answer.seat, token: answer.token };
        render();
      } catch (err) {
        notify(errorText(err));
      }
    },
    async takeBack() {
      try {
        for (const mine of held()) {
          await api("POST", `/api/rooms/${code}/back`, { token: mine.token });
        }
      } catch (err) {
        notify(errorText(err));
      }
    },
  };

  /** The display name at this device's first seat here, as the room shows it. */
  function myCurrentName() {
    const seats = (page.message && page.message.seats) || [];
    const first = mySeats()[0];
    return (first !== undefined && seats[first] && seats[first].name) || "";
  }

  /** Rename this device's seats here after the player changed their name. */
  async function renameSeats(name) {
    try {
      for (const mine of held()) {
        await api("POST", `/api/rooms/${code}/name`, { token: mine.token, name });
      }
      notify(t("name_saved"));
    } catch (err) {
      notify(errorText(err));
    }
  }

  function presence() {
    const msg = page.message;
    const isHost = mySeats().includes(msg.room && msg.room.host);
    const reissued = page.reissued;
    const panel = presencePanel(msg, page.receivedAt, { mine: mySeats(), isHost, actions: seatActions });
    return [
      panel,
      reissued ? copyBox("reissued-link", t("seat_link_of", { name: seatName(msg.seats, reissued.seat) }),
        seatLink(code, reissued.seat, reissued.token)) : null,
      vacationButton(msg, watch ? [] : mySeats(), (frame) => socket && socket.send(frame)),
    ];
  }

  /**
   * At a table the players' panel (presence, the host's buttons) is a sheet in the room's
   * bar; what asks something of the player (take your seat back, the table waits for
   * someone, a new seat link) stays in sight above the table.
   */
  function presenceAtTable() {
    const [panel, reissued, vacation] = presence();
    const urgent = [...panel.querySelectorAll("#take-back, #table-waits")];
    return {
      sheet: fold("people", t("presence_title"), panel, vacation),
      alerts: urgent.length || reissued ? el("div", { class: "room-alerts", id: "room-alerts" }, urgent, reissued) : null,
    };
  }

  /** Presence, the host's mark and the last move on a table's seat panel (frame.js calls
   * it on each paint). */
  function decorateSeat(panelNode, seat) {
    seatActs.decorate(panelNode, seat);
    const msg = page.message;
    const info = msg && msg.seats && msg.seats[Number(seat)];
    if (!info || panelNode.querySelector(".seat-presence")) return;
    // The seat's clock (a days or live room), on the table's own redraws too.
    const chip = msg.room && msg.room.clock && !panelNode.querySelector(":scope > .seat-clock")
      ? seatClockChip(msg, Number(seat), page.receivedAt, seatName(msg.seats, Number(seat))) : null;
    if (chip) panelNode.append(chip);
    const state = info.kind === "human" ? info.presence || "connected" : "cpu";
    // Your own seat needs no word that you are here; a CPU's has none.
    const mine = mySeats().includes(Number(seat));
    const word = info.kind !== "human" || (mine && state === "connected") ? ""
      : state === "covered" ? t("presence_covered", { name: seatName(msg.seats, Number(seat)) })
        : state === "away" ? t("presence_away_short") : t("presence_here");
    panelNode.dataset.presence = state;
    if (!word && !info.host) return;
    const name = panelNode.querySelector(".name") || panelNode;
    name.append(el("span", { class: "seat-presence", "data-presence-of": seat },
      el("span", { class: "presence-dot", "aria-hidden": "true" }),
      word ? el("span", { class: "presence-word" }, word) : null,
      info.host ? el("span", { class: "host-mark", title: t("host_mark"), "aria-label": t("host_mark") }, "★") : null));
  }
  setSeatDecor(decorateSeat);

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
    const reviewButton = review.bar(room);
    if (room.status !== "over") return reviewButton && el("section", { class: "panel play-again" }, reviewButton);
    const isHost = mySeats().includes(room.host);
    return el("section", { class: "panel play-again", id: "play-again", role: "region", "aria-label": t("play_again") },
      reviewButton,
      isHost
        ? [el("button", {
          type: "button", id: "play-again-button", "data-key": "play-again",
          disabled: page.againFrom === room.match, onclick: playAgain,
        }, t("play_again")), el("span", { class: "muted" }, t("play_again_note"))]
        : el("p", { class: "muted", id: "play-again-waiting", role: "status" }, t("waiting_play_again")));
  }

  function statusLine() {
    const text = {
      connecting: t("status_connecting"),
      connected: t("status_connected"),
      reconnecting: t("status_reconnecting"),
      refused: t("status_refused"),
    }[page.status] || "";
    return el("p", { class: "muted", id: "connection-status", role: "status", "data-state": page.status }, text,
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
      // The rules open over the table: the game keeps running and the seat stays connected.
      openRules: page.summary ? () => openRules(page.summary.game) : null,
      openLog: () => moveLog.open(),
      notify,
    };
  }

  /**
   * The latest move at the table: frame.js puts the line in the dock's #latest-move slot
   * and the Log button in the head row on every paint (setLatestMove, setHeadControls).
   * After each render the line is redrawn (a language change), and focus goes back to
   * the Log button when it was there.
   */
  function mountMoveLog(refocus) {
    moveLog.draw();
    if (refocus) moveLog.openButton().focus({ preventScroll: true });
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

  // What the waiting room and the settings sheet (room_lobby.js, room_settings.js) draw from.
  const ctx = {
    code, page, held, mySeats, render, start, seatActions, presence, roomClock,
    renameSeats, myCurrentName, takeSeat, closeSettings, hostToken,
    watching: () => watch,
    watchRoom: () => { watch = true; connect(); },
    left: () => { if (socket) socket.close(); toLobby(); },
  };

  // At a table the page is one screen (body.table-page): the room's title, the players'
  // sheet and the chat sit in the page's top bar, the table fills the rest.
  const roomBar = el("div", { class: "room-bar", id: "room-bar" });

  function atTable(on) {
    // The chat, open beside a wide waiting room, starts closed at the table (a sheet over it).
    const chat = talk.node.querySelector("#talk");
    if (on && !document.body.classList.contains("table-page") && chat) chat.open = false;
    document.body.classList.toggle("table-page", on);
    const topbar = document.querySelector(".topbar");
    if (on && topbar && roomBar.parentElement !== topbar) topbar.insertBefore(roomBar, document.getElementById("lang-toggle"));
    if (!on) roomBar.remove();
  }

  /** A way out of a room that cannot be opened: its seats forgotten on this device (the
   * server cannot load the room to be told of a leave, as Your rooms' Leave does), then
   * the lobby; a confirmation first, as what is forgotten cannot be had back here. */
  function forgetControls() {
    if (!page.confirmForget) {
      return el("p", {}, el("button", {
        type: "button", class: "ghost", id: "room-unavailable-leave", "data-key": "room-unavailable-leave",
        onclick: () => { page.confirmForget = true; render(); },
      }, t("room_unavailable_leave")));
    }
    return el("div", {
      class: "confirm", role: "alertdialog", id: "room-unavailable-leave-confirm",
      "aria-labelledby": "room-unavailable-leave-text",
    },
    el("p", { id: "room-unavailable-leave-text" }, t("room_unavailable_leave_confirm")),
    el("div", { class: "row" },
      el("button", {
        type: "button", id: "room-unavailable-leave-yes", "data-key": "room-unavailable-leave-yes",
        onclick: () => {
          seatStore.forget(code);
          notify(t("room_unavailable_left", { code }));
          toLobby();
        },
      }, t("room_unavailable_leave")),
      el("button", {
        type: "button", class: "ghost", id: "room-unavailable-leave-no", "data-key": "room-unavailable-leave-no",
        onclick: () => { page.confirmForget = false; render(); },
      }, t("cancel"))));
  }

  function render() {
    const match = page.message && page.message.room ? page.message.room.match : 1;
    const title = el("h1", {}, t("room_title", { code }),
      page.summary ? el("span", { class: "muted" }, " · " + gameName(page.summary.game)) : null,
      match > 1 ? el("span", { class: "muted", id: "match-number" }, " · " + t("match_n", { n: match })) : null);
    if (page.unavailable || page.status === "unavailable") {
      atTable(false);
      // Without the game's name: a withdrawn game has none on this server.
      replaceKeepingFocus(main, el("h1", {}, t("room_title", { code })),
        el("div", { class: "error", role: "alert", id: "room-unavailable" },
          el("p", {}, t("err_room_unavailable")),
          el("p", {}, held().length && !watch ? t("room_unavailable_seat") + " " : "", t("room_unavailable_retry"))),
        held().length && !watch ? forgetControls() : null,
        el("a", { href: "/", id: "room-unavailable-lobby" }, t("back_to_lobby")));
      return;
    }
    if (page.error && !page.message) {
      atTable(false);
      replaceKeepingFocus(main, title, el("p", { class: "error", role: "alert" }, page.error),
        el("a", { href: "/" }, t("back_to_lobby")));
      return;
    }
    const parts = [title, statusLine()];
    const msg = page.message;
    if ((!msg || page.revoked) && !held().length && !watch && page.summary) {
      parts.push(visitorPanel(ctx));
    } else if (msg && msg.view) {
      const gameId = page.summary ? page.summary.game : null;
      const renderer = TABLES[gameId];
      const room = msg.room || {};
      const finished = room.status === "over" || room.match > 1;
      const people = presenceAtTable();
      atTable(true);
      replaceKeepingFocus(roomBar, ...[title, statusLine(), people.sheet, talk.node,
        finished ? fold("history", t("past_matches"), matchHistory.element) : null].filter(Boolean));
      parts.length = 0;
      const reviewing = review.active();
      parts.push(settingsDialog(ctx), reviewing ? null : playAgainBar(), people.alerts,
        reviewing ? review.element : tableHolder);
      matchHistory.update(room);
      replaceKeepingFocus(main, ...parts.filter(Boolean));
      if (reviewing) review.render();
      else if (!renderer) tableHolder.replaceChildren(el("p", {}, t("no_table")));
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
        const logFocused = document.activeElement === moveLog.openButton();
        table.render(tableContext());
        mountMoveLog(logFocused);
        placeSeatClocks(tableHolder, msg, page.receivedAt, (seat) => seatName(msg.seats, seat));
        reportShown(renderer);
      }
      talk.update({ message: msg, you: msg.you || [], seats: msg.seats || [] });
      // The coach's card takes what room the table leaves once all of it is in (its seat
      // clocks, the Log button, the chat); the table's own redraws fit it too (setAfterPaint).
      if (coach) coach.fit();
      const focusTarget = page.settingsOpen && document.getElementById("close-settings");
      if (focusTarget && !main.contains(document.activeElement)) focusTarget.focus();
      return;
    } else if (msg) {
      parts.push(waitingRoom(ctx), talk.node);
    } else {
      parts.push(el("p", {}, t("loading")));
    }
    atTable(false);
    replaceKeepingFocus(main, ...parts.filter(Boolean));
    if (msg) talk.update({ message: msg, you: msg.you || [], seats: msg.seats || [] });
  }

  const onVisibility = () => setVisible();
  document.addEventListener("visibilitychange", onVisibility);
  function teardown() {
    document.removeEventListener("visibilitychange", onVisibility);
    clearTimeout(unavailableTimer);
    atTable(false);
    setSeatDecor(null);
    setLatestMove(null);
    setAfterPaint(null);
    setHints(null);
    setRoundNote(null);
    setHeadControls(null);
    clearTurnSignal();
    setExplainGame(null);
    if (table && table.destroy) table.destroy();
    moveLog.destroy();
    if (coach) coach.destroy();
    talk.destroy();
    review.destroy();
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
