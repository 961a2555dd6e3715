// The installable app: the service worker (sw.js: the shell offline, push
// notifications), the web app manifest in the player's language, and a line under the
// top bar while the server cannot be reached (the device is offline, or the last call to
// the server failed to connect) saying what still works.

import { addStrings, lang, onLangChange, t } from "./i18n.js";

addStrings({
  en: {
    offline_note: "The server cannot be reached (offline?). The lobby and Your rooms open from this device; playing needs the server.",
  },
  ja: {
    offline_note: "サーバーに接続できません（オフライン？）。ロビーと参加中の部屋はこの端末から開けますが、対戦にはサーバーへの接続が必要です。",
  },
});

const MANIFESTS = { en: "/manifest.webmanifest", ja: "/manifest.ja.webmanifest" };

/** The service worker's registration (null where the browser has none). */
export const registered = "serviceWorker" in navigator
  ? navigator.serviceWorker.register("/sw.js").catch(() => null)
  : Promise.resolve(null);

function showManifest() {
  const link = document.querySelector('link[rel="manifest"]');
  if (link) link.href = MANIFESTS[lang()] || MANIFESTS.en;
}

const note = document.createElement("p");
note.id = "offline-note";
note.className = "offline-note";
note.setAttribute("role", "status");
// Set through the CSSOM (not a style attribute), which a Content-Security-Policy allows.
Object.assign(note.style, {
  margin: "0", padding: "0.4rem 1rem", background: "#fdf0d5", color: "var(--ink)",
  borderBottom: "1px solid var(--line)",
});

let reached = true; // the last call to the server connected

function showOnline() {
  const away = !navigator.onLine || !reached;
  note.textContent = away ? t("offline_note") : "";
  note.hidden = !away;
}

document.querySelector(".topbar").after(note);
window.addEventListener("zashiki:reach", (event) => {
  reached = event.detail;
  showOnline();
});
window.addEventListener("online", showOnline);
window.addEventListener("offline", showOnline);
onLangChange(() => {
  showManifest();
  showOnline();
});
showManifest();
showOnline();
