"""What the lobby tells a newcomer about each game: a one-line summary per language, a
typical match length, and where its How-to-play pages are.

The rules pages are files of the browser client (`client/web/rules/<game>.<lang>.html`,
served at `/rules/...`); a game lists only the languages whose page is there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

RULES_DIR = Path(__file__).resolve().parents[2] / "client" / "web" / "rules"
LANGUAGES = ("en", "ja")

# A match with the default options, from deal to result, in minutes (low, high).
TYPICAL_MINUTES: dict[str, tuple[int, int]] = {
    "usunoro": (10, 15),
    "hachinin_meri": (30, 45),
    "utsuke": (15, 30),
    "kokuto_rum": (15, 25),
    "shirokuro_jong": (15, 25),
    "junocos": (25, 40),
}

SUMMARY: dict[str, dict[str, str]] = {
    "usunoro": {
        "en": "Pass cards until you hold four of a rank, then grab a token: "
        "the slowest hand takes a penalty.",
        "ja": "カードを回して同じ数字を四枚そろえ、札を取る。いちばん遅い人が罰点。",
    },
    "hachinin_meri": {
        "en": "Two teams of four take tricks with an old Japanese pack; "
        "high trumps beating high trumps score extra.",
        "ja": "四人ずつ二チームで古いかるたのトリックを取り合う。強い切り札どうしの勝負で役。",
    },
    "utsuke": {
        "en": "Guess how many tricks the foolish Lord will take, but never take more than he does.",
        "ja": "うつけ者の殿が取るトリック数を当てる。ただし殿より多く取ってはいけない。",
    },
    "kokuto_rum": {
        "en": "A rummy with two-ended cards in a row you cannot rearrange: meld, then knock low.",
        "ja": "並べ替えられない両端数字のカードで遊ぶラミー。役を作って低い点でノック。",
    },
    "shirokuro_jong": {
        "en": "A small mahjong with two-ended cards: two groups and a pair, won by Tsumo or Ron.",
        "ja": "両端数字のカードの小さな麻雀。面子二つと雀頭をツモかロンで和了る。",
    },
    "junocos": {
        "en": "Draft four open cards, then take tricks: your last open card "
        "is the number of tricks to aim for.",
        "ja": "公開札を四枚取ってからトリックテイキング。最後の公開札の数だけトリックを狙う。",
    },
}


def rules_pages(game_id: str) -> dict[str, str]:
    """The How-to-play page's path per language, for the pages that exist."""
    return {
        lang: f"/rules/{game_id}.{lang}.html"
        for lang in LANGUAGES
        if (RULES_DIR / f"{game_id}.{lang}.html").is_file()
    }


def game_info(game_id: str) -> dict[str, Any]:
    """The lobby's extra fields for one game (empty values for a game without any)."""
    low, high = TYPICAL_MINUTES.get(game_id, (0, 0))
    return {
        "summary": dict(SUMMARY.get(game_id, {})),
        "typical_minutes": {"min": low, "max": high} if high else None,
        "rules": rules_pages(game_id),
    }
