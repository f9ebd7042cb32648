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


def test_each_kinds_warning_is_the_cores_and_names_intent_only_for_qualifications() -> None:
    """Every page, email and document of a change report prints `ChangeOutcome.warning`: the
    general warning, then what failing to report this kind is (R-B12, R-B17's eight kinds)."""
    from datetime import date

    from portal.core.exemption_changes import (
        OWNERSHIP_KINDS,
        REPORT_KINDS,
        ChangeFacts,
        change_outcome,
    )
    assert len(REPORT_KINDS) == 8
    for kind in REPORT_KINDS:
        out = change_outcome(ChangeFacts(kind, date(2026, 3, 15), date(2026, 11, 30)))
        lines = out.warning.render("en")
        assert lines[0] == f"R-B12: {FALSE_STATEMENT_WARNING}"
        ownership = kind in OWNERSHIP_KINDS
        assert ("whatever the intent" in lines[1]) is ownership, kind
        assert ("Intentionally" in lines[1]) is not ownership, kind
        assert out.penalty.intent_required is not ownership
        assert lines[1] in out.trace.render("en")  # the same words as what follows
        es = out.warning.render("es")[1]
        assert ("cualquiera que sea la intención" in es) is ownership, (kind, es)
        assert ("intencionalmente" in es) is not ownership, (kind, es)
