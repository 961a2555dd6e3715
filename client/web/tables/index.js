// Every game table the browser can show, by game id. A table module exports
// `create(root)` -> {render(ctx), destroy()} and optionally STRINGS = {en: {}, ja: {}}.

import * as usunoro from "./usunoro.js";

export const TABLES = { usunoro };
