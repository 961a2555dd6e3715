// Display names: the player's own (asked once, remembered in localStorage, changeable)
// and how any seat is named on screen. Names are other people's text: they only ever
// become text nodes (el() children), never markup.

import { addStrings, t } from "./i18n.js";
import { el } from "./components.js";

addStrings({
  en: {
    your_name: "Your name",
    your_name_hint: "Shown to the other players at your seat.",
    name_save: "Save name",
    name_saved: "Name saved",
    host_mark: "host",
  },
  ja: {
    your_name: "あなたの名前",
    your_name_hint: "あなたの席に表示され、ほかの参加者に見えます。",
    name_save: "名前を保存",
    name_saved: "名前を保存しました",
    host_mark: "ホスト",
  },
});

const KEY = "zashiki.name";
export const NAME_MAX = 24;

/** The player's remembered display name ("" until they give one). */
export function myName() {
  return (localStorage.getItem(KEY) || "").slice(0, NAME_MAX);
}

/** Remember the player's display name (trimmed; control characters dropped). */
export function setMyName(name) {
  // The server cleans names too; this keeps what is stored here tidy.
  const clean = String(name).replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/\s+/g, " ").trim().slice(0, NAME_MAX);
  localStorage.setItem(KEY, clean);
  return clean;
}

/**
 * The name field: the remembered name (else `current`, the name at the player's seat),
 * saved on change (and by its button); `onSave(name)` runs after a save (a room renames
 * the player's seats with it).
 */
export function nameField({ id = "my-name", onSave, current = "" } = {}) {
  const input = el("input", {
    id, type: "text", maxlength: String(NAME_MAX), autocomplete: "nickname", value: myName() || current,
    "data-key": id, "aria-describedby": id + "-hint",
  });
  const save = () => {
    const name = setMyName(input.value);
    input.value = name;
    if (onSave) onSave(name);
  };
  input.addEventListener("change", save);
  return el("div", { class: "field name-field" },
    el("label", { for: id }, t("your_name")),
    el("div", { class: "row" }, input,
      el("button", { type: "button", class: "ghost", id: id + "-save", "data-key": id + "-save", onclick: save },
        t("name_save"))),
    el("p", { class: "muted small", id: id + "-hint" }, t("your_name_hint")));
}

/** A seat's name on screen: its display name, else "Seat N" (CPUs: "CPU N"). */
export function seatName(seats, seat) {
  const info = (seats && seats[seat]) || {};
  if (info.kind === "human" && info.name) return info.name;
  if (info.kind === "cpu") return t("cpu_n", { n: seat + 1 });
  return t("seat_n", { n: seat + 1 });
}
