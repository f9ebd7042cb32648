"""The parcel page's fragments fill their translated messages (`fragments._translated`) as
MarkupSafe's `%` does: the same text for every message of every part, in both languages,
with values that need escaping, values that are markup already, numbers and dates."""

import random
import re
from datetime import date
from decimal import Decimal

import pytest
from markupsafe import Markup

from portal.web import fragments

PARTS = [fragments.DEBT_WORDS, fragments.ANSWER_WORDS, fragments.DOCUMENT_WORDS,
         fragments.BUDGET_WORDS, fragments.OFFER_WORDS, fragments.OWED_WORDS,
         fragments.TAX_WORDS, fragments.HEADING_WORDS]
NAMES = re.compile(r"%\((\w+)\)s")


def _values(rng: random.Random) -> list:
    return ['<b>"Tom" & Jerry\'s</b>', Markup("<em>ya es HTML</em>"), "plain", "",
            Decimal(rng.randint(-10**6, 10**6)) / 100, rng.randint(0, 10**4),
            date(2026, rng.randint(1, 12), rng.randint(1, 28)), "100%", None]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_each_message_is_filled_as_markupsafe_fills_it(lang):
    rng = random.Random(20261208)
    filled = 0
    for words in PARTS:
        for key, text in fragments._translated(words, lang).items():
            names = NAMES.findall(text)
            if not names:
                continue
            assert type(text) is fragments._Words, key
            for _ in range(5):
                values = {n: rng.choice(_values(rng)) for n in names}
                got = text % values
                assert type(got) is Markup
                assert got == Markup(str(text)) % values, (key, values)
                filled += 1
    assert filled > 100


def test_only_named_string_placeholders_take_the_short_way():
    assert type(fragments._fillable(Markup("%(a)s of %(b)s, 100%%"))) is fragments._Words
    for text in ("%(n)d days", "%s", "%(a)s and %(b)r"):
        kept = fragments._fillable(Markup(text))
        assert type(kept) is Markup
    assert fragments._Words("%s") % ("<x>",) == Markup("&lt;x&gt;")  # MarkupSafe's own way
    with pytest.raises(KeyError):
        fragments._Words("%(a)s") % {"b": 1}
