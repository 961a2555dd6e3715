// The room's CPU pace (PROTOCOL.md "CPU pace"): how long CPUs take over their moves,
// relaxed (a human-looking second or so) or quick (about a quarter of that). The host
// chooses it in the create form and may change it in the waiting room; everyone else
// sees it in words there and in the settings sheet.

import { api } from "./net.js";
import { addStrings, t } from "./i18n.js";
import { el } from "./components.js";
import { errorText, notify } from "./page.js";

addStrings({
  en: {
    cpu_pace: "CPU pace",
    cpu_pace_relaxed: "Relaxed: CPUs take a second or so",
    cpu_pace_quick: "Quick: CPUs move about four times sooner",
    cpu_pace_state: "CPU pace: {pace}",
  },
  ja: {
    cpu_pace: "CPUの速さ",
    cpu_pace_relaxed: "ゆっくり：CPUは1手に1秒ほどかける",
    cpu_pace_quick: "速い：CPUが約4倍速く打つ",
    cpu_pace_state: "CPUの速さ：{pace}",
  },
});

export const CPU_PACES = ["relaxed", "quick"];

/** The pace chooser; `onChange(pace)` gets the chosen one. */
export function cpuPaceChooser(value, onChange) {
  return el("div", { class: "field" },
    el("label", { for: "cpu-pace" }, t("cpu_pace")),
    el("select", {
      id: "cpu-pace", "data-key": "cpu-pace",
      onchange: (e) => onChange(e.target.value),
    }, CPU_PACES.map((pace) => el("option", { value: pace, selected: pace === value },
      t("cpu_pace_" + pace)))));
}

/** "CPU pace: Quick: …" for a room's pace (relaxed when a room does not say). */
export function cpuPaceState(pace) {
  return t("cpu_pace_state", { pace: t("cpu_pace_" + (pace === "quick" ? "quick" : "relaxed")) });
}

/**
 * The room's CPU pace in the waiting room: the host's chooser (it changes the room at
 * once), else the pace in words. `ctx` is the page's (room.js).
 */
export function cpuPaceSetting(ctx, hostToken) {
  const { page } = ctx;
  const roomFacts = page.message && page.message.room;
  const pace = roomFacts ? roomFacts.cpu_pace : page.summary && page.summary.cpu_pace;
  const token = hostToken();
  if (!token || (roomFacts && roomFacts.status !== "lobby")) {
    return el("p", { class: "muted small", id: "cpu-pace-state" }, cpuPaceState(pace));
  }
  return cpuPaceChooser(pace === "quick" ? "quick" : "relaxed", async (chosen) => {
    try {
      page.summary = await api("POST", `/api/rooms/${ctx.code}/cpu-pace`, { token, cpu_pace: chosen });
    } catch (err) {
      notify(errorText(err));
    }
    ctx.render();
  });
}
