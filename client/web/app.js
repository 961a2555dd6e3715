// The page: the lobby at "/", a room at "/?room=CODE". Each game's table is a renderer
// module under tables/; the room page hands it the latest view and a way to move.

import { api, ApiError, RoomSocket, seatStore } from "./net.js";
import { addStrings, lang, onLangChange, setLang, t } from "./i18n.js";
import { el, replaceKeepingFocus, seatLabel } from "./components.js";
import { TABLES } from "./tables/index.js";

for (const table of Object.values(TABLES)) if (table.STRINGS) addStrings(table.STRINGS);

const main = document.getElementById("main");
const toast = document.getElementById("toast");
let rerender = () => {};
let teardown = () => {};

function notify(text) {
  toast.textContent = text;
  toast.classList.add("show");
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => toast.classList.remove("show"), 2500);
}

/** A server error in the player's language: by its code where we know it. */
function errorText(err) {
  const key = "err_" + (err.code || "");
  const text = t(key);
  if (text !== key) return text;
  // Unknown codes keep the server's (English) message only in English mode.
  return lang() === "en" ? t("error_generic", { message: err.message || String(err) })
    : t("error_generic", { message: err.code || "?" });
}

function renderLangToggle() {
  const button = document.getElementById("lang-toggle");
  button.textContent = t("lang_switch");
  button.setAttribute("aria-label", t("lang_switch_label"));
}
document.getElementById("lang-toggle").addEventListener("click", () => {
  setLang(lang() === "en" ? "ja" : "en");
});
onLangChange(() => {
  renderLangToggle();
  rerender();
});

// --- lobby --------------------------------------------------------------------------

function gameName(id) {
  const key = "game_" + id;
  const text = t(key);
  return text === key ? id : text;
}

function optionLabel(game, option, value) {
  const key = `opt_${option.name}_${value}`;
  const text = t(key);
  return text === key ? String(value) : text;
}

/** The choices an option offers at `seats` seats: per-seat numbers stop at the last seat. */
function choicesFor(option, seats) {
  return option.per_seat ? option.choices.filter((c) => typeof c !== "number" || c < seats) : option.choices;
}

function optionTitle(option) {
  const key = "opt_" + option.name;
  const text = t(key);
  return text === key ? option.name : text;
}

