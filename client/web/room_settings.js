// The settings sheet of a room's page: the room's fixed settings (read-only), its rule
// for away players or its clocks, this device's seat, alerts and push, reduced motion and
// the language. Drawn from the page's context (room.js `ctx`).

import { lang, setLang, t } from "./i18n.js";
import { el } from "./components.js";
import { optionLabel, optionTitle } from "./page.js";
import { coverNote } from "./presence.js";
import { turnAlertsToggle } from "./turn_signal.js";
import { pushToggle } from "./push.js";
import { clockRule } from "./seat_clock.js";
import { mySeatBox } from "./room_lobby.js";
import "./hints.js"; // the hints setting's words
import { cpuPaceState } from "./cpu_pace.js";

/** The room's fixed settings (chosen when it was made), shown read-only. */
function roomSettings(summary) {
  if (!summary) return null;
  const rows = Object.entries(summary.options || {})
    .filter(([, value]) => typeof value !== "object")
    .map(([name, value]) => {
      const option = { name };
      return el("li", {}, `${optionTitle(option)}: ${optionLabel(option, value)}`);
    });
  rows.push(el("li", {}, `${t("difficulty")}: ${t("difficulty_" + summary.difficulty)}`));
  rows.push(el("li", { id: "hints-state" }, t(summary.hints === false ? "hints_state_off" : "hints_state_on")));
  rows.push(el("li", { id: "cpu-pace-row" }, cpuPaceState(summary.cpu_pace)));
  return el("div", {}, el("p", { class: "label" }, t("room_settings")),
    el("ul", { id: "room-settings" }, rows));
}

/** The settings dialog while it is open (null when closed). */
export function settingsDialog(ctx) {
  const { page, code } = ctx;
  if (!page.settingsOpen) return null;
  const watch = ctx.watching();
  const clock = ctx.roomClock();
  const reduced = localStorage.getItem("zashiki.reducedMotion") === "1";
  const dialog = el("div", { class: "panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "settings-title", id: "settings" },
    el("h2", { id: "settings-title" }, t("settings")),
    el("p", { class: "muted" }, t("settings_note")),
    roomSettings(page.summary),
    el("p", { class: "muted small" }, clock ? clockRule(clock)
      : coverNote(page.message && page.message.room ? page.message.room.cover_after_ms : null)),
    ctx.held().length && !watch ? mySeatBox(ctx) : null,
    turnAlertsToggle(),
    watch ? null : ctx.held().map((s, _, all) => pushToggle(code, s, {
      label: all.length > 1 ? t("seat_n", { n: s.seat + 1 }) : null,
    })),
    el("label", { class: "row" }, el("input", {
      type: "checkbox", checked: reduced, id: "reduced-motion",
      onchange: (e) => {
        localStorage.setItem("zashiki.reducedMotion", e.target.checked ? "1" : "0");
        document.body.classList.toggle("reduced-motion", e.target.checked);
      },
    }), t("reduced_motion")),
    el("div", { class: "field" }, el("label", { for: "language" }, t("language")),
      el("select", { id: "language", onchange: (e) => setLang(e.target.value) },
        ["en", "ja"].map((each) => el("option", { value: each, selected: lang() === each }, t("lang_" + each))))),
    el("button", { type: "button", id: "close-settings", "data-key": "close-settings", onclick: ctx.closeSettings },
      t("close")));
  dialog.addEventListener("keydown", (e) => { if (e.key === "Escape") ctx.closeSettings(); });
  return dialog;
}
