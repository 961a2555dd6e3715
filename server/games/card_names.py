"""Card names in English and Japanese, as the browser's tables say them.

The helpers (each game's `helpers.py`) and the CPU policies' `why` sentences name cards
in the words a player sees on the table: these tables copy the client's
(client/web/cards_tricks.js, shirokuro.js, i18n.js), so a sentence and the card it
points at read alike. Every function returns {"en": ..., "ja": ...}.
"""

from __future__ import annotations

Names = dict[str, str]

# Usunoro: a French-suited card such as "D1" (suit letter, rank 1-4).
_FRENCH_RANK = {
    "en": {"1": "Ace", "2": "Two", "3": "Three", "4": "Four"},
    "ja": {"1": "エース", "2": "2", "3": "3", "4": "4"},
}
_FRENCH_RANKS_PLURAL = {"1": "Aces", "2": "Twos", "3": "Threes", "4": "Fours"}
_FRENCH_SUIT = {
    "en": {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"},
    "ja": {"S": "スペード", "H": "ハート", "C": "クラブ", "D": "ダイヤ"},
}

# Hachinin Meri: an Unsun card such as "KSo" (suit letter, rank 1-9 or a court).
_UNSUN_SUIT = {
    "en": {
        "P": "Pao (batons)",
        "I": "Isu (swords)",
        "K": "Koppu (cups)",
        "O": "Ouru (coins)",
        "G": "Guru (tomoe)",
    },
    "ja": {
        "P": "パオ（棍棒）",
        "I": "イス（剣）",
        "K": "コップ（聖杯）",
        "O": "オウル（貨幣）",
        "G": "グル（巴）",
    },
}
_UNSUN_COURT = {
    "en": {"So": "Sota", "Ka": "Kaba", "Re": "Rei", "Ro": "Robai", "Un": "Un", "Su": "Sun"},
    "ja": {"So": "ソータ", "Ka": "カバ", "Re": "レイ", "Ro": "ロバイ", "Un": "ウン", "Su": "スン"},
}

# Utsuke and Junocos: colour decks ("G7", "RS" for a red Skip).
_COLOUR = {
    "en": {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "P": "purple"},
    "ja": {"R": "赤", "Y": "黄", "G": "緑", "B": "青", "P": "紫"},
}

# The Shirokuro deck (Kokuto Rum, Shirokuro Jong): values such as "W5".
_SHIRO_COLOUR = {"en": {"W": "White", "B": "Black"}, "ja": {"W": "白", "B": "黒"}}


def french_rank(rank: str, plural: bool = False) -> Names:
    """An Usunoro rank ("1".."4") as a word: "Ace", or "Aces" with `plural`."""
    en = _FRENCH_RANKS_PLURAL[rank] if plural else _FRENCH_RANK["en"][rank]
    return {"en": en, "ja": _FRENCH_RANK["ja"][rank]}


def french_card(code: str) -> Names:
    """An Usunoro card such as "D1": "Ace of diamonds" / "ダイヤのエース"."""
    suit, rank = code[0], code[1:]
    return {
        "en": f"{_FRENCH_RANK['en'][rank]} of {_FRENCH_SUIT['en'][suit]}",
        "ja": f"{_FRENCH_SUIT['ja'][suit]}の{_FRENCH_RANK['ja'][rank]}",
    }


def unsun_card(code: str) -> Names:
    """A Hachinin Meri card such as "KSo": "Koppu (cups) Sota" / "コップ（聖杯）のソータ"."""
    suit, rank = code[0], code[1:]
    return {
        lang: f"{_UNSUN_SUIT[lang][suit]}{' ' if lang == 'en' else 'の'}"
        f"{_UNSUN_COURT[lang].get(rank, rank)}"
        for lang in ("en", "ja")
    }


def unsun_suit(suit: str) -> Names:
    """An Unsun suit letter in words."""
    return {lang: _UNSUN_SUIT[lang][suit] for lang in ("en", "ja")}


def colour_card(code: str) -> Names:
    """An Utsuke or Junocos card such as "G7" or "RS": "green 7" / "緑の7"."""
    colour, value = code[0], code[1:]
    if value == "S":
        return {"en": f"{_COLOUR['en'][colour]} Skip", "ja": f"{_COLOUR['ja'][colour]}のスキップ"}
    return {"en": f"{_COLOUR['en'][colour]} {value}", "ja": f"{_COLOUR['ja'][colour]}の{value}"}


def shiro_value(text: str) -> Names:
    """A Shirokuro value or a held card's upright end ("W5..."): "White 5" / "白5"."""
    return {
        "en": f"{_SHIRO_COLOUR['en'][text[0]]} {text[1]}",
        "ja": f"{_SHIRO_COLOUR['ja'][text[0]]}{text[1]}",
    }


def shiro_card(text: str) -> Names:
    """A Shirokuro card text, held ("B5/W2") or loose, white end first as the log says it:
    "White 2 / Black 5" / "白2／黒5"."""
    white, black = (text[:2], text[3:5]) if text[0] == "W" else (text[3:5], text[:2])
    a, b = shiro_value(white), shiro_value(black)
    return {"en": f"{a['en']} / {b['en']}", "ja": f"{a['ja']}／{b['ja']}"}


def join(names: list[Names], last: Names | None = None) -> Names:
    """Names in a list: "A, B or C" / "A、B、C" (`last` replaces "or" with its own word)."""
    word = last or {"en": "or", "ja": "か"}
    en = [n["en"] for n in names]
    ja = [n["ja"] for n in names]
    en_text = en[0] if len(en) == 1 else f"{', '.join(en[:-1])} {word['en']} {en[-1]}"
    ja_text = ja[0] if len(ja) == 1 else f"{'、'.join(ja[:-1])}{word['ja']}{ja[-1]}"
    return {"en": en_text, "ja": ja_text}
