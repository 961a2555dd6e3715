"""Shared pieces of the policies' `why` sentences (issue 45): one plain sentence, en and ja.

Each policy builds its sentence from values it already computed; this module holds what
several games say alike.
"""

from __future__ import annotations

Why = dict[str, str]

ONLY_MOVE: Why = {"en": "It is the only card you may play.", "ja": "出せる札はこれだけです。"}


def sampled(n: int) -> Why:
    """ "in 24 sampled deals" / "24通りの配り直しで" (worlds drawn by `shuffle_unseen`)."""
    return {
        "en": f"in {n} sampled deal{'s' if n != 1 else ''} of the cards you cannot see",
        "ja": f"見えない札を{n}通りに配り直して試すと",
    }
