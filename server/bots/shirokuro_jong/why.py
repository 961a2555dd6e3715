"""Shirokuro Jong CPU's `why` sentences (issue 45): one plain sentence, en and ja.

Built from what the policy already chose; the pieces several games share are in
`server.bots.why`.
"""

from __future__ import annotations

from typing import Any

from server.bots.shirokuro_jong.hard import wait_mask
from server.bots.why import Why
from server.games.card_names import join, shiro_value
from server.games.shirokuro_jong.hands import Mentsu
from server.games.shirokuro_jong.hands import text as value_text

Action = dict[str, Any]

WIN_WHY = {
    "ron": {"en": "Ron: this discard completes your hand.", "ja": "ロン：この捨て札で和了です。"},
    "tsumo": {"en": "Tsumo: your hand is complete.", "ja": "ツモ：手が完成しています。"},
}
NEXT_WHY = {"en": "Ready for the next round.", "ja": "次の局へ進みます。"}


def tsumo_insert_why(view: dict[str, Any], action: Action, points: int) -> Why:
    """Why the drawn card goes in where its Tsumo scores most."""
    value = shiro_value(view["drawn"] if action["up"] == "W" else view["drawn"][3:])
    return {
        "en": f"Puts the drawn card in {value['en']} up: Tsumo then scores "
        f"{points} points, the most of any place.",
        "ja": f"引いた札を{value['ja']}を上にして入れると、ツモで{points}点、"
        "いちばん高くなります。",
    }


def hard_why(view: dict[str, Any], action: Action, hand: list[int], exposed: list[Mentsu]) -> Why:
    """Hard's reason for a rotation, an insertion, a discard or a claim answer."""
    kind = action["type"]
    if kind == "rotate":
        if action["flip"]:
            return {
                "en": "Rotates your hand: turned around, it is closer to winning.",
                "ja": "手札を回転します：逆向きのほうが和了に近いからです。",
            }
        return {
            "en": "Keeps the hand as dealt: it is closer to winning than rotated.",
            "ja": "配られたままにします：回転するより和了に近いからです。",
        }
    if kind == "discard":
        i = action["index"]
        rest = hand[:i] + hand[i + 1 :]
        name = shiro_value(value_text(hand[i]))
        mask = wait_mask(rest, 2 - len(exposed))
        if mask:
            waits = join([shiro_value(value_text(v)) for v in range(12) if mask >> v & 1])
            return {
                "en": f"Discards your {name['en']}: tenpai, waiting on {waits['en']}.",
                "ja": f"{name['ja']}を捨てて聴牌：{waits['ja']}待ちです。",
            }
        return {
            "en": f"Discards your {name['en']}: the rest has the best chances after the next draw.",
            "ja": f"{name['ja']}を捨てます：残りが次のツモでいちばん良くなります。",
        }
    if kind == "insert":
        value = shiro_value(view["drawn"] if action["up"] == "W" else view["drawn"][3:])
        return {
            "en": f"Puts the drawn card in at position {action['index'] + 1}, {value['en']} "
            "up: the best hand once you discard.",
            "ja": f"引いた札を{value['ja']}を上にして{action['index'] + 1}番目に入れます："
            "捨てたあといちばん良い手になります。",
        }
    if kind in ("pon", "chii"):
        call = {"pon": ("Pon", "ポン"), "chii": ("Chii", "チー")}[kind]
        return {
            "en": f"Calls {call[0]}: the hand after the call is clearly better than now.",
            "ja": f"{call[1]}します：鳴いたあとの手が今よりはっきり良くなります。",
        }
    return {
        "en": "Passes: calling would not make your hand better enough to give up a draw.",
        "ja": "パスします：鳴いてもツモを1回捨てるほど手が良くなりません。",
    }
