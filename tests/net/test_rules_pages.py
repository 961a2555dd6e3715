"""The How-to-play pages as a real server serves them, read as HTML (no script runs).

The pages are plain static files (the client has no build step), so each carries its own
copy of one short head. These tests keep the copies alike: every page has exactly the
shared head and top bar (`SHAPE`) but for its language, title (its heading), game, card
stylesheet and the link to the same page in the other language; and both languages of a
game have the same glossary anchors.
"""

from __future__ import annotations

import re

import httpx

from tests.net.conftest import ServerProcess

# The one head every page has; {…} are the page's own values.
SHAPE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Zashiki</title>
<link rel="stylesheet" href="/style.css">
{cards}<link rel="stylesheet" href="/rules/rules.css">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<script type="module" src="/rules/rules.js"></script>
</head>
<body class="rules-page">
<header class="topbar"><a class="brand" href="/">Zashiki</a> <a data-lang-link \
href="{game}.{other}.html" hreflang="{other}" lang="{other}">{other_name}</a></header>
<main class="rules" id="rules" data-game="{game}" data-lang="{lang}">
"""
END = "</main>\n</body>\n</html>\n"
LANGUAGES = {"en": "English", "ja": "日本語"}
# The card faces a page draws come with the table's stylesheet for that deck.
CARD_SHEETS = ("/tricks.css", "/shirokuro.css")


def pages(server: ServerProcess) -> dict[tuple[str, str], str]:
    """Every rules page /api/games lists, by (game, language), as served."""
    games = httpx.get(server.url + "/api/games").json()["games"]
    served = {}
    for game in games:
        for lang, path in game["rules"].items():
            answer = httpx.get(server.url + path)
            assert answer.status_code == 200, path
            assert answer.headers["content-type"].startswith("text/html")
            served[(game["id"], lang)] = answer.text
    return served


def test_every_page_has_the_one_shared_head_with_its_own_values(server: ServerProcess) -> None:
    served = pages(server)
    assert len(served) == 12
    for (game, lang), html in served.items():
        title = re.search(r"<h1>(.*?)</h1>", html)
        assert title is not None, f"{game}.{lang}: no heading"
        sheet = next((sheet for sheet in CARD_SHEETS if f'href="{sheet}"' in html), None)
        cards = f'<link rel="stylesheet" href="{sheet}">\n' if sheet else ""
        (other,) = set(LANGUAGES) - {lang}
        head = SHAPE.format(
            lang=lang,
            title=title.group(1),
            cards=cards,
            game=game,
            other=other,
            other_name=LANGUAGES[other],
        )
        assert html.startswith(head), f"{game}.{lang}: its head is not the shared one"
        assert html.endswith(END), f"{game}.{lang}: it does not end as the others do"
        assert (game, other) in served, f"{game}.{lang}: links to a page that is not there"


def test_both_languages_have_the_same_glossary_anchors(server: ServerProcess) -> None:
    served = pages(server)
    for game in {game for game, _ in served}:
        en, ja = (set(re.findall(r'id="(g-[^"]+)"', served[(game, lang)])) for lang in LANGUAGES)
        assert en and en == ja, f"{game}: glossary anchors differ ({sorted(en ^ ja)})"
