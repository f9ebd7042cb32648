"""Section D `demand_stop` and `payoff_certificate` in the core (R-A13, R-A17, R-A18, R-A19):
the intermediate amounts behind the law cases of tests/cases/demand_stop.yaml, what a demand
lists when a payment is reversed after the mailing, and `portal calc --help`."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal as D

from click.testing import CliRunner

from portal.cli import main
from portal.core import calc
from portal.core.collection import Demand
from portal.core.installments import Installment
from portal.core.offer import Account, demand_stop, offer
from portal.core.statement import Payment, StatementRules, interest_per_day

MAILED = date(2026, 11, 13)
ITEMS = [Installment(n, date(2026, m, 1), D("100.00")) for n, m in zip(range(1, 6),
                                                                        range(8, 13))]


def _account(payments: list[Payment]) -> Account:
    return Account("k", "p", "l", "2026-2027", ITEMS, payments, rules=StatementRules())


def test_the_stop_amount_is_all_interest_and_fees_then_the_demanded_principal():
    """R-A10, R-A18: as of 2026-11-20, interest 2.19 + 1.37 + 0.52 = 4.08, fees 15.00,
    principal of 2 to 4: 319.08; on the last day 11-30, 2.47 + 1.64 + 0.79 = 4.90: 319.90."""
    acct = _account([Payment(date(2026, 8, 5), D("100.00"))])
    on = date(2026, 11, 20)
    st = acct.statement(on)
    assert [i.interest for i in st.installments[1:4]] == [D("2.19"), D("1.37"), D("0.52")]
    assert (st.interest, st.late_fees, st.delinquent_principal) == (D("4.08"), D("15.00"),
                                                                     D("300.00"))
    stop = demand_stop(acct, on, Demand(MAILED, D("0")))
    assert (stop.last_day, stop.court_claim_from) == (date(2026, 11, 30), date(2026, 12, 1))
    assert (stop.demanded, stop.today, stop.by_last_day) == ((2, 3, 4), D("319.08"),
                                                             D("319.90"))
    assert stop.stage == "demand_window" and interest_per_day(st) == D("0.08")
    # the parcel page's offer reads the same figures
    assert offer(acct, on, demand=Demand(MAILED, D("0"))).stop == stop


def test_a_payment_reversed_after_the_mailing_was_not_demanded():
    """Section D: `demanded` is the installments delinquent in the statement as of the
    mailing. Installment 2 was paid late on 09-15 (interest 14 days = 0.38, fee 5.00:
    105.38); that payment is reversed on 11-16: at the mailing (11-13) it was paid, so the
    demand listed 3 and 4 only, although on 11-20 installment 2 is owed again."""
    acct = _account([Payment(date(2026, 8, 5), D("100.00")),
                     Payment(date(2026, 9, 15), D("105.38"), reversed_on=date(2026, 11, 16))])
    assert acct.statement(MAILED).installments[1].status == "paid"
    on = date(2026, 11, 20)
    assert acct.statement(on).installments[1].status == "delinquent"
    stop = demand_stop(acct, on, Demand(MAILED, D("0")))
    assert stop.demanded == (3, 4)
    # R-A10 pays installment 2's principal before 3's and 4's: the amount is the same 319.08
    assert stop.today == D("319.08")


def test_payoff_certificate_through_calc_names_the_interest_of_each_installment():
    """R-A19: good through 2026-12-05: 2.60 + 1.78 + 0.93 (installment 5 due, no interest)."""
    data = {"issued_on": "2026-11-20", "good_through": "2026-12-05",
            "installments": [{"number": i.number, "due_date": i.due_date.isoformat(),
                              "amount": str(i.amount)} for i in ITEMS],
            "payments": [{"date": "2026-08-05", "amount": "100.00"}],
            "closed_days": [], "rules": {"closed_days": []}}
    st = _account([Payment(date(2026, 8, 5), D("100.00"))]).statement(date(2026, 12, 5))
    assert [i.interest for i in st.installments] == [D("0.00"), D("2.60"), D("1.78"),
                                                     D("0.93"), D("0.00")]
    out = json.loads(calc.run_json("payoff_certificate", json.dumps(data)))
    assert (out["interest"], out["total_due"], out["collection"]) == ("5.31", "420.31", None)


def test_calc_help_lists_every_operation_with_its_rule_ids():
    text = CliRunner().invoke(main, ["calc", "--help"]).output
    for name, (_, summary) in calc.OPERATIONS.items():
        assert name in text and "R-" in summary
    assert "demand_stop" in text and "payoff_certificate" in text
