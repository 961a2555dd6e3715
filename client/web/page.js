// What the lobby and the room page share: the main area, the toast, a server error in
// the player's language, and the names of games and options.

import { lang, t } from "./i18n.js";
import { millisLabel } from "./learn.js";

export const main = document.getElementById("main");
const toast = document.getElementById("toast");

/** Show a short message in the toast for a few seconds. */
export function notify(text) {
  toast.textContent = text;
  toast.classList.add("show");
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => toast.classList.remove("show"), 2500);
}

/** A server error in the player's language: by its code where we know it. */
export function errorText(err) {
  const key = "err_" + (err.code || "");
  const text = t(key);
  if (text !== key) return text;
  // Unknown codes keep the server's (English) message only in English mode.
  return lang() === "en" ? t("error_generic", { message: err.message || String(err) })
    : t("error_generic", { message: err.code || "?" });
}

/** A game's name in the player's language (its id where no name is known). */
export function gameName(id) {
  const key = "game_" + id;
  const text = t(key);
  return text === key ? id : text;
}

/**
 * An option value's label in the player's language: its own label, else a time in words
 * for a time option, else the value itself.
 */
export function optionLabel(option, value) {
  const key = `opt_${option.name}_${value}`;
  const text = t(key);
  return text === key ? millisLabel(option, value) ?? String(value) : text;
}

/** An option's title in the player's language (its name where none is known). */
export function optionTitle(option) {
  const key = "opt_" + option.name;
  const text = t(key);
  return text === key ? option.name : text;
}
