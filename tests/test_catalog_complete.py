"""The Spanish catalog is complete: translations/es/LC_MESSAGES/messages.po is the only copy of
the reviewed Spanish, so every message of the template (translations/messages.pot) is in it,
translated (every plural form), not fuzzy, with no obsolete (`#~`) entry left, and each Spanish
text keeps its English message's placeholders (`%(name)s`, `{name}`): a placeholder lost or
misspelt would raise or show a raw `{name}` on a Spanish page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
POT = ROOT / "translations" / "messages.pot"
PO_ES = ROOT / "translations" / "es" / "LC_MESSAGES" / "messages.po"

# `%(name)s` with its flags, width, precision and conversion; `{name}` / `{name:spec}` /
# `{name.attr}` of str.format. `%%`, `{{` and `}}` are literal characters, removed first.
PERCENT = re.compile(r"%\(\w+\)[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa]")
BRACE = re.compile(r"\{[^{}]*\}")


def _read(path: Path) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh)


@pytest.fixture(scope="module")
def spanish() -> Catalog:
    return _read(PO_ES)


def _strings(message: Message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def _ids(message: Message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def placeholders(text: str) -> set[str]:
    percent = PERCENT.findall(text.replace("%%", ""))
    brace = BRACE.findall(text.replace("{{", "").replace("}}", ""))
    return set(percent) | set(brace)


def test_every_spanish_entry_is_translated(spanish: Catalog) -> None:
    """An empty msgstr, or an empty plural form, would show the English on a Spanish page."""
    empty = [_ids(m)[0] for m in spanish if m.id and not all(_strings(m))]
    assert empty == [], f"translate these in {PO_ES.relative_to(ROOT)}: {empty}"


def test_no_spanish_entry_is_fuzzy(spanish: Catalog) -> None:
    """`pybabel compile` leaves a fuzzy entry out: the page would show the English."""
    fuzzy = [_ids(m)[0] for m in spanish if m.id and m.fuzzy]
    assert fuzzy == [], f"review these and remove their `#, fuzzy` flag: {fuzzy}"


def test_no_obsolete_spanish_entry(spanish: Catalog) -> None:
    """A `#~` entry is a message the code no longer has: text nobody reviews."""
    obsolete = [_ids(m)[0] for m in spanish.obsolete.values()]
    assert obsolete == [], f"delete these `#~` entries: {obsolete}"


def test_the_spanish_catalog_has_every_message_of_the_template(spanish: Catalog) -> None:
    template = {m.id for m in _read(POT) if m.id}
    catalog = {m.id for m in spanish if m.id}
    missing = sorted(i if isinstance(i, str) else i[0] for i in template - catalog)
    extra = sorted(i if isinstance(i, str) else i[0] for i in catalog - template)
    assert missing == [], f"run `make translations` and translate: {missing}"
    assert extra == [], f"not in translations/messages.pot (run `make translations`): {extra}"


def test_the_spanish_keeps_the_placeholders_of_its_message(spanish: Catalog) -> None:
    """Each Spanish text has the same placeholders as its msgid; a plural's first form (one)
    those of the singular msgid, its other forms those of msgid_plural."""
    wrong = []
    for m in spanish:
        if not m.id:
            continue
        ids = _ids(m)
        for form, text in enumerate(_strings(m)):
            source = ids[0] if form == 0 else ids[-1]
            if text and placeholders(text) != placeholders(source):
                wrong.append((source, form, sorted(placeholders(source) ^ placeholders(text))))
    assert wrong == [], f"(msgid, plural form, placeholders not in both): {wrong}"


@pytest.mark.parametrize(("text", "found"), [
    ("%(amount)s by %(date)s", {"%(amount)s", "%(date)s"}),
    ("%(num)d days, 7%% a year", {"%(num)d"}),
    ("{rate} x {principal_days:,} = {accrued}", {"{rate}", "{principal_days:,}", "{accrued}"}),
    ("a literal {{brace}}", set()),
])
def test_placeholders_are_found(text: str, found: set[str]) -> None:
    assert placeholders(text) == found
