// A How-to-play page: every <span data-deck="..." data-face="CODE"> placeholder becomes
// the card face the table draws (the same renderers), in the page's own language. In the
// table's Rules panel (?embed=1) the page drops its top bar and keeps links in the panel.

import { addStrings, setLang } from "../i18n.js";
import { frenchCard } from "../components.js";
import { CARD_STRINGS, unoCard, unsunCard, utsukeCard } from "../cards_tricks.js";
import { SHIRO_STRINGS, shiroCard } from "../shirokuro.js";

addStrings(CARD_STRINGS);
addStrings(SHIRO_STRINGS);
// The page's language is fixed (i18n.js sets <html lang> to the player's choice on import).
const pageLang = document.getElementById("rules").dataset.lang;
setLang(pageLang, { remember: false });

const DECKS = {
  french: (code) => frenchCard(code),
  unsun: (code, data) => unsunCard(code, { trump: "trump" in data }),
  utsuke: (code, data) => utsukeCard(code, { trump: "trump" in data, chip: "chip" in data }),
  uno: (code, data) => unoCard(code, { trumpClass: data.trumpClass }),
  shiro: (code, data) => shiroCard(code, { loose: "loose" in data }),
};

for (const slot of document.querySelectorAll("[data-deck][data-face]")) {
  const draw = DECKS[slot.dataset.deck];
  if (draw) slot.replaceChildren(draw(slot.dataset.face, slot.dataset));
}

if (new URLSearchParams(location.search).has("embed")) {
  document.body.classList.add("embedded");
  // The other language's page opens in the panel too.
  for (const link of document.querySelectorAll("a[data-lang-link]")) link.search = "?embed=1";
}
