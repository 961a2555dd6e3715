// Learning a game inside Zashiki: the lobby's line about each game (summary, seats,
// typical length, How to play), one line of help per room option with its glossary terms
// linked, option values read as words (times in seconds), and links to the rules pages.
// The pages themselves are files under rules/ (see rules/rules.js); explain.js opens them
// in a panel.

import { addStrings, lang, t } from "./i18n.js";
import { el } from "./components.js";

// Help strings: "[words](term)" becomes a link to the glossary entry #g-term.
addStrings({
  en: {
    how_to_play: "How to play",
    minutes_range: "about {min}–{max} min",
    opt_ms_off: "Off (no time limit)",
    opt_ms_seconds: "{n} seconds",
    opt_ms_minutes: "{n} minutes",
    opt_open_hands: "Open hands",
    opt_mark_timeout_ms: "Choosing time",
    opt_idle_void_ms: "Idle table",
    opt_declare_timeout_ms: "Time to declare or pass",
    opth_direction: "Which neighbour receives the card you [pass](pass-direction).",
    opth_length: "Standard ends at 4 [penalties](penalty), short at the first one.",
    opth_mark_timeout_ms: "If you have not [chosen a card](mark) by then, one is chosen for you.",
    opth_idle_void_ms: "If nobody acts this long while passing, the round is [void](void) and dealt again.",
    opth_same_device: "Both hands face up on one screen; Player 1 grabs with F, Player 2 with J ([open hands](open-hands)).",
    opth_concealed_robai_bonus: "How far the 5-point bonus reaches when nobody declared the trump [Robai](hidden-robai).",
    opth_declare_timeout_ms: "Everyone gets the same time to [declare or pass](declare); silence passes.",
    opth_lord_seat: "Where the [Lord](lord) sits in the first round.",
    opth_end_rule: "Who wins when someone is [executed](executed) before anyone has 3 [Homare](homare).",
    opth_deck: "Which 30 two-ended cards make the deck ([upright end](upright)).",
    opth_first_dealer: "Who is the first [dealer](dealer).",
    opth_discard_taken_card: "May a card taken from the [discard pile](discard-pile) go straight back?",
    opth_knock_before_discard: "May you [knock](knock) holding 9 cards, before discarding?",
    opth_physical_fidelity: "Everyone sees where a card went into or left a [hand](hand), never which way up.",
    opth_rotation: "Before each round, may players turn their whole hand around once ([rotation](rotation))?",
    opth_claim_timeout_ms: "Time to call [Ron](ron), [Pon](pon) or [Chii](chii) after each discard; silence passes.",
    opth_dora: "Which cards count as [Dora](dora), one point each.",
    opth_yaku_reading: "How [Iipeikou](yaku-iipeikou) and [Doujun](yaku-two-colour-doujun) are read.",
    opth_min_yaku: "How many [yaku](yaku) a hand needs to win.",
    opth_payments: "Whether the discarder (on [Ron](ron)) or everyone (on [Tsumo](tsumo)) loses the winner's points.",
    opth_renchan: "Whether the [Oya](oya) deals the same round again after winning.",
    opth_trump_number_suit: "Do [trump-number](trump-number) cards count as trumps for following?",
    opth_zero_trick_bonus: "Does a [zero-trick](zero) round also take the [+5 bonus](bonus)?",
    opth_difficulty: "How well the CPU players play (and, in Usunoro, how fast they grab).",
    opth_public_room: "Anyone can find and join it from the lobby while seats are open.",
  },
  ja: {
    how_to_play: "遊び方",
    minutes_range: "約{min}～{max}分",
    opt_ms_off: "なし（時間制限なし）",
    opt_ms_seconds: "{n}秒",
    opt_ms_minutes: "{n}分",
    opt_open_hands: "手札公開",
    opt_mark_timeout_ms: "選ぶ時間",
    opt_idle_void_ms: "操作のない卓",
    opt_declare_timeout_ms: "宣言・パスの時間",
    opth_direction: "[渡す](pass-direction)カードを受け取る隣の人。",
    opth_length: "標準は[罰点](penalty)4つ、短めは最初の罰点で終わり。",
    opth_mark_timeout_ms: "それまでに[カードを選ばない](mark)と、自動で選ばれます。",
    opth_idle_void_ms: "交換中にこの時間だれも操作しないと、ラウンドは[無効](void)になり配り直します。",
    opth_same_device: "二人の手札を一つの画面に表向きで表示。プレイヤー1はF、プレイヤー2はJで取ります（[手札公開](open-hands)）。",
    opth_concealed_robai_bonus: "切り札の[ロバイ](hidden-robai)がだれにも宣言されなかったときの5点がどこまで及ぶか。",
    opth_declare_timeout_ms: "全員が同じ時間で[宣言かパス](declare)を答えます。答えなければパス。",
    opth_lord_seat: "最初のラウンドで[殿](lord)が座る場所。",
    opth_end_rule: "だれも[誉れ](homare)3つに届かないうちに[処刑](executed)が出たときの勝者。",
    opth_deck: "両端に数字のある30枚の組み合わせ（[上向き](upright)）。",
    opth_first_dealer: "最初の[親](dealer)。",
    opth_discard_taken_card: "[捨て札](discard-pile)から取ったカードをすぐに捨ててよいか。",
    opth_knock_before_discard: "捨てる前に9枚のまま[ノック](knock)してよいか。",
    opth_physical_fidelity: "[手札](hand)のどこにカードを入れたか・抜いたかを全員に見せます（向きは見せません）。",
    opth_rotation: "局の前に一度だけ手札全体を回せるか（[回転](rotation)）。",
    opth_claim_timeout_ms: "捨て牌ごとに[ロン](ron)・[ポン](pon)・[チー](chii)を答える時間。答えなければ見送り。",
    opth_dora: "どのカードを[ドラ](dora)（一枚1点）にするか。",
    opth_yaku_reading: "[一盃口](yaku-iipeikou)と[二色同順](yaku-two-colour-doujun)の読み方。",
    opth_min_yaku: "和了に必要な[役](yaku)の数。",
    opth_payments: "[ロン](ron)なら捨てた人が、[ツモ](tsumo)ならほかの全員が、和了った人の点を失うか。",
    opth_renchan: "[親](oya)が和了ったら同じ局をもう一度行うか。",
    opth_trump_number_suit: "[切り札の数字](trump-number)のカードを、従うときに切り札として扱うか。",
    opth_zero_trick_bonus: "[0トリック](zero)のとき[+5点](bonus)も数えるか。",
    opth_difficulty: "CPUの上手さ（うすのろでは取る速さも）。",
    opth_public_room: "席が空いている間、ロビーからだれでも見つけて参加できます。",
  },
});