async function showLobby() {
  const form = {
    game: null, seats: 0, kinds: [], difficulty: "normal", public: false, sameDevice: false,
    options: {},
  };
  let games = [];
  let rooms = [];
  let error = "";

  function chooseGame(game) {
    form.game = game;
    form.seats = game.max_seats;
    form.kinds = Array.from({ length: game.max_seats }, (_, i) => (i === 0 ? "host" : "cpu"));
    form.options = Object.fromEntries(game.options.map((o) => [o.name, o.default]));
    form.sameDevice = false;
  }

  /** After the seat count changes, a chosen seat that no longer exists falls back to the default. */
  function fitOptions() {
    for (const o of form.game.options.filter((option) => option.per_seat)) {
      if (!choicesFor(o, form.seats).includes(form.options[o.name])) form.options[o.name] = o.default;
    }
  }

  async function host() {
    error = "";
    try {
      const kinds = form.kinds.slice(0, form.seats);
      if (form.sameDevice) kinds[1] = "open";
      const options = { ...form.options };
      if (form.sameDevice && "open_hands" in options) options.open_hands = [0, 1];
      const created = await api("POST", "/api/rooms", {
        game: form.game.id,
        seats: kinds,
        options,
        difficulty: form.difficulty,
        public: form.public,
      });
      seatStore.add(created.code, created.seat, created.token);
      if (form.sameDevice) {
        const second = await api("POST", `/api/rooms/${created.code}/seats`, { seat: 1 });
        seatStore.add(created.code, second.seat, second.token);
      }
      navigate(created.code);
    } catch (err) {
      error = errorText(err);
      render();
    }
  }

  function joinByCode(event) {
    event.preventDefault();
    const code = new FormData(event.target).get("code").toString().trim().toUpperCase();
    if (code) navigate(code);
  }

  async function refreshRooms() {
    try {
      rooms = (await api("GET", "/api/rooms")).rooms || [];
    } catch {
      rooms = [];
    }
    render();
  }

  function gameChooser() {
    return el("fieldset", { class: "game-list" },
      el("legend", { class: "label" }, t("game")),
      games.map((game) => {
        const built = game.id in TABLES;
        const seats = game.min_seats === game.max_seats
          ? t("seats_count", { n: game.max_seats })
          : t("seats_range", { min: game.min_seats, max: game.max_seats });
        return el("label", { class: "game-choice", "aria-disabled": String(!built) },
          el("input", {
            type: "radio", name: "game", value: game.id, disabled: !built,
            checked: form.game && form.game.id === game.id, "data-key": "game-" + game.id,
            onchange: () => { chooseGame(game); render(); },
          }),
          el("span", {}, el("strong", {}, gameName(game.id)), " · ", seats,
            built ? null : el("span", { class: "muted" }, " — " + t("table_missing"))));
      }));
  }

  function seatChooser() {
    const game = form.game;
    const countPicker = game.min_seats === game.max_seats ? null : el("div", { class: "field" },
      el("label", { for: "seat-count" }, t("players")),
      el("select", {
        id: "seat-count", "data-key": "seat-count",
        onchange: (e) => { form.seats = Number(e.target.value); fitOptions(); render(); },
      }, Array.from({ length: game.max_seats - game.min_seats + 1 }, (_, i) => {
        const n = game.min_seats + i;
        return el("option", { value: n, selected: n === form.seats }, String(n));
      })));
    const seats = el("div", { class: "seat-config" },
      form.kinds.slice(0, form.seats).map((kind, i) => {
        if (i === 0) {
          return el("div", { class: "field" }, el("span", { class: "label" }, t("seat_n", { n: 1 })),
            el("span", {}, t("seat_kind_host")));
        }
        const locked = form.sameDevice && i === 1;
        return el("div", { class: "field" },
          el("label", { for: "seat-kind-" + i }, t("seat_n", { n: i + 1 })),
          el("select", {
            id: "seat-kind-" + i, "data-key": "seat-kind-" + i, disabled: locked,
            onchange: (e) => { form.kinds[i] = e.target.value; render(); },
          },
          ["cpu", "open"].map((k) => el("option", { value: k, selected: (locked ? "open" : kind) === k },
            locked ? t("player_n", { n: 2 }) : t("seat_kind_" + k)))));
      }));
    return el("div", {}, countPicker, el("div", { class: "label" }, t("players")), seats);
  }

  function optionsChooser() {
    const game = form.game;
    const shown = game.options.filter((o) => o.choices && o.choices.length);
    const fields = shown.map((o) => {
      const choices = choicesFor(o, form.seats);
      return el("div", { class: "field" },
        el("label", { for: "opt-" + o.name }, optionTitle(o)),
        el("select", {
          id: "opt-" + o.name, "data-key": "opt-" + o.name,
          onchange: (e) => {
            const value = choices.find((c) => String(c) === e.target.value);
            form.options[o.name] = value;
          },
        }, choices.map((c) => el("option", { value: String(c), selected: form.options[o.name] === c },
          optionLabel(game, o, c)))));
    });
    const sameDevice = game.options.some((o) => o.name === "open_hands")
      ? el("label", { class: "row" }, el("input", {
        type: "checkbox", checked: form.sameDevice, "data-key": "same-device", id: "same-device",
        onchange: (e) => { form.sameDevice = e.target.checked; render(); },
      }), t("same_device"))
      : null;
    return el("div", {}, fields.length ? el("div", { class: "label" }, t("options")) : null, fields,
      sameDevice);
  }

  function hostPanel() {
    return el("section", { class: "panel", "aria-labelledby": "host-title" },
      el("h2", { id: "host-title" }, t("host_title")),
      games.length ? gameChooser() : el("p", {}, t("loading")),
      form.game ? [
        seatChooser(),
        optionsChooser(),
        el("div", { class: "field" },
          el("label", { for: "difficulty" }, t("difficulty")),
          el("select", {
            id: "difficulty", "data-key": "difficulty",
            onchange: (e) => { form.difficulty = e.target.value; },
          }, ["easy", "normal", "hard"].map((d) => el("option", { value: d, selected: form.difficulty === d },
            t("difficulty_" + d))))),
        el("label", { class: "row" }, el("input", {
          type: "checkbox", checked: form.public, id: "public", "data-key": "public",
          onchange: (e) => { form.public = e.target.checked; },
        }), t("public_room")),
        el("div", { class: "row" }, el("button", {
          type: "button", id: "host-button", "data-key": "host-button", onclick: host,
        }, t("host_button"))),
      ] : null,
      error ? el("p", { class: "error", role: "alert" }, error) : null);
  }

  function sidePanels() {
    return el("div", {},
      el("section", { class: "panel", "aria-labelledby": "join-title" },
        el("h2", { id: "join-title" }, t("join_title")),
        el("form", { class: "row", onsubmit: joinByCode },
          el("label", { for: "join-code" }, t("room_code")),
          el("input", {
            id: "join-code", name: "code", autocomplete: "off", maxlength: "12", size: "8",
            "data-key": "join-code",
          }),
          el("button", { type: "submit", "data-key": "join-button" }, t("join_button")))),
      el("section", { class: "panel", "aria-labelledby": "public-title" },
        el("div", { class: "row" }, el("h2", { id: "public-title" }, t("public_title")),
          el("button", { type: "button", class: "ghost", onclick: refreshRooms, "data-key": "refresh" },
            t("refresh"))),
        rooms.length
          ? el("ul", { class: "room-list" }, rooms.map((room) => el("li", {},
            el("span", {}, el("strong", {}, room.code), " · ", gameName(room.game), " · ",
              t("open_seats", { n: room.open_seats })),
            el("span", { class: "row" },
              el("button", { type: "button", onclick: () => navigate(room.code) }, t("join_button")),
              el("button", {
                type: "button", class: "ghost", onclick: () => navigate(room.code, { watch: true }),
              }, t("watch"))))))
          : el("p", { class: "muted" }, t("no_public_rooms"))));
  }

  function render() {
    replaceKeepingFocus(main,
      el("p", { class: "muted" }, t("tagline")),
      el("div", { class: "lobby" }, hostPanel(), sidePanels()));
  }

  rerender = render;
  render();
  try {
    games = (await api("GET", "/api/games")).games;
    const first = games.find((g) => g.id in TABLES);
    if (first) chooseGame(first);
  } catch (err) {
    error = errorText(err);
  }
  render();
  refreshRooms();
}

