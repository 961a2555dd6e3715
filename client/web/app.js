// The page's boot and router: the lobby at "/" ("/?rooms=1", where the installed app
// starts, opens it at "Your rooms"; "/?host=GAME" with that game's create form), a room
// at "/?room=CODE", the replay of its match N at "/?room=CODE&replay=N", and a game's
// first match at "/?learn=GAME" (made, then opened as its room: coach.js). Each page is a
// module (lobby.js, room.js) that draws into the main area and hands back its rerender
// (for a language change) and teardown (when the router leaves it).

import { addStrings, lang, onLangChange, setLang, t } from "./i18n.js";
import { TABLES } from "./tables/index.js";
import { main } from "./page.js";
import { showLobby } from "./lobby.js";
import { showRoom } from "./room.js";
import { showReplay } from "./replay.js";
import { showFirstMatch } from "./coach.js";
import "./install.js";

for (const table of Object.values(TABLES)) if (table.STRINGS) addStrings(table.STRINGS);

let current = { rerender: () => {}, teardown: () => {} };

function renderLangToggle() {
  const button = document.getElementById("lang-toggle");
  button.textContent = t("lang_switch");
  button.setAttribute("aria-label", t("lang_switch_label"));
}
document.getElementById("lang-toggle").addEventListener("click", () => {
  setLang(lang() === "en" ? "ja" : "en");
});
onLangChange(() => {
  renderLangToggle();
  current.rerender();
});

function navigate(code, { watch = false } = {}) {
  const url = code ? `/?room=${encodeURIComponent(code)}${watch ? "&watch=1" : ""}` : "/";
  history.pushState({}, "", url);
  route();
}

function route() {
  current.teardown();
  const params = new URLSearchParams(location.search);
  const code = (params.get("room") || "").trim().toUpperCase();
  const replay = Number(params.get("replay"));
  const learn = params.get("learn");
  if (code && Number.isInteger(replay) && replay > 0) current = showReplay(code, replay);
  else if (code) current = showRoom(code, { watch: params.get("watch") === "1" });
  else if (learn) current = showFirstMatch(learn, (made) => { history.replaceState({}, "", `/?room=${made}`); route(); });
  else current = showLobby(navigate, { chosen: params.get("host") });
  main.focus({ preventScroll: true });
  if (!code && params.has("rooms")) document.getElementById("your-rooms")?.scrollIntoView();
}

window.addEventListener("popstate", route);
document.body.classList.toggle("reduced-motion", localStorage.getItem("zashiki.reducedMotion") === "1");
renderLangToggle();
route();
