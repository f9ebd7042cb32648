"""One term per concept in the Spanish catalog (issue 12): a parcel is "propiedad" on every
screen and in every explanation, never "parcela"; past-due debt is "deuda vencida"; R-A6's
day is the "último día para pagar a tiempo". (translations/pages_es.py holds the fixes.)"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

PO = Path(__file__).resolve().parents[2] / "translations" / "es" / "LC_MESSAGES" / "messages.po"
AVOID = {r"\bparcelas?\b": "propiedad", r"deuda vieja": "deuda vencida",
         r"d[ií]a a tiempo": "último día para pagar a tiempo"}


def test_the_spanish_catalog_keeps_one_term_per_concept():
    with PO.open("rb") as fh:
        catalog = read_po(fh)
    found = []
    for msg in catalog:
        if not msg.id:
            continue
        for text in msg.string if isinstance(msg.string, tuple) else (msg.string,):
            for pattern, term in AVOID.items():
                if text and re.search(pattern, text, re.IGNORECASE):
                    found.append(f"{text!r}: say {term!r}")
    assert found == []
