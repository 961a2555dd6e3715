// The lobby: the games, the create-room form (seats and options per seat count), joining
// by code, and the public rooms.

import { api, seatStore } from "./net.js";
import { t } from "./i18n.js";
import { el, replaceKeepingFocus } from "./components.js";
import { TABLES } from "./tables/index.js";
import { errorText, gameName, main, optionLabel, optionTitle } from "./page.js";
import { myName, nameField } from "./names.js";
import { yourRoomsPanel } from "./your_rooms.js";
import { coverChooser } from "./cover_option.js";
import { clockChooser, clockFields } from "./seat_clock.js";
import { gameInfo, helpLine, optionChoices } from "./learn.js";
import { learnLink } from "./coach.js";
import "./hints.js"; // the hints setting's words
import { cpuPaceChooser } from "./cpu_pace.js";
import "./explain.js"; // rules links open in a panel over the lobby

/** The choices an option offers at `seats` seats: per-seat numbers stop at the last seat. */
function choicesFor(option, seats) {
  return option.per_seat ? option.choices.filter((c) => typeof c !== "number" || c < seats) : option.choices;
}

/**
 * Show the lobby in the main area; `navigate(code, {watch})` opens a room. With `chosen`
 * (a game id: "Play a real match" after a first match) the create form has that game
 * chosen and comes into view. Returns the page's rerender (for a language change) and
 * teardown.
 */
export function showLobby(navigate, { chosen = null } = {}) {
  const form = {
    game: null, seats: 0, kinds: [], difficulty: "normal", public: false, sameDevice: false,
    options: {}, cover: 60, clock: { clock: "relaxed" }, hints: true,
    cpuPace: "relaxed",
  };
  let games = [];
  const yourRooms = yourRoomsPanel(navigate);
  let rooms = [];
  let error = "";

  function chooseGame(game) {
    form.game = game;
    form.seats = game.max_seats;
    form.kinds = Array.from({ length: game.max_seats }, (_, i) => (i === 0 ? "host" : "cpu"));
    form.options = Object.fromEntries(game.options.map((o) => [o.name, o.default]));
    form.sameDevice = false;
    // The clock's mode stays; its preset becomes the new game's default.
    const mode = form.clock.clock;
    form.clock = { clock: mode, preset: mode === "relaxed" ? null : game.clock && game.clock[mode].default };
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
        host_name: myName(),
        cover_after_s: form.cover,
        hints: form.hints,
        cpu_pace: form.cpuPace,
        ...clockFields(form.clock),
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
          el("span", {}, el("strong", {}, gameName(game.id)),
            built ? null : el("span", { class: "muted" }, " — " + t("table_missing")),
            gameInfo(game, seats), built ? learnLink(game.id) : null));
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
    const shown = game.options.filter((o) => optionChoices(o).length);
    const fields = shown.map((o) => {
      const choices = choicesFor({ ...o, choices: optionChoices(o) }, form.seats);
      return el("div", { class: "field" },
        el("label", { for: "opt-" + o.name }, optionTitle(o)),
        el("select", {
          id: "opt-" + o.name, "data-key": "opt-" + o.name, "aria-describedby": "help-" + o.name,
          onchange: (e) => {
            const value = choices.find((c) => String(c) === e.target.value);
            form.options[o.name] = value;
          },
        }, choices.map((c) => el("option", { value: String(c), selected: form.options[o.name] === c },
          optionLabel(o, c)))),
        helpLine(o.name, game.id, "help-" + o.name));
    });
    const sameDevice = game.options.some((o) => o.name === "open_hands")
      ? el("label", { class: "row" }, el("input", {
        type: "checkbox", checked: form.sameDevice, "data-key": "same-device", id: "same-device",
        onchange: (e) => { form.sameDevice = e.target.checked; render(); },
      }), t("same_device"), helpLine("same_device", game.id, "help-same-device"))
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
            t("difficulty_" + d)))),
          helpLine("difficulty", form.game.id, "help-difficulty")),
        clockChooser(form.game, form.clock, (value) => { form.clock = value; render(); }),
        // A live or days clock replaces the CPU cover of away players.
        form.clock.clock === "relaxed" ? coverChooser(form.cover, (value) => { form.cover = value; }) : null,
        el("label", { class: "row" }, el("input", {
          type: "checkbox", checked: form.hints, id: "hints", "data-key": "hints",
          onchange: (e) => { form.hints = e.target.checked; },
        }), t("hints_setting")),
        cpuPaceChooser(form.cpuPace, (value) => { form.cpuPace = value; }),
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
    yourRooms.redraw();
    replaceKeepingFocus(main,
      el("p", { class: "muted" }, t("tagline")),
      el("section", { class: "panel", id: "name-panel" }, nameField()),
      yourRooms.node,
      el("div", { class: "lobby" }, hostPanel(), sidePanels()));
  }

  /** The games and the public rooms arrive after the first paint. */
  async function load() {
    try {
      games = (await api("GET", "/api/games")).games;
      const first = games.find((g) => g.id === chosen && g.id in TABLES) || games.find((g) => g.id in TABLES);
      if (first) chooseGame(first);
    } catch (err) {
      error = errorText(err);
    }
    render();
    if (chosen) document.getElementById("host-title")?.scrollIntoView({ block: "start" });
    refreshRooms();
  }

  render();
  load();
  return { rerender: render, teardown: () => yourRooms.stop() };
}
