"""The bank's bill file: each loan's line is the account's offer (amount through
the last installment covered, last timely day, lump sum when eligible); the file is kept,
read by page, CSV and filters; paying it reports what changed since (paid by the bank, by
the owner, an amount changed, a loan removed)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from flask import Flask
from sqlalchemy import select

from portal import clock
from tests.support.demo import app_uow


def lender_user(w):  # noqa: ANN001, ANN201
    from portal.models import User
    return w.session.scalar(select(User).where(User.email == "lender@demo.pr"))


def offers_of(w, lines, fy):  # noqa: ANN001, ANN201
    from portal.accounts import statements
    from portal.accounts.facts import load_many
    pids = [ln.parcel_id for ln in lines]
    facts = load_many(w, pids, fy)
    demands = statements.demands_of(w, pids, fy.id)
    return {p: facts[p].offer(clock.today(), key=f"{p}-{fy.id}", demand=demands.get(p))
            for p in pids}


def test_lines_are_the_offer(demo_app: Flask) -> None:
    from portal.core import bill
    from portal.lenders import bills
    from portal.models import BillLine, FiscalYear
    with app_uow(demo_app) as w:
        f = bills.make(w, lender_user(w))
        fy = w.session.get(FiscalYear, f.fiscal_year_id)
        lines = list(w.session.scalars(select(BillLine).where(BillLine.file_id == f.id)))
        assert lines and f.lines == len(lines)
        assert f.total == sum((ln.amount for ln in lines), Decimal("0.00"))
        offers = offers_of(w, lines, fy)
        for ln in lines:
            o = offers[ln.parcel_id]
            want = bill.line(o)
            assert (ln.through, ln.amount, ln.last_timely_day) == (
                want.through, want.amount, want.last_timely_day)
            if o.lump_sum.eligible:
                assert (ln.lump_sum, ln.lump_sum_by) == (o.lump_sum.amount, o.lump_sum.deadline)
            else:
                assert ln.lump_sum is None
            if ln.through is not None:  # the payments' own price of "through N"
                opt = next(i for i in o.installments if i.number == ln.through)
                assert opt.amount_through == ln.amount
        # a due date: only what falls due by then (never more than the whole year)
        first = min(i.due_date for o in offers.values() for i in o.installments)
        g = bills.make(w, lender_user(w), fiscal_year=fy.label, due_by=first)
        by = {ln.loan_id: ln for ln in w.session.scalars(
            select(BillLine).where(BillLine.file_id == g.id))}
        assert g.total <= f.total
        for ln in lines:
            assert by[ln.loan_id].amount <= ln.amount


def test_page_csv_filters(demo_app: Flask) -> None:
    from portal.lenders import bills
    with app_uow(demo_app) as w:
        user = lender_user(w)
        f = bills.make(w, user)
        page = bills.lines_page(w, user, f.id, bills.Filters(owed=True), per_page=10)
        assert page.count == page.owed and all(ln.amount > 0 for ln in page.lines)
        everything = bills.lines_page(w, user, f.id, bills.Filters())
        assert everything.count == f.lines and everything.total == f.total
        text = "".join(bills.lines_csv(w, user, f.id, bills.Filters(), "en"))
        assert text.startswith("\ufeffloan_number,catastro,through_installment")
        assert text.count("\r\n") == f.lines + 1
        q = everything.lines[0].loan_number
        one = bills.lines_page(w, user, f.id, bills.Filters(q=q))
        assert one.count >= 1 and all(ln.loan_number.startswith(q) for ln in one.lines)


def _post_payment(w, parcel_id, fy_id, amount, user_id):  # noqa: ANN001, ANN202
    from portal.accounts import ledger
    from portal.core import payment_states as states
    from portal.models import Payment
    p = Payment(parcel_id=parcel_id, fiscal_year_id=fy_id, user_id=user_id,
                status=states.SUCCEEDED, amount=amount,
                idempotency_key=f"t-{parcel_id}-{amount}-{user_id}",
                completed_at=clock.now())
    w.session.add(p)
    w.session.flush()
    ledger.post_payment(w, p.id)


def test_exceptions_report(demo_app: Flask) -> None:
    from portal.lenders import bills, loan_changes
    from portal.models import BillLine, LedgerEntry, Loan, Parcel, User
    with app_uow(demo_app) as w:
        user = lender_user(w)
        f = bills.make(w, user)
        fid, fy_id = f.id, f.fiscal_year_id
        owed = list(w.session.scalars(select(BillLine).where(
            BillLine.file_id == fid, BillLine.amount > 0).order_by(BillLine.loan_number)))
        assert len(owed) >= 4, "the demo bank has loans with something due"
        by_bank, by_owner, partly, removed = owed[:4]
        w.session.expunge_all()
    later = clock.now() + timedelta(minutes=5)
    with clock.fixed(later), app_uow(demo_app) as w:
        user = lender_user(w)
        other = w.session.scalar(select(User).where(User.email == "owner@demo.pr"))
        _post_payment(w, by_bank.parcel_id, fy_id, by_bank.amount, user.id)
        _post_payment(w, by_owner.parcel_id, fy_id, by_owner.amount, other.id)
        loan = w.session.get(Loan, removed.loan_id)
        cat = w.session.get(Parcel, loan.parcel_id).catastro
        loan.starts_on = clock.today() - timedelta(days=30)
        w.session.flush()
        loan_changes.change_one(w, user, {"action": "baja", "loan_number": loan.loan_number,
                                          "catastro": cat})
        # a cost charged since the file (R-A9): the amount changed, paid at today's
        w.session.add(LedgerEntry(parcel_id=partly.parcel_id, fiscal_year_id=fy_id,
                                  kind="cost", direction="debit", amount=Decimal("12.50"),
                                  legal_date=clock.today(), rule="R-A9",
                                  cost_kind="certified_mail", description="certified mail"))
    with clock.fixed(later + timedelta(minutes=1)), app_uow(demo_app) as w:
        report = bills.to_pay(w, lender_user(w), fid, bills.Filters())
        codes = {e.line.loan_id: e.code for e in report.exceptions}
        assert codes[by_bank.loan_id] == "paid_by_you"
        assert codes[by_owner.loan_id] == "paid_by_owner"
        assert codes[removed.loan_id] == "ended"
        assert codes[partly.loan_id] == "changed"
        paid = {pid: a for pid, _fy, _n, a in report.choices}
        assert by_bank.parcel_id not in paid and by_owner.parcel_id not in paid
        assert paid[partly.parcel_id] == partly.amount + Decimal("12.50")
        assert report.total == sum((a for *_x, a in report.choices), Decimal("0.00"))
        text = "".join(bills.exceptions_csv(report, "es"))
        assert text.count("\r\n") == len(report.exceptions) + 1
        # kept with the payment: the same report, read and downloaded later
        pay = bills.prepare(w, lender_user(w), fid, bills.Filters())
        pay_id, total = pay.id, pay.total
        assert (pay.items, pay.exceptions, pay.total) == (
            len(report.choices), len(report.exceptions), report.total)
    with clock.fixed(later + timedelta(days=3)), app_uow(demo_app) as w:
        user = lender_user(w)
        kept = bills.exceptions_page(w, user, fid, pay_id, per_page=1000)
        assert {e.loan_id: e.code for e in kept.rows} == codes
        assert bills.payment_of(w, user, fid, pay_id).total == total
        for lang, head in (("es", "numero_prestamo"), ("en", "loan_number")):
            stored = "".join(bills.stored_exceptions_csv(w, user, fid, pay_id, lang))
            assert stored.startswith("\ufeff" + head)
            assert stored.count("\r\n") == len(codes) + 1
        assert "Pagado por el dueño" in "".join(
            bills.stored_exceptions_csv(w, user, fid, pay_id, "es"))


def test_other_lender_sees_nothing(demo_app: Flask) -> None:
    from portal.accounts.errors import NotFound
    from portal.lenders import bills
    from tests.support.lenders import second_lender
    with app_uow(demo_app) as w:
        f = bills.make(w, lender_user(w))
        _b, other = second_lender(w)
        w.session.flush()
        with pytest.raises(NotFound):
            bills.get(w, other, f.id)


def test_one_payment_covers_the_whole_file_a_batch_at_a_time(demo_app: Flask, monkeypatch) -> None:
    """No ceiling on the loans of one payment: its items, its exceptions and its checkout's
    payments are written a batch at a time (a batch of 3 here, over the demo bank's whole
    file), and the checkout pays exactly the items, each through its installment."""
    from portal.lenders import bills
    from portal.models import BillLine, BillPaymentItem, Payment
    from portal.models.checkouts import Checkout, CheckoutPayment
    monkeypatch.setattr(bills, "BATCH", 3)
    with app_uow(demo_app) as w:
        user = lender_user(w)
        f = bills.make(w, user)
        owed = {ln.parcel_id for ln in w.session.scalars(select(BillLine).where(
            BillLine.file_id == f.id, BillLine.amount > 0))}
        pay = bills.prepare(w, user, f.id, bills.Filters())
        fid, pid, total = f.id, pay.id, pay.total
        items = list(w.session.scalars(select(BillPaymentItem).where(
            BillPaymentItem.payment_id == pid)))
        assert len(owed) > 3 * 2, "more than two batches"
        assert pay.items == len(items) == len(owed)  # every parcel owed, once
        assert total == sum((i.amount for i in items), Decimal("0.00"))
        assert [len(b) for b in bills.items_of(w, pid)][0] == 3
    started = start(demo_app, fid, pid, total)
    again = start(demo_app, fid, pid, total)
    assert again == (started.checkout_id, started.url)  # its open checkout, not another
    with app_uow(demo_app) as w:
        chk = w.session.get(Checkout, started.checkout_id)
        rows = w.session.execute(
            select(Payment.parcel_id, Payment.amount, Payment.status,
                   CheckoutPayment.installments_through)
            .join(CheckoutPayment, CheckoutPayment.payment_id == Payment.id)
            .where(CheckoutPayment.checkout_id == chk.id)).all()
        want = {(i.parcel_id, i.amount, i.through) for i in items}
        assert {(p, a, n) for p, a, _s, n in rows} == want
        assert chk.amount == total and {s for _p, _a, s, _n in rows} == {"pending"}
        assert bills.payment_of(w, lender_user(w), fid, pid).checkout_id == chk.id


def _Who(app: Flask):  # noqa: ANN202, N802
    with app_uow(app) as w:
        u = lender_user(w)
        w.session.expunge(u)
        return u


def start(app: Flask, fid: int, pid: int, expected):  # noqa: ANN001, ANN201
    """Start the prepared payment as the confirmation does (`to_start`, then the payments'
    `start_many`); its open checkout (id, address) when it has one already."""
    from portal.lenders import bills
    from portal.payments.service import start_many
    from portal.web.data import database
    from portal.web.payments.gateways import gateway
    with app.app_context(), app.test_request_context():
        who = _Who(app)
        plan = bills.to_start(database(), who, fid, pid, expected_total=expected)
        if plan.open is not None:
            return plan.open
        return start_many(database(), user=who, key=plan.key, total=plan.total,
                          batches=plan.batches, created=plan.created, language="es",
                          gateway=gateway(), description="t", success_url=lambda c: f"/ok/{c}",
                          cancel_url=lambda c: f"/no/{c}")


def test_a_payment_whose_amounts_changed_is_not_started(demo_app: Flask) -> None:
    """A cost charged after the payment was prepared, or a total not the one reviewed, or
    another day: nothing is started (prepare it again)."""
    from portal.lenders import bills
    from portal.models import BillPaymentItem, LedgerEntry
    from portal.models.checkouts import Checkout
    with app_uow(demo_app) as w:
        user = lender_user(w)
        f = bills.make(w, user)
        pay = bills.prepare(w, user, f.id, bills.Filters())
        fid, pid, total, fy_id = f.id, pay.id, pay.total, f.fiscal_year_id
        item = w.session.scalars(select(BillPaymentItem).where(
            BillPaymentItem.payment_id == pid).order_by(BillPaymentItem.parcel_id.desc())
        ).first()
        before = w.session.scalar(select(func_count()).select_from(Checkout))

    with pytest.raises(bills.Changed):
        start(demo_app, fid, pid, total + Decimal("0.01"))
    with app_uow(demo_app) as w:  # a cost since (R-A9), on the last batch's parcel
        w.session.add(LedgerEntry(parcel_id=item.parcel_id, fiscal_year_id=fy_id,
                                  kind="cost", direction="debit", amount=Decimal("12.50"),
                                  legal_date=clock.today(), rule="R-A9",
                                  cost_kind="certified_mail", description="certified mail"))
    with pytest.raises(bills.Changed):
        start(demo_app, fid, pid, total)
    with clock.fixed(clock.now() + timedelta(days=1)), pytest.raises(bills.Changed):
        start(demo_app, fid, pid, total)
    with app_uow(demo_app) as w:
        assert w.session.scalar(select(func_count()).select_from(Checkout)) == before
        assert bills.payment_of(w, lender_user(w), fid, pid).checkout_id is None


def func_count():  # noqa: ANN201
    from sqlalchemy import func
    return func.count()
