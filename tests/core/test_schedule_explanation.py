"""R-A4's explanation of a schedule says when the installments fall due for that parcel: the
1st of each month, or, after a late notice, the first ones all on one day."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from portal.core.installments import explain_schedule, schedule
from portal.i18n import formats

FY = date(2026, 7, 1)
ANNUAL = Decimal("1200.00")

SENTENCES = {
    ("on_time", "en"): "$1,200.00 is paid in 12 monthly installments of $100.00 or less, due "
                       "on the 1st of each month from July 1, 2026.",
    ("on_time", "es"): "$1,200.00 se paga en 12 plazos mensuales de $100.00 o menos, que "
                       "vencen el día 1 de cada mes desde el 1 de julio de 2026.",
    ("late", "en"): "$1,200.00 is paid in 12 installments of $100.00 or less: installments 1 "
                    "to 6 fall due on December 1, 2026, the 1st of the month after the notice; "
                    "the rest on the 1st of each month from January 1, 2027.",
    ("late", "es"): "$1,200.00 se paga en 12 plazos de $100.00 o menos: los plazos 1 a 6 "
                    "vencen el 1 de diciembre de 2026, el día 1 del mes siguiente a la "
                    "notificación; los demás, el día 1 de cada mes desde el 1 de enero de 2027.",
}


def _first_sentence(notice: date | None, lang: str) -> str:
    items = schedule(ANNUAL, FY, notice_date=notice)
    return formats(lang).trace(explain_schedule(ANNUAL, items, notice))[0].text


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_schedule_notified_in_time_falls_due_on_the_1st_of_each_month(lang):
    assert _first_sentence(date(2026, 6, 1), lang) == SENTENCES[("on_time", lang)]
    assert _first_sentence(None, lang) == SENTENCES[("on_time", lang)]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_late_notice_puts_the_first_installments_on_one_day(lang):
    """Notified on 15 November: installments 1 to 5 move to 1 December, where 6 falls."""
    items = schedule(ANNUAL, FY, notice_date=date(2026, 11, 15))
    assert [i.due_date for i in items[:7]] == [date(2026, 12, 1)] * 6 + [date(2027, 1, 1)]
    assert _first_sentence(date(2026, 11, 15), lang) == SENTENCES[("late", lang)]


def test_the_core_renders_it_too_in_both_languages():
    """The core's own rendering (no Babel): the same words, ISO dates."""
    items = schedule(ANNUAL, FY, notice_date=date(2026, 11, 15))
    trace = explain_schedule(ANNUAL, items, date(2026, 11, 15))
    assert trace.steps[0].render("en").startswith(
        "$1,200.00 is paid in 12 installments of $100.00 or less: installments 1 to 6 fall due "
        "on 2026-12-01, the 1st of the month after the notice; the rest on the 1st of each "
        "month from 2027-01-01.")
    assert "los plazos 1 a 6 vencen el 2026-12-01" in trace.steps[0].render("es")


def test_when_every_installment_falls_on_one_day():
    items = schedule(ANNUAL, FY, notice_date=date(2027, 6, 15))
    text = formats("en").trace(explain_schedule(ANNUAL, items, date(2027, 6, 15)))[0].text
    assert text == ("$1,200.00 is paid in 12 installments of $100.00 or less, all due on "
                    "July 1, 2027, the 1st of the month after the notice.")
    es = formats("es").trace(explain_schedule(ANNUAL, items, date(2027, 6, 15)))[0].text
    assert "que vencen todos el 1 de julio de 2027" in es
