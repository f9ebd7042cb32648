"""Words live in the catalogs (DESIGN.md 5): every message of the code and templates is in
translations/, and every Spanish message is translated and not fuzzy."""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
PO_ES = ROOT / "translations" / "es" / "LC_MESSAGES" / "messages.po"

METHODS = [("portal/**.py", "python"), ("templates/**.html", "jinja2"),
           ("templates/**.txt", "jinja2")]
KEYWORDS = {**DEFAULT_KEYWORDS, "_l": None, "N_": None}


def _catalog():  # noqa: ANN202
    with PO_ES.open("rb") as fh:
        return read_po(fh)


def test_every_spanish_message_is_translated():
    missing = []
    for msg in _catalog():
        if not msg.id:
            continue
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        if msg.fuzzy or not all(strings):
            missing.append(msg.id)
    assert missing == [], f"untranslated or fuzzy Spanish messages: {missing}"


def _extracted() -> set[str]:
    found = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
            str(ROOT), METHODS, keywords=KEYWORDS,
            options_map={"templates/**.html": {"extensions": "jinja2.ext.do"}}):
        found.add(message if isinstance(message, str) else message[0])
    return found


def test_every_message_in_the_code_is_in_the_catalog():
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in _catalog() if m.id}
    absent = sorted(m for m in _extracted() if m and m not in known)
    assert absent == [], f"run `make translations` and translate: {absent}"


def test_every_message_of_the_catalog_is_still_found_in_the_code():
    """A message the code still shows but `pybabel extract` no longer finds (called through a
    name it does not know) would be dropped by the next `make translations`, and the page
    would show it in English."""
    found = _extracted()
    stale = sorted(m.id if isinstance(m.id, str) else m.id[0] for m in _catalog()
                   if m.id and (m.id if isinstance(m.id, str) else m.id[0]) not in found)
    assert stale == [], f"in the catalog but not found by the extractor: {stale}"
