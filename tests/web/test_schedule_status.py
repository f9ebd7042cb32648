"""R-A5: an installment an amendment reduced to 0.00 is shown "cancelled by an amendment"
(never "paid": nothing was paid on it) on the parcel page's schedule and in the statement
PDF's, in both languages; a paid installment keeps "paid"."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from types import SimpleNamespace

import pytest

from portal.i18n import use_language
from portal.web.accounts.views import schedule_rows

ZERO = Decimal("0.00")


def _installment(number: int, status: str) -> SimpleNamespace:
    return SimpleNamespace(number=number, status=status, due_date=date(2026, 7, 1),
                           last_timely_day=date(2026, 7, 10), principal=ZERO, late_fee=ZERO,
                           interest=ZERO)


@pytest.mark.parametrize(("lang", "cancelled", "paid"), [
    ("es", "anulado por una enmienda", "pagado"), ("en", "cancelled by an amendment", "paid")])
def test_an_installment_zeroed_by_an_amendment_is_not_paid(lang, cancelled, paid):
    st = SimpleNamespace(installments=[_installment(1, "paid"), _installment(2, "paid")])
    amounts = [SimpleNamespace(number=1, amount=Decimal("100.00")),
               SimpleNamespace(number=2, amount=ZERO)]
    with use_language(lang):
        rows = schedule_rows(st, amounts, date(2026, 11, 30))
    assert [(r.shown_status, r.status_label) for r in rows] == [("paid", paid),
                                                                ("cancelled", cancelled)]
    assert [r.status for r in rows] == ["paid", "paid"]  # the core's status, unchanged
