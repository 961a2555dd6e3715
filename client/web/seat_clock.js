// Seat clocks (room option `clock`: relaxed, live or days; server/rooms/seats/timebank.py):
// the create-room choice, a seat's clock as a small chip (placed in the seat panels and the
// players' line), the rule in one sentence, and a days room's vacation button.
//
// A view's `room.clock` = {mode, move_ms, bank_ms, vacation_ms, seats: [{move_ms, bank_ms,
// running, vacation, vacation_ms}] | null}; a running clock is counted down here from
// when the view arrived (the allowance first, then the bank).

import { addStrings, t } from "./i18n.js";
import { el } from "./components.js";

addStrings({
  en: {
    clock_title: "Clock",
    clock_relaxed: "Relaxed: no clock",
    clock_live: "Live: time per move + bank",
    clock_days: "Days: turn-based, time in days",
    clock_preset: "Time",
    clock_vacation_days: "Vacation per player",
    clock_days_n: "{n} days",
    clock_preset_live: "{move} a move + {bank} bank",
    clock_preset_days: "{move} a move + {bank} bank",
    clock_rule_live: "Live clock: {move} a move, then a {bank} bank. When both run out a CPU makes that move.",
    clock_rule_days: "Days clock: {move} a move, then a {bank} bank, in real time; {vacation} of vacation per player. When both run out a CPU makes that move.",
    clock_left: "{move} + {bank}",
    clock_aria: "{who}'s clock: {move} for this move, {bank} in the bank",
    clock_on_vacation: "on vacation",
    vacation_take: "Take a vacation ({time} left)",
    vacation_end: "Back from vacation",
    dur_d: "{n} d",
    dur_dh: "{d} d {h} h",
    dur_h: "{n} h",
    dur_hm: "{h} h {m} min",
    dur_m: "{n} min",
    dur_s: "{n} s",
  },
  ja: {
    clock_title: "持ち時間",
    clock_relaxed: "のんびり：時間制限なし",
    clock_live: "ライブ：1手ごとの時間＋持ち時間",
    clock_days: "日単位：ターン制、日数で計る",
    clock_preset: "時間",
    clock_vacation_days: "1人あたりの休暇",
    clock_days_n: "{n}日",
    clock_preset_live: "1手{move}＋持ち時間{bank}",
    clock_preset_days: "1手{move}＋持ち時間{bank}",
    clock_rule_live: "ライブ：1手{move}、使い切ると持ち時間{bank}から減ります。両方なくなるとその1手をCPUが打ちます。",
    clock_rule_days: "日単位：1手{move}、使い切ると持ち時間{bank}から実時間で減ります。休暇は1人{vacation}まで。両方なくなるとその1手をCPUが打ちます。",
    clock_left: "{move}＋{bank}",
    clock_aria: "{who}の持ち時間：この手{move}、持ち時間{bank}",
    clock_on_vacation: "休暇中",
    vacation_take: "休暇をとる（残り{time}）",
    vacation_end: "休暇から戻る",
    dur_d: "{n}日",
    dur_dh: "{d}日{h}時間",
    dur_h: "{n}時間",
    dur_hm: "{h}時間{m}分",
    dur_m: "{n}分",
    dur_s: "{n}秒",
  },
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A clock time: "0:08" / "1:00" for a live clock, "1 d 4 h" / "5 h 20 min" for days. */
export function clockTime(ms, mode) {
  const left = Math.max(0, ms);
  if (mode !== "days") {
    const s = Math.ceil(left / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }
  const d = Math.floor(left / DAY);
  const h = Math.floor((left % DAY) / HOUR);
  const m = Math.floor((left % HOUR) / MINUTE);
  if (d) return h ? t("dur_dh", { d, h }) : t("dur_d", { n: d });
  if (h) return m ? t("dur_hm", { h, m }) : t("dur_h", { n: h });
  return t("dur_m", { n: Math.max(m, left > 0 ? 1 : 0) });
}

/** A preset's label in the create-room choice ("10 s a move + 60 s bank"). */
function presetLabel(preset, mode) {
  const say = (ms) => (mode === "days" ? clockTime(ms, "days") : t("dur_s", { n: ms / 1000 }));
  return t("clock_preset_" + mode, { move: say(preset.move_ms), bank: say(preset.bank_ms) });
}

/** The room's clock rule in one sentence ("" for a relaxed room). */
export function clockRule(clock) {
  if (!clock) return "";
  const say = (ms) => (clock.mode === "days" ? clockTime(ms, "days") : t("dur_s", { n: ms / 1000 }));
  return t("clock_rule_" + clock.mode, {
    move: say(clock.move_ms), bank: say(clock.bank_ms), vacation: clockTime(clock.vacation_ms, "days"),
  });
}

/** What a seat's clock shows `elapsed` ms after its view arrived: [allowance, bank]. */
export function clockLeft(seatClock, elapsed) {
  let move = seatClock.move_ms;
  let bank = seatClock.bank_ms;
  if (seatClock.running && elapsed > 0) {
    const fromMove = Math.min(elapsed, move);
    move -= fromMove;
    bank = Math.max(0, bank - (elapsed - fromMove));
  }
  return [move, bank];
}

const ticking = new Set(); // drawn running clocks, redrawn every second

setInterval(() => {
  const now = performance.now();
  for (const chip of ticking) {
    if (!chip.node.isConnected) ticking.delete(chip);
    else chip.draw(now);
  }
}, 1000);

/**
 * Seat `seat`'s clock as a chip, for the view `msg` received at `receivedAt`
 * (performance.now()); null when the room has no clock or no match has started.
 * `who` names the seat for screen readers.
 */
export function seatClockChip(msg, seat, receivedAt, who = "") {
  const clock = msg && msg.room && msg.room.clock;
  const seatClock = clock && clock.seats && clock.seats[seat];
  const kind = msg && msg.seats && msg.seats[seat] && msg.seats[seat].kind;
  if (!seatClock || kind !== "human") return null;
  const node = el("span", { class: "seat-clock", "data-seat-clock": String(seat) });
  const draw = (now) => {
    const [move, bank] = clockLeft(seatClock, now - receivedAt);
    const running = seatClock.running && move + bank > 0;
    node.classList.toggle("running", running);
    node.classList.toggle("low", running && move === 0);
    node.textContent = seatClock.vacation
      ? "⏸ " + t("clock_on_vacation")
      : (running ? "⏱ " : "") + t("clock_left", { move: clockTime(move, clock.mode), bank: clockTime(bank, clock.mode) });
    node.setAttribute("aria-label", t("clock_aria", {
      who, move: clockTime(move, clock.mode), bank: clockTime(bank, clock.mode),
    }));
  };
  draw(performance.now());
  if (seatClock.running) ticking.add({ node, draw });
  return node;
}

/**
 * Put each seat's clock chip in the table's seat panels (elements with data-seat): the
 * tables draw their panels, this adds the clock to them after each paint.
 */
export function placeSeatClocks(root, msg, receivedAt, name = (seat) => String(seat + 1)) {
  if (!msg || !msg.room || !msg.room.clock) return;
  for (const panel of root.querySelectorAll("[data-seat]")) {
    const seat = Number(panel.dataset.seat);
    const old = panel.querySelector(":scope > .seat-clock");
    if (old) old.remove();
    const chip = seatClockChip(msg, seat, receivedAt, name(seat));
    if (chip) panel.append(chip);
  }
}

/**
 * A days room's vacation button for this device's seat during a match: take one (with
 * what is left) or come back. `send(frame)` sends a websocket frame.
 */
export function vacationButton(msg, mine, send) {
  const clock = msg && msg.room && msg.room.clock;
  if (!clock || clock.mode !== "days" || !clock.seats || msg.room.status !== "playing" || !mine.length) return null;
  const seat = mine[0];
  const own = clock.seats[seat];
  if (!own || (!own.vacation && own.vacation_ms <= 0)) return null;
  return el("button", {
    type: "button", class: "ghost small", id: "vacation", "data-key": "vacation",
    onclick: () => send({ t: "vacation", seat, on: !own.vacation }),
  }, own.vacation ? t("vacation_end") : t("vacation_take", { time: clockTime(own.vacation_ms, "days") }));
}

/**
 * The create-room choice: mode, then the mode's preset and (days) the vacation. `game`
 * is the /api/games entry; `value` = {clock, preset, vacation}; `onChange(value)`.
 */
export function clockChooser(game, value, onChange) {
  const choices = game.clock;
  if (!choices) return null;
  const set = (patch) => onChange({ ...value, ...patch });
  const mode = value.clock || "relaxed";
  const modes = el("div", { class: "field" },
    el("label", { for: "clock-mode" }, t("clock_title")),
    el("select", {
      id: "clock-mode", "data-key": "clock-mode",
      onchange: (e) => {
        const next = e.target.value;
        set({ clock: next, preset: next === "relaxed" ? null : choices[next].default });
      },
    }, choices.modes.map((m) => el("option", { value: m, selected: m === mode }, t("clock_" + m)))));
  if (mode === "relaxed") return modes;
  const table = choices[mode];
  const preset = el("div", { class: "field" },
    el("label", { for: "clock-preset" }, t("clock_preset")),
    el("select", {
      id: "clock-preset", "data-key": "clock-preset",
      onchange: (e) => set({ preset: e.target.value }),
    }, table.presets.map((p) => el("option", { value: p.id, selected: p.id === (value.preset || table.default) },
      presetLabel(p, mode)))));
  const vacation = mode === "days" ? el("div", { class: "field" },
    el("label", { for: "clock-vacation" }, t("clock_vacation_days")),
    el("select", {
      id: "clock-vacation", "data-key": "clock-vacation",
      onchange: (e) => set({ vacation: Number(e.target.value) }),
    }, [0, 3, 7, 14, 30].filter((n) => n <= table.vacation_days.max).map((n) => el("option", {
      value: String(n), selected: n === (value.vacation ?? table.vacation_days.default),
    }, t("clock_days_n", { n }))))) : null;
  return el("div", {}, modes, preset, vacation);
}

/** The create-room body's clock fields for a chooser `value` ({} for relaxed). */
export function clockFields(value) {
  if (!value.clock || value.clock === "relaxed") return {};
  const fields = { clock: value.clock };
  if (value.preset) fields.clock_preset = value.preset;
  if (value.clock === "days" && typeof value.vacation === "number") fields.vacation_days = value.vacation;
  return fields;
}
