// Turn signals: when it becomes this player's move while the tab is hidden, the page
// title says so; if the player turned alerts on, also a notification (where the browser
// allows it), a short tone and a vibration. Alerts are off unless turned on.

import { addStrings, t } from "./i18n.js";
import { el } from "./components.js";

addStrings({
  en: {
    turn_title: "● Your move — {title}",
    turn_alerts: "Alert me when it is my move and this tab is hidden (notification, sound, vibration)",
    turn_notice: "Your move in room {code}",
    turn_alerts_blocked: "This browser blocks notifications for this site; the title and sound still work.",
  },
  ja: {
    turn_title: "● あなたの番 — {title}",
    turn_alerts: "このタブが隠れているとき、自分の番を知らせる（通知・音・振動）",
    turn_notice: "部屋{code}であなたの番です",
    turn_alerts_blocked: "このブラウザはこのサイトの通知を止めています。タイトルと音では知らせます。",
  },
});

const KEY = "zashiki.turnAlerts";
const baseTitle = document.title;
let yourMove = false;
let signalled = false; // alerted for the current move already

export const alertsOn = () => localStorage.getItem(KEY) === "1";

function beep() {
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
    tone.onended = () => audio.close();
  } catch {
    // No audio here: the title and the notification still tell.
  }
}

function showTitle() {
  document.title = yourMove && document.hidden ? t("turn_title", { title: baseTitle }) : baseTitle;
}

/** Tell the signal whether this player has a move now (call on every view). */
export function setYourMove(now, code) {
  yourMove = now;
  if (!now) signalled = false;
  showTitle();
  if (!now || !document.hidden || signalled) return;
  signalled = true;
  if (!alertsOn()) return;
  if (window.Notification && Notification.permission === "granted") {
    try {
      new Notification(t("turn_notice", { code }), { tag: "zashiki-turn-" + code });
    } catch {
      // Some browsers allow notifications only from a service worker.
    }
  }
  beep();
  if (navigator.vibrate) navigator.vibrate(200);
}

/** Stop signalling (leaving the room page). */
export function clearTurnSignal() {
  yourMove = false;
  signalled = false;
  showTitle();
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) signalled = false;
  showTitle();
});

/** The settings checkbox; turning alerts on asks for notification permission. */
export function turnAlertsToggle() {
  const note = el("p", { class: "muted small", id: "turn-alerts-note", role: "status" });
  const box = el("input", {
    type: "checkbox", id: "turn-alerts", "data-key": "turn-alerts", checked: alertsOn(),
    onchange: async (e) => {
      localStorage.setItem(KEY, e.target.checked ? "1" : "0");
      if (e.target.checked && window.Notification && Notification.permission === "default") {
        try { await Notification.requestPermission(); } catch { /* asked once; fine either way */ }
      }
      note.textContent = e.target.checked && window.Notification && Notification.permission === "denied"
        ? t("turn_alerts_blocked") : "";
    },
  });
  return el("div", {}, el("label", { class: "row" }, box, t("turn_alerts")), note);
}