// --- a room -------------------------------------------------------------------------

async function showRoom(code, { watch = false } = {}) {
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
        return el("li", {}, `${optionTitle(option)}: ${optionLabel(null, option, value)}`);
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
      parts.push(settingsDialog(), playAgainBar(), tableHolder);
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
  teardown = () => {
    document.removeEventListener("visibilitychange", onVisibility);
    if (table && table.destroy) table.destroy();
    if (socket) socket.close();
  };
  rerender = render;
  render();
  await loadSummary();
  if (page.summary && (held().length || watch)) connect();
  render();
}

// --- routing ------------------------------------------------------------------------

function navigate(code, { watch = false } = {}) {
  const url = code ? `/?room=${encodeURIComponent(code)}${watch ? "&watch=1" : ""}` : "/";
  history.pushState({}, "", url);
  route();
}

function route() {
  teardown();
  teardown = () => {};
  const params = new URLSearchParams(location.search);
  const code = (params.get("room") || "").trim().toUpperCase();
  if (code) showRoom(code, { watch: params.get("watch") === "1" });
  else showLobby();
  main.focus({ preventScroll: true });
}

window.addEventListener("popstate", route);
document.body.classList.toggle("reduced-motion", localStorage.getItem("zashiki.reducedMotion") === "1");
renderLangToggle();
route();
