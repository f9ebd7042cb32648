"""`i18n.message_writer` writes a step's text as `str.format` does: every message of the
catalogs, English and Spanish, with its placeholders' values, gives the same text through
its compiled writer as through `str.format`, and a text `str.format` refuses is refused the
same way. A page's explanation steps are written by these writers (`Formats.step`)."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from portal import i18n

ROOT = Path(__file__).resolve().parents[1]


def _texts() -> list[str]:
    """Each message's text in every language (the template's ids and the Spanish strings)
    with a `{`: the texts a step's message can have."""
    out = []
    with (ROOT / "translations" / "es" / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        for m in read_po(fh):
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            out += [t for t in (*ids, *strings) if t and "{" in t]
    return out


def _format(text: str, params: dict[str, object], value) -> str:
    return text.format(**{k: value(k, v) for k, v in params.items()})


def _value(name: str, v: object) -> str:
    return f"<{name}:{v}>"


def test_every_catalog_text_is_written_as_str_format_writes_it():
    texts = _texts()
    assert len(texts) > 100  # the step messages of both languages
    compiled = 0
    for text in texts:
        names = {n for _lit, n, _s, _c in string.Formatter().parse(text) if n}
        params = {n: k for k, n in enumerate(sorted(names))}
        assert i18n.message_writer(text)(params, _value) == _format(text, params, _value), text
        compiled += all(n.isidentifier() for n in names)
    assert compiled > 100


@pytest.mark.parametrize("text", [
    "Installment {number}: {principal} of {owed}.", "no placeholder", "{a}{a} twice",
    "braces {{kept}} and {a}", "it's \"{a}\" \\ here", "{a:>8} with a spec", "{a!r} converted",
])
def test_a_text_is_written_with_its_values_as_str_format_writes_it(text):
    params = {"number": 3, "principal": "x", "owed": 2, "a": "y", "unused": 1}
    assert i18n.message_writer(text)(params, _value) == _format(text, params, _value)


@pytest.mark.parametrize("text, error", [
    ("{missing}", KeyError), ("{0}", IndexError), ("{a.b}", AttributeError),
    ("{a", ValueError), ("x } y", ValueError),
])
def test_a_text_str_format_refuses_is_refused_the_same_way(text, error):
    with pytest.raises(error):
        _format(text, {"a": 1}, _value)
    with pytest.raises(error):
        i18n.message_writer(text)({"a": 1}, _value)


def test_a_written_step_is_the_formatted_step():
    """`Formats.step` of a core step: its rule, the rule's title and clause, and the text
    with Babel's money, dates and numbers, in each language."""
    from datetime import date
    from decimal import Decimal

    from portal.core.explain import Step
    step = Step("R-A8", "Installment {number}: {principal} unpaid for {days} days, from "
                        "{start} to {end}.",
                {"number": 3, "principal": Decimal("1234.5"), "days": 12,
                 "start": date(2026, 1, 2), "end": date(2026, 1, 14)})
    shown = i18n.formats("en").step(step)
    assert shown.rule == "R-A8" and shown.source and shown.title
    assert shown.text == ("Installment 3: $1,234.50 unpaid for 12 days, from January 2, 2026 "
                          "to January 14, 2026.")
    es = i18n.formats("es").step(step).text
    assert "$1,234.50" in es and "2 de enero de 2026" in es
