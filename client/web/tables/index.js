// Every game table the browser can show, by game id. A table module exports
// `create(root)` -> {render(ctx), destroy()} and optionally STRINGS = {en: {}, ja: {}}.

import * as usunoro from "./usunoro.js";
import * as hachinin_meri from "./hachinin_meri.js";
import * as utsuke from "./utsuke.js";
import * as junocos from "./junocos.js";
import * as kokuto_rum from "./kokuto_rum.js";
import * as shirokuro_jong from "./shirokuro_jong.js";

export const TABLES = { usunoro, kokuto_rum, shirokuro_jong, hachinin_meri, utsuke, junocos };
