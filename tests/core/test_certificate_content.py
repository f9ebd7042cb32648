"""The payoff certificate's content (R-A19, R-A15, R-A8): figures worked by hand from RULES.md.

The account: an annual 1,200.00 in 12 installments of 100.00 due the 1st of each month from
2026-07-01 (R-A4), nothing paid, the default rules (day G 10, late fee 5 % of the
installment, interest 10 % a year, actual/365). Issued on 2026-09-10, good through
2026-09-15:
- installments 1 (due 07-01), 2 (08-01) and 3 (09-01; its day G, Thursday 09-10, closes at
  the end of that day) are delinquent on 09-15: 300.00 of delinquent principal (R-A6) and
  three late fees of 5.00 = 15.00 (R-A7);
- interest from each due date to 09-15 (R-A8): 100 x 76 days x 0.10 / 365 = 2.0822 -> 2.08;
  100 x 45 / 3650 = 1.2329 -> 1.23; 100 x 14 / 3650 = 0.3836 -> 0.38; in all 3.69;
- per day after 09-15: 0.10 x 300 / 365 = 0.0822 -> 0.08;
- past due and due: 300 + 15 + 3.69 = 318.69; upcoming (apart): 9 installments, 900.00, the
  next due 2026-10-01; pay-off: 1,218.69.
On the issue date (09-10) installment 3 is still within its grace day: the account is
overdue (1 and 2 are delinquent).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from portal.core.installments import Installment
from portal.core.offer import Account, offer
from portal.core.payoff_certificate import (
    CERTIFICATE_DAYS,
    CertificateContent,
    CertificateDateError,
    RankedLien,
    certificate,
    check_good_through,
    interest_per_day,
    ranking,
    year_figures,
)
from portal.core.statement import Payment

D = Decimal
ISSUED, THROUGH = date(2026, 9, 10), date(2026, 9, 15)


def _account(payments=()) -> Account:  # noqa: ANN001
    installments = [Installment(n, date(2026 + (6 + n) // 13, (6 + n - 1) % 12 + 1, 1), D("100.00"))
                    for n in range(1, 13)]
    return Account("1", "1", "040-000-000-00", "2026-2027", installments, tuple(payments))


def test_installments_are_the_fiscal_year_months():
    dues = [i.due_date for i in _account().installments]
    assert dues[0] == date(2026, 7, 1) and dues[5] == date(2026, 12, 1)
    assert dues[6] == date(2027, 1, 1) and dues[-1] == date(2027, 6, 1)


def test_year_figures_worked_by_hand():
    y = year_figures(_account(), ISSUED, THROUGH, budget_version=2,
                     budget_adopted_on=date(2026, 5, 20))
    assert (y.delinquent_principal, y.due_principal, y.late_fees, y.interest) == (
        D("300.00"), D("0.00"), D("15.00"), D("3.69"))
    assert y.interest_per_day == D("0.08")
    assert (y.costs, y.credit) == (D("0.00"), D("0.00"))
    assert y.total_due == D("318.69")
    assert (y.upcoming_principal, y.upcoming_count, y.next_due) == (
        D("900.00"), 9, date(2026, 10, 1))
    assert y.payoff == D("1218.69")
    assert y.status == "overdue"
    assert (y.budget_version, y.budget_adopted_on) == (2, date(2026, 5, 20))
    assert y.collection is None


def test_the_status_follows_the_figures_printed():
    """Installments 1 and 2 paid, issued on 09-10 (installment 3 still within its
    day G: "pending" that day) but good through 09-15, when installment 3 is delinquent with
    its late fee: the certificate prints 100.00 of delinquent principal and 5.00 of late
    fee, so its words say past due, never "up to date" or "still on time"."""
    paid = [Payment(date(2026, 7, 1), D("100.00")), Payment(date(2026, 8, 1), D("100.00"))]
    y = year_figures(_account(paid), ISSUED, THROUGH)
    assert (y.delinquent_principal, y.late_fees) == (D("100.00"), D("5.00"))
    assert y.status == "overdue"
    assert year_figures(_account(paid), ISSUED, ISSUED).status == "pending"


def test_good_through_the_issue_day_keeps_the_grace_day_open():
    """R-A6: on the statement's own day no grace day closes: good through 09-10, installment
    3 is due (not delinquent), with no late fee; interest to 09-10: 100 x 71 / 3650 = 1.95
    and 100 x 40 / 3650 = 1.10."""
    y = year_figures(_account(), ISSUED, ISSUED)
    assert (y.delinquent_principal, y.due_principal, y.late_fees, y.interest) == (
        D("200.00"), D("100.00"), D("10.00"), D("3.05"))
    assert y.total_due == D("313.05")


def test_the_certificate_reads_the_offers_payoff_figure():
    """One figure: good through the parcel page's day (`offer.payoff_through`), the
    certificate's pay-off is the offer's `payoff_through_amount`."""
    acct = _account([Payment(date(2026, 7, 20), D("50.00"))])
    o = offer(acct, ISSUED)
    y = year_figures(acct, ISSUED, o.payoff_through)
    assert y.payoff == o.payoff_through_amount
    assert y.total_due == o.payoff_statement.total_due_now


def test_a_payment_changes_the_figures_by_r_a10():
    """A payment of 50.00 on 07-20 (R-A10: interest 100 x 19 / 3650 = 0.52, the late fee
    5.00, then 44.48 of installment 1's principal): 55.52 of it stays owed, so 255.52 of
    delinquent principal on 09-15 and 0.10 x 255.52 / 365 = 0.0700 -> 0.07 a day."""
    y = year_figures(_account([Payment(date(2026, 7, 20), D("50.00"))]), ISSUED, THROUGH)
    assert y.delinquent_principal == D("255.52")
    assert y.interest_per_day == D("0.07")


def test_interest_per_day_is_zero_without_delinquent_principal():
    st = _account().statement(date(2026, 7, 5))
    assert interest_per_day(st) == D("0.00")


@pytest.mark.parametrize(("through", "code"), [
    (date(2026, 9, 9), "past"),
    (date(2026, 10, 11), "too_far"),
])
def test_good_through_outside_the_horizon_is_refused(through, code):
    with pytest.raises(CertificateDateError) as err:
        check_good_through(ISSUED, through)
    assert err.value.code == code and err.value.field == "good_through"
    assert err.value.last == date(2026, 10, 10)


def test_good_through_the_last_day_of_the_horizon():
    assert CERTIFICATE_DAYS == 30
    assert check_good_through(ISSUED, date(2026, 10, 10)) == date(2026, 10, 10)


def test_ranking_r_a15():
    """The statute's senior liens are always named; a mortgage recorded before 2000-09-02 is
    ahead of the District's, one recorded on that day or later behind it (not "before"),
    an unrecorded one is not constituted (apart)."""
    old = RankedLien("mortgage", date(1999, 5, 10), "Banco A")
    cutoff = RankedLien("mortgage", date(2000, 9, 2), "Banco B")
    new = RankedLien("mortgage", date(2015, 1, 1), "Banco C")
    unrecorded = RankedLien("mortgage", None, "Banco D")
    r = ranking([new, unrecorded, cutoff, old])
    assert [x.kind for x in r.senior] == ["fiscal_act21_1997", "property_tax", "mortgage"]
    assert r.senior[2] == old
    assert r.junior == (cutoff, new)
    assert r.unrecorded == (unrecorded,)


def test_totals_over_the_years_and_the_snapshot_round_trip():
    acct = _account()
    y1 = year_figures(acct, ISSUED, THROUGH)
    y0 = year_figures(_account([Payment(date(2026, 7, 1), D("1200.00"))]), ISSUED, THROUGH)
    c = certificate("040-000-000-00", "owner", ["María Rivera Ortiz"], ISSUED, THROUGH,
                    [y0, y1], [RankedLien("mortgage", date(2008, 1, 13), "Banco")])
    assert y0.payoff == D("0.00")
    assert (c.total_due, c.upcoming_principal, c.payoff) == (
        D("318.69"), D("900.00"), D("1218.69"))
    again = CertificateContent.from_json(c.to_json())
    assert again == c
    assert again.to_json()["years"][1]["interest"] == "3.69"


def test_certificate_refuses_a_date_outside_the_horizon():
    with pytest.raises(CertificateDateError):
        certificate("x", "owner", [], ISSUED, date(2026, 8, 1), [])
