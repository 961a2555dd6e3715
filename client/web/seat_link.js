// Seat links: a room link that carries a seat's token in the URL fragment
// (/?room=CODE#seat=N&token=T). Browsers never send the fragment to the server, so the
// token stays out of requests and logs; opening the link stores the seat on this device
// and wipes the fragment from the address bar.

import { addStrings, t } from "./i18n.js";
import { el } from "./components.js";
import { seatStore } from "./net.js";
import { notify } from "./page.js";

addStrings({
  en: {
    seat_link: "Your seat link",
    seat_link_hint: "Opens your seat on another device. Keep it private: whoever has it plays your seat.",
    seat_link_of: "New seat link for {name} (the old one no longer works)",
    seat_link_taken: "Seat link opened: this device now holds the seat.",
  },
  ja: {
    seat_link: "あなたの席リンク",
    seat_link_hint: "別の端末であなたの席を開けます。持っている人が席で打てるので、人に見せないでください。",
    seat_link_of: "{name}の新しい席リンク（古いリンクは使えなくなりました）",
    seat_link_taken: "席リンクを開きました。この端末でその席に座っています。",
  },
});

/** The seat link of `seat` holding `token` in room `code`. */
export function seatLink(code, seat, token) {
  return `${location.origin}/?room=${encodeURIComponent(code)}#seat=${seat}&token=${encodeURIComponent(token)}`;
}

/**
 * If the address holds a seat link for room `code`, keep its seat on this device and
 * remove the fragment from the address bar; true when one was taken.
 */
export function claimSeatLink(code) {
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = Number(params.get("seat"));
  const token = params.get("token") || "";
  if (!location.hash) return false;
  history.replaceState(history.state, "", location.pathname + location.search);
  if (!Number.isInteger(seat) || seat < 0 || seat > 15 || !/^[A-Za-z0-9_-]{16,64}$/.test(token)) return false;
  seatStore.add(code, seat, token);
  notify(t("seat_link_taken"));
  return true;
}

/** A read-only link with a Copy button. */
export function copyBox(id, label, link, hint) {
  return el("div", { class: "share" },
    el("label", { for: id, class: "label" }, label),
    el("input", { id, readonly: true, value: link, "data-key": id }),
    el("button", {
      type: "button", "data-key": id + "-copy", id: id + "-copy",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          notify(t("copied"));
        } catch {
          document.getElementById(id).select();
          notify(t("copy_failed"));
        }
      },
    }, t("copy")),
    hint ? el("p", { class: "muted small" }, hint) : null);
}

/** This device's seat links for room `code` (one per held seat). */
export function mySeatLinks(code) {
  return seatStore.get(code).map((held) => copyBox(
    `seat-link-${held.seat}`, t("seat_link"), seatLink(code, held.seat, held.token), t("seat_link_hint")));
}
