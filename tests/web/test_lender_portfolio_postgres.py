"""The portfolio kept by the bank and the bill file on PostgreSQL: the same
reasons and outcomes as on SQLite, a loan added and removed in one file (its rows keep their
loan, nothing deleted), the bill file's lines and the exceptions report, one payment of the
whole file kept and started."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from portal import clock
from tests.support.app import demo_on_postgresql
from tests.support.demo import app_uow
from tests.web.test_lender_portfolio_changes import free_parcel, lender_user


def _run(app) -> dict:  # noqa: ANN001
    from portal.lenders import bills
    from portal.lenders import loan_changes as lc
    from portal.models import Loan
    with app_uow(app) as w:
        user = lender_user(w)
        (cat, name, _pid), (cat2, name2, _p2), _c = free_parcel(w)
        rows = [
            {"action": "alta", "loan_number": "PG-1", "catastro": cat, "owner_name": name,
             "escrow": "sí"},
            {"action": "alta", "loan_number": "PG-2", "catastro": cat2, "owner_name": name2},
            {"action": "baja", "loan_number": "PG-2", "catastro": cat2},
            {"action": "alta", "loan_number": "PG-3", "catastro": "999-999-999-99",
             "owner_name": name},
            {"action": "alta", "loan_number": "PG-1", "catastro": cat2, "owner_name": name2},
            {"action": "baja", "loan_number": "PG-9", "catastro": cat},
        ]
        f = lc.submit(w, user, rows, source="api", idempotency_key="pg",
                      body_hash=lc.body_hash_of(rows))
        got, _n = lc.rows_page(w, user, f.id)
        outcomes = [(lc.what(r), r.reason) for r in got]
        pg2 = w.session.scalar(select(Loan).where(Loan.loan_number == "PG-2"))
        assert pg2.ends_on < clock.today() and pg2.starts_on <= pg2.ends_on
        f = bills.make(w, user)
        page = bills.lines_page(w, user, f.id, bills.Filters(owed=True))
        report = bills.to_pay(w, user, f.id, bills.Filters())
        pay = bills.prepare(w, user, f.id, bills.Filters())
        fid, pid = f.id, pay.id
        answer = {"outcomes": outcomes, "lines": f.lines, "total": f.total, "owed": page.owed,
                  "to_pay": len(report.choices), "exceptions": len(report.exceptions),
                  "kept": (pay.items, pay.exceptions, pay.total)}
    answer["started"] = _started(app, fid, pid, answer["kept"][2])
    return answer


def _started(app, fid: int, pid: int, total) -> tuple:  # noqa: ANN001
    """The kept payment started (its payments written a batch at a time, COPY on
    PostgreSQL): how many payments, their sum, their state."""
    from sqlalchemy import func

    from portal.models import Payment
    from portal.models.checkouts import CheckoutPayment
    from tests.web.test_lender_bill_file import start
    started = start(app, fid, pid, total)
    with app_uow(app) as w:
        return tuple(w.session.execute(
            select(func.count(), func.sum(Payment.amount), func.min(Payment.status))
            .join(CheckoutPayment, CheckoutPayment.payment_id == Payment.id)
            .where(CheckoutPayment.checkout_id == started.checkout_id)).one())


@pytest.mark.postgres
def test_the_same_on_postgresql(tmp_path, demo_app):  # noqa: ANN001
    on_sqlite = _run(demo_app)
    assert on_sqlite["outcomes"] == [
        ("added", None), ("added", None), ("removed", None), ("rejected", "not_on_roll"),
        ("rejected", "loan_number_taken"), ("rejected", "not_your_loan")]
    with demo_on_postgresql(tmp_path) as (app, _result):
        on_pg = _run(app)
    assert on_pg == on_sqlite
