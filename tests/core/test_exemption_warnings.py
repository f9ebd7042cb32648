"""R-B12, Exoneración residencial (g)(2): every warning words intent where the statute does
("intencionalmente dejare de notificar cualesquiera cambios en sus cualificaciones") and only
there: failing to report a transfer or change of ownership ("o dejare de notificar
cualesquiera traspasos o modificaciones del dominio") is an offence whatever the intent."""

from __future__ import annotations

from portal.core.exemption import CERTIFICATION_WARNING, FALSE_STATEMENT_WARNING
from portal.core.explain import translator


def test_the_change_reports_warning_names_no_intent_for_a_transfer() -> None:
    text = FALSE_STATEMENT_WARNING
    assert "intentionally failing to report a change in your qualifications" in text
    assert "failing to report a transfer or a change in the ownership" in text
    assert "whatever the intent" in text
    assert "intentionally failing to report a change in your qualifications or a transfer" \
        not in text


def test_the_spanish_warning_says_the_same() -> None:
    es = translator("es").gettext(FALSE_STATEMENT_WARNING)
    assert es != FALSE_STATEMENT_WARNING
    assert "dejar intencionalmente de notificar un cambio en sus cualificaciones" in es
    assert "haya o no intención" in es
    assert "$500" in es and "(R-B12)" in es


def test_the_filing_forms_warning_names_intent_only_for_qualifications() -> None:
    intent = [w for w in CERTIFICATION_WARNING if "intentionally" in w]
    assert len(intent) == 1 and "qualifications" in intent[0]
    transfer = [w for w in CERTIFICATION_WARNING if "transfer" in w]
    assert len(transfer) == 1 and "intentionally" not in transfer[0]
