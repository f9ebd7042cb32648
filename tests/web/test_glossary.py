"""One term per concept in each language (docs/GLOSSARY.md): the catalogs follow the
glossary. The Spanish is the catalog's translations, the English its msgids; a variant the
glossary lists under "not" fails, unless the message is exempted below with its reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "translations" / "es" / "LC_MESSAGES" / "messages.po"
GLOSSARY = ROOT / "docs" / "GLOSSARY.md"

# pattern -> the glossary's term.
AVOID = {
    "es": {r"\bparcelas?\b": "propiedad", r"deuda vieja": "deuda vencida",
           r"\bd[ií]a a tiempo": "último día para pagar a tiempo", r"\bcuotas?\b": "plazo",
           r"\bmoros[oa]s?\b": "en mora", r"\brecargos?\b": "cargo por demora",
           r"\bpenalidad(es)?\b": "cargo por demora", r"\bcostos? de cobro\b": "costas de cobro",
           r"\bcosto nuevo\b": "costa nueva", r"\batrasad[oa]s?\b": "vencido",
           r"pago único|suma global": "pago global",
           r"saldo total|\bliquidar\b": "cantidad para saldar",
           r"carta de cobro": "requerimiento", r"\bdemandas?\b": "reclamación en el tribunal",
           r"\binquilin[oa]s?\b": "arrendatario"},
    "en": {r"\bpenalt(y|ies)\b": "late fee", r"\bsurcharges?\b": "late fee",
           r"\btenants?\b": "lessee", r"\binstalments?\b": "installment",
           r"\blate charges?\b": "late fee", r"\bold debt\b": "past-due"},
}
# A message whose variant is right -> why.
EXEMPT = {
    "Equity {equity} (value less mortgage, not below 0); credit {credit} (taxes, surcharges, "
    "interest, penalties, costs)":
        "the statute's list of the CRIM's tax credit (residential exemption), not the "
        "District's late fee",
    # The amounts a notice of attachment states (R-C1, 13 LPRA § 33262(a)), as form labels
    # and on the notice (templates/collections/attachments/): the Treasury's and the CRIM's own
    # words.
    "Surcharges": "the statute's list of what a notice of attachment states (R-C1)",
    "Penalties": "the statute's list of what a notice of attachment states (R-C1)",
    # The auction's floor and shortfall (R-C8): the CRIM's debt in the
    # statute's words, not the District's late fee.
    "The CRIM's regulation sets auction": "the CRIM's debt at auction (R-C8)",
    "This parcel's own taxes, surcharges and interest": "the CRIM's debt at auction (R-C8)",
    "What the sale did not cover of the debtor's taxes": "the CRIM's debt at auction (R-C8)",
    "Write what this parcel owes in taxes, surcharges": "the CRIM's debt at auction (R-C8)",
    # What the Treasury states accrued after a notice of attachment (R-C7): its own words.
    "Interest, surcharges and penalties since the notice": "the Treasury's accrual (R-C7)",
}
PLACEHOLDER = re.compile(r"\{[^}]*\}|%\([^)]*\)[sd]")


def _texts(lang: str) -> list[tuple[str, str]]:
    """(msgid, text) of every message: its Spanish, or its English msgid."""
    with PO.open("rb") as fh:
        catalog = read_po(fh)
    out = []
    for msg in catalog:
        if not msg.id:
            continue
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        texts = ids if lang == "en" else (
            msg.string if isinstance(msg.string, tuple) else (msg.string,))
        out += [(ids[0], PLACEHOLDER.sub("", t)) for t in texts if t]
    return out


def variants(lang: str, texts: list[tuple[str, str]]) -> list[str]:
    found = []
    for msgid, text in texts:
        if any(msgid.startswith(e) for e in EXEMPT):
            continue
        for pattern, term in AVOID[lang].items():
            if re.search(pattern, text, re.IGNORECASE):
                found.append(f"{text!r}: say {term!r}")
    return found


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_catalog_keeps_one_term_per_concept(lang):
    assert variants(lang, _texts(lang)) == []


def test_a_variant_fails():
    assert variants("es", [("x", "Pague la cuota")]) == ["'Pague la cuota': say 'plazo'"]
    assert variants("en", [("x", "The tenant pays")]) == ["'The tenant pays': say 'lessee'"]


@pytest.mark.parametrize("term", ["propiedad", "derrama", "plazo", "cargo por demora",
                                  "intereses", "deuda vencida", "cantidad para saldar",
                                  "pago global", "requerimiento", "reclamación en el tribunal",
                                  "último día para pagar a tiempo", "costas de cobro",
                                  "arrendatario"])
def test_the_glossary_terms_are_the_catalogs(term):
    """Each Spanish term of the glossary is in the glossary and used by the catalog."""
    assert term in GLOSSARY.read_text(encoding="utf-8")
    assert any(term in text.lower() for _, text in _texts("es")), term


@pytest.mark.parametrize("term", ["parcel", "assessment", "installment", "late fee",
                                  "interest", "past-due", "pay-off amount", "lump sum",
                                  "demand", "claim in court", "last timely day",
                                  "collection cost", "lessee"])
def test_the_glossary_english_terms_are_the_catalogs(term):
    assert term in GLOSSARY.read_text(encoding="utf-8")
    assert any(term in text.lower() for _, text in _texts("en")), term