// Free whole-number options get a few sensible choices in the lobby (the engine takes
// any whole number of milliseconds; 0 is off).
const PRESETS = {
  mark_timeout_ms: [0, 15000, 30000, 60000],
  idle_void_ms: [0, 60000, 120000, 300000],
  declare_timeout_ms: [0, 10000, 20000, 30000, 60000],
};

/** The choices the lobby offers for `option` (its own, or presets for a free number). */
export function optionChoices(option) {
  if (option.choices && option.choices.length) return option.choices;
  const presets = PRESETS[option.name];
  if (!presets) return [];
  return presets.includes(option.default) ? presets : [...presets, option.default].sort((a, b) => a - b);
}

/** A time option's value in words ("30 seconds", "2 minutes", "Off"), else null. */
export function millisLabel(option, value) {
  if (!option.name.endsWith("_ms") || typeof value !== "number") return null;
  if (value === 0) return t("opt_ms_off");
  const seconds = value / 1000;
  return seconds >= 120 && seconds % 60 === 0 ? t("opt_ms_minutes", { n: seconds / 60 })
    : t("opt_ms_seconds", { n: seconds });
}

/** The path of a game's rules page in the current language, with `term`'s anchor. */
export function rulesHref(game, term) {
  const id = typeof game === "string" ? game : game.id;
  const path = (game.rules && game.rules[lang()]) || `/rules/${id}.${lang()}.html`;
  return term ? `${path}#g-${term}` : path;
}

/** A help text with its "[words](term)" marks turned into glossary links for `gameId`. */
export function richText(text, gameId) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(/\[([^\]]+)\]\(([a-z0-9-]+)\)/g)) {
    parts.push(text.slice(last, match.index));
    parts.push(el("a", {
      href: rulesHref(gameId, match[2]), class: "term-link", "data-rules-game": gameId, "data-rules-term": match[2],
    }, match[1]));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.filter((p) => p !== "");
}

/** One line of help for a lobby field (`key` such as an option name), or null. */
export function helpLine(key, gameId, id) {
  const text = t("opth_" + key);
  if (text === "opth_" + key) return null;
  return el("p", { class: "muted help", id }, richText(text, gameId));
}

/** The lobby's line about a game: its summary, then seats · typical length · How to play. */
export function gameInfo(game, seatsText) {
  const summary = (game.summary && (game.summary[lang()] || game.summary.en)) || "";
  const length = game.typical_minutes ? t("minutes_range", game.typical_minutes) : null;
  return el("span", { class: "game-info" },
    summary ? el("span", { class: "game-summary" }, summary) : null,
    el("span", { class: "muted" }, [seatsText, length].filter(Boolean).join(" · "), " · ",
      el("a", {
        href: rulesHref(game), class: "rules-link", id: "rules-link-" + game.id,
        "data-rules-game": game.id,
      }, t("how_to_play"))));
}
