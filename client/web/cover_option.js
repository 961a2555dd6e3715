// The create-room choice of what happens when a player is away: a CPU plays for them
// after a while (live play; a minute by default) or the table waits for them (friends
// playing slowly across days). Sent as `cover_after_s` (seconds, or "wait").

import { addStrings, t } from "./i18n.js";
import { el } from "./components.js";
import { duration } from "./presence.js";

addStrings({
  en: {
    cover_title: "When a player is away",
    cover_after: "A CPU plays for them after {time}",
    cover_wait: "The table waits for them",
  },
  ja: {
    cover_title: "参加者が離席したとき",
    cover_after: "{time}後にCPUが代わりに打つ",
    cover_wait: "卓は戻りを待つ",
  },
});

export const COVER_CHOICES = [30, 60, 120, 300, "wait"];

/** The select; `onChange(value)` gets seconds or "wait". */
export function coverChooser(value, onChange) {
  return el("div", { class: "field" },
    el("label", { for: "cover-after" }, t("cover_title")),
    el("select", {
      id: "cover-after", "data-key": "cover-after",
      onchange: (e) => onChange(e.target.value === "wait" ? "wait" : Number(e.target.value)),
    }, COVER_CHOICES.map((c) => el("option", { value: String(c), selected: c === value },
      c === "wait" ? t("cover_wait") : t("cover_after", { time: duration(c * 1000) })))));
}
