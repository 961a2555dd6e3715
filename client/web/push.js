// "Your move" on this device, even with the page closed: Web Push, per seat and per
// device. One tap turns it on for a seat (the browser asks permission the first time):
// this browser's push subscription (one per device, shared by every seat it holds) is
// given to the server for that seat, with the language the notifications should speak.
// Another tap turns it off for that seat. The server forgets it by itself when the seat
// is left or its link re-issued (PROTOCOL.md, "Push").

import { addStrings, lang, t } from "./i18n.js";
import { el } from "./components.js";
import { api, ApiError } from "./net.js";
import { errorText } from "./page.js";
import { registered } from "./install.js";

addStrings({
  en: {
    push_toggle: "Notify me on this device when it is my move",
    push_toggle_seat: "Notify me on this device when it is {seat}'s move",
    push_short: "Notify my moves",
    push_short_seat: "Notify {seat}'s moves",
    push_on_note: "On: this device gets a notification when it is your move and Zashiki is closed.",
    push_blocked: "Notifications are blocked for this site; allow them in the browser's site settings.",
    push_unsupported: "This browser cannot notify you with the page closed (on an iPhone or iPad, add Zashiki to the Home Screen first).",
    push_failed: "This browser could not set up notifications just now; try again later.",
    err_push_off: "This server does not send notifications.",
    err_bad_subscription: "The server did not accept this browser's notification address.",
  },
  ja: {
    push_toggle: "自分の番になったらこの端末に通知する",
    push_toggle_seat: "{seat}の番になったらこの端末に通知する",
    push_short: "手番を通知",
    push_short_seat: "{seat}の手番を通知",
    push_on_note: "オン：座敷を閉じていても、自分の番になるとこの端末に通知が届きます。",
    push_blocked: "このサイトの通知はブロックされています。ブラウザのサイト設定で許可してください。",
    push_unsupported: "このブラウザでは、ページを閉じているときの通知を受け取れません（iPhone・iPadでは、まず座敷をホーム画面に追加してください）。",
    push_failed: "このブラウザで通知を設定できませんでした。しばらくしてからもう一度お試しください。",
    err_push_off: "このサーバーは通知を送りません。",
    err_bad_subscription: "このブラウザの通知先をサーバーが受け付けませんでした。",
  },
});

const flag = (code, seat) => `zashiki.push.${code}.${seat}`;

/** Whether this browser can receive pushes at all. */
export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** Whether this device has notifications on for seat `seat` of room `code`. */
export function pushOn(code, seat) {
  return localStorage.getItem(flag(code, seat)) === "1";
}

function keyBytes(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function sameKey(subscription, key) {
  const given = subscription.options && subscription.options.applicationServerKey;
  if (!given) return true;
  const a = new Uint8Array(given);
  return a.length === key.length && a.every((byte, i) => byte === key[i]);
}

/** This device's push subscription for the server's key (made, or made again, here). */
async function subscription() {
  const registration = (await registered) && (await navigator.serviceWorker.ready);
  if (!registration) throw new Error("no service worker");
  const key = keyBytes((await api("GET", "/api/push/key")).key);
  let current = await registration.pushManager.getSubscription();
  if (current && !sameKey(current, key)) {
    await current.unsubscribe();
    current = null;
  }
  return current || registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

/** Turn notifications on for a held seat ({seat, token}); throws with a reason. */
export async function enablePush(code, held) {
  if ((await Notification.requestPermission()) !== "granted") throw Object.assign(new Error("blocked"), { code: "push_blocked" });
  const sub = await subscription();
  await api("POST", `/api/rooms/${code}/push`, { token: held.token, subscription: sub.toJSON(), lang: lang() });
  localStorage.setItem(flag(code, held.seat), "1");
}

/** Turn them off for a held seat; the browser's subscription stays for other seats. */
export async function disablePush(code, held) {
  localStorage.removeItem(flag(code, held.seat));
  const registration = await registered;
  const sub = registration && (await registration.pushManager.getSubscription());
  if (sub) await api("POST", `/api/rooms/${code}/push/off`, { token: held.token, endpoint: sub.endpoint });
}

/**
 * The one-tap switch for a held seat ({seat, token}) of room `code`: a toggle button
 * (aria-pressed) with a line under it saying what it does or why it cannot. `label` names
 * the seat when a device holds two; `short`: the short wording and no line while all is
 * well (a row of "Your rooms").
 */
export function pushToggle(code, held, { label = null, short = false } = {}) {
  const note = el("p", { class: "muted small", role: "status", id: `push-note-${code}-${held.seat}` });
  const button = el("button", {
    type: "button", "data-key": `push-${code}-${held.seat}`, "aria-describedby": note.id,
  }, t((short ? "push_short" : "push_toggle") + (label ? "_seat" : ""), { seat: label }));

  function show(on, message = "") {
    button.setAttribute("aria-pressed", String(on));
    button.className = on ? "" : "ghost";
    note.textContent = message || (on && !short ? t("push_on_note") : "");
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      if (pushOn(code, held.seat)) {
        await disablePush(code, held);
        show(false);
      } else {
        await enablePush(code, held);
        show(true);
      }
    } catch (err) {
      // The server's refusal in words; the browser's own failures (no push service
      // reachable, say) in one sentence, never a raw error name.
      const why = err.code === "push_blocked" || Notification.permission === "denied" ? t("push_blocked")
        : err instanceof ApiError ? errorText(err) : t("push_failed");
      show(pushOn(code, held.seat), why);
    } finally {
      button.disabled = false;
    }
  });

  if (!pushSupported()) {
    button.disabled = true;
    show(false, t("push_unsupported"));
  } else show(pushOn(code, held.seat));
  return el("div", { class: "push-toggle" }, button, note);
}
