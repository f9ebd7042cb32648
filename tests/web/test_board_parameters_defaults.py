"""The statute's defaults the Board (or the Authority) may replace for a fiscal year, recorded
at `/personal/parametros/<fy>/<name>` (R-A4, R-A6, R-A7, R-A11, J8; docs/STAFF.md): the grace
day, the late fee's base, the lump-sum deadline and the number of installments. Each is
recorded with its resolution, audit-logged and in force at once (a statement's figure changes
as the rule says); bad input is refused in the reader's language with nothing written; the
number of installments cannot change once the year's roll is published; only the
administrator records. The demo's today: 2026-11-30; its FY 2026-2027 roll is published."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from decimal import Decimal
from html import unescape

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal import clock
from portal.accounts import facts, in_force, ledger, statements
from portal.accounts.facts import rules_for
from portal.db import UnitOfWork
from portal.models import AuditRecord, BoardParameterValue, FiscalYear
from portal.people import users
from portal.web.data import database
from tests.support.demo import parcel_ids
from tests.support.pages import csrf_token, login

FY = "2026-2027"
FY_START = date(2026, 7, 1)
NEXT = "2027-2028"
NEXT_START = date(2027, 7, 1)
LATER = date(2026, 12, 20)  # a statement after December's day G


def _count(app: Flask, model, *where) -> int:  # noqa: ANN001
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(model).where(*where))


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _post(client, name: str, fy: str = FY, lang: str = "es", **over: str):  # noqa: ANN001, ANN202
    path = f"/personal/parametros/{fy}/{name}?lang={lang}"
    page = client.get(path)
    assert page.status_code == 200
    data = {"csrf_token": csrf_token(page.get_data(as_text=True)),
            "effective_on": "2026-11-30", "resolution_number": "2026-20",
            "resolution_date": "2026-11-25", **over}
    return client.post(path, data=data)


def _pay(app: Flask, pid: int, amount: str, on: date) -> None:
    """A payment at the office on `on` (recorded that day)."""
    with clock.fixed(on), app.app_context(), UnitOfWork(database()) as w:
        staff = users.find_by_email(w, "staff@demo.pr")
        fy = w.session.scalar(select(FiscalYear).where(FiscalYear.starts_on == FY_START))
        ledger.record_office_payment(w, staff, pid, fy.id, Decimal(amount),
                                     completed_at=datetime(on.year, on.month, on.day, 15,
                                                           tzinfo=UTC))


def _december(app: Flask, pid: int):  # noqa: ANN202
    """Installment 6 (due 2026-12-01) of the owner's parcel, on a statement of LATER."""
    with clock.fixed(LATER), app.app_context(), UnitOfWork(database()) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        st = statements.statement_for(w, owner, pid, as_of=LATER).statement
    return next(i for i in st.installments if i.number == 6), st


def _on_time_parcel(app: Flask) -> int:
    """The owner's parcel paid to date, whose December installment is 163.55."""
    return parcel_ids(app)["owner"][0]


def test_grace_day_15_makes_a_payment_on_the_14th_timely(demo_app):
    """R-A6: December's installment paid in full on Monday 2026-12-14 is late with the
    statute's day 10 (a late fee) and timely once the Board's day 15 is recorded."""
    pid = _on_time_parcel(demo_app)
    _pay(demo_app, pid, "163.55", date(2026, 12, 14))
    before, _st = _december(demo_app, pid)
    assert before.status == "delinquent"  # the fee and interest took part of the payment
    assert before.late_fee_base == Decimal("163.55")  # a fee of 5% of it was charged
    staff = login(demo_app, "staff")
    r = _post(staff, "grace_day", value="15")
    assert r.status_code == 303, _text(r.get_data(as_text=True))[:1500]
    after, _st = _december(demo_app, pid)
    assert after.status == "paid" and after.late_fee_base == 0 and after.late_fee == 0
    with demo_app.app_context(), UnitOfWork(database()) as w:
        assert rules_for(FY_START, w).grace_day == 15
        assert rules_for(date(2025, 7, 1), w).grace_day == 10  # other years: the statute's
        audit = w.session.scalars(select(AuditRecord).where(
            AuditRecord.action == "board_parameter.adopted")).all()
    assert len(audit) == 1 and audit[0].before == {"value": 10}
    assert audit[0].after["value"] == "15"
    listing = _text(staff.get(f"/personal/parametros?fy={FY}&lang=en").get_data(as_text=True))
    assert "Resolución 2026-20" in listing and "The statute's default: 10" in listing


def test_late_fee_base_unpaid_measures_the_fee_on_what_was_left(demo_app):
    """R-A7: 100.00 of December's 163.55 paid by day G: the late fee is 5% of the whole
    installment by default, 5% of the 63.55 left once the Board's base `unpaid` is
    recorded."""
    pid = _on_time_parcel(demo_app)
    _pay(demo_app, pid, "100.00", date(2026, 12, 4))
    before, _st = _december(demo_app, pid)
    assert before.late_fee == Decimal("8.18")
    staff = login(demo_app, "staff")
    form = _text(staff.get(f"/personal/parametros/{FY}/late_fee_base?lang=en")
                 .get_data(as_text=True))
    assert "the whole installment" in form and "the unpaid part" in form
    assert "23 LPRA § 6432(d)" in form  # the statute's default with its clause
    r = _post(staff, "late_fee_base", value="unpaid")
    assert r.status_code == 303, _text(r.get_data(as_text=True))[:1500]
    after, _st = _december(demo_app, pid)
    assert after.late_fee == Decimal("3.18")  # 5% of 63.55
    assert after.late_fee_base == Decimal("63.55")
    assert _count(demo_app, AuditRecord,
                  AuditRecord.action == "board_parameter.adopted") == 1


def test_the_lump_sum_deadline_is_a_choice_or_a_day_of_the_year(demo_app):
    """R-A11: the Authority's regulation sets the last day for the lump sum: the statements
    read it at once; back to the first installment's due date with the other choice."""
    pid = _on_time_parcel(demo_app)
    staff = login(demo_app, "staff")
    r = _post(staff, "lump_sum_deadline", value="day", deadline_day="2026-12-15")
    assert r.status_code == 303, _text(r.get_data(as_text=True))[:1500]
    with demo_app.app_context(), UnitOfWork(database()) as w:
        assert rules_for(FY_START, w).lump_sum_deadline == date(2026, 12, 15)
        owner = users.find_by_email(w, "owner@demo.pr")
        assert statements.statement_for(w, owner, pid).statement.lump_sum_deadline == \
            date(2026, 12, 15)
    listing = _text(staff.get(f"/personal/parametros?fy={FY}&lang=es").get_data(as_text=True))
    assert "15 de diciembre de 2026" in listing
    r = _post(staff, "lump_sum_deadline", value="first_installment_due",
              resolution_number="2026-21")
    assert r.status_code == 303
    with demo_app.app_context(), UnitOfWork(database()) as w:
        assert rules_for(FY_START, w).lump_sum_deadline is None  # the first due date
    assert _count(demo_app, BoardParameterValue) == 2


def test_the_number_of_installments_for_a_year_not_yet_on_the_roll(demo_app):
    """R-A4: the Board sets 10 installments for 2027-2028 (no roll yet): the year's value is
    10, the others keep the statute's 12."""
    staff = login(demo_app, "staff")
    r = _post(staff, "installment_count", fy=NEXT, value="10")
    assert r.status_code == 303, _text(r.get_data(as_text=True))[:1500]
    with demo_app.app_context(), UnitOfWork(database()) as w:
        assert facts.installment_count(NEXT_START, w) == 10
        assert facts.installment_count(FY_START, w) == 12
        assert in_force.parameter_set(w).for_fiscal_year(
            "installment_count", NEXT_START) == 10
    page = _text(staff.get(f"/personal/parametros?fy={NEXT}&lang=en").get_data(as_text=True))
    assert "Resolución 2026-20" in page


@pytest.mark.parametrize(("lang", "words"), [
    ("es", "Los plazos de este año fiscal ya están escritos"),
    ("en", "The installments of this fiscal year are already written: its roll is "
           "published. Their number cannot change now")])
def test_the_number_of_installments_of_a_published_roll_is_refused(demo_app, lang, words):
    staff = login(demo_app, "staff")
    form = _text(staff.get(f"/personal/parametros/{FY}/installment_count?lang={lang}")
                 .get_data(as_text=True))
    assert words in form  # said before anyone tries
    r = _post(staff, "installment_count", lang=lang, value="10")
    assert r.status_code == 400
    assert words in _text(r.get_data(as_text=True))
    assert 'aria-invalid="true"' in r.get_data(as_text=True)
    assert _count(demo_app, BoardParameterValue) == 0
    assert _count(demo_app, AuditRecord, AuditRecord.action.like("board_parameter.%")) == 0


@pytest.mark.parametrize(("name", "lang", "over", "words"), [
    ("grace_day", "es", {"value": "40"}, "Escriba un día del mes del 1 al 31."),
    ("grace_day", "en", {"value": "0"}, "Write a day of the month from 1 to 31."),
    ("grace_day", "en", {"value": "ten"}, "Write a day of the month from 1 to 31."),
    ("installment_count", "es", {"value": "13"},
     "Escriba un número de plazos del 1 al 12."),
    ("late_fee_base", "en", {"value": "whole"}, "Choose what the late fee is measured on."),
    ("late_fee_base", "es", {"value": "whole"}, "Escoja sobre qué se mide el cargo por demora."),
    ("lump_sum_deadline", "en", {"value": "day", "deadline_day": "2027-08-31"},
     "Write a day within fiscal year 2026-2027."),
    ("lump_sum_deadline", "es", {"value": "day", "deadline_day": ""},
     "Escriba el último día para el pago global."),
    ("lump_sum_deadline", "en", {"value": "someday"},
     "Write a day that exists, such as 2026-08-31."),
    ("grace_day", "en", {"value": "15", "effective_on": "2026-11-01"},
     "It cannot take effect before the resolution's date."),
])
def test_bad_input_is_explained_at_its_field_and_nothing_changes(demo_app, name, lang, over,
                                                                 words):
    staff = login(demo_app, "staff")
    fy = NEXT if name == "installment_count" else FY
    r = _post(staff, name, fy=fy, lang=lang, **over)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert words in _text(html)
    assert 'id="error-summary"' in html and 'aria-invalid="true"' in html
    assert _count(demo_app, BoardParameterValue) == 0
    assert _count(demo_app, AuditRecord, AuditRecord.action.like("board_parameter.%")) == 0


def test_only_the_administrator_records_them(demo_app):
    names = ("grace_day", "late_fee_base", "lump_sum_deadline", "installment_count")
    for who in ("reviewer@demo.pr", "cashier@demo.pr", "readonly@demo.pr"):
        c = login(demo_app, who)
        html = c.get(f"/personal/parametros?fy={FY}").get_data(as_text=True)
        assert "/grace_day\"" not in html and "/late_fee_base\"" not in html
        token = csrf_token(c.get("/").get_data(as_text=True))
        for name in names:
            path = f"/personal/parametros/{FY}/{name}"
            assert c.get(path).status_code == 403
            assert c.post(path, data={"csrf_token": token, "value": "15"}).status_code == 403
    owner = login(demo_app, "owner")
    token = csrf_token(owner.get("/").get_data(as_text=True))
    assert owner.post(f"/personal/parametros/{FY}/grace_day", data={
        "csrf_token": token, "value": "15"}).status_code == 404
    assert _count(demo_app, BoardParameterValue) == 0
    staff = login(demo_app, "staff")
    html = staff.get(f"/personal/parametros?fy={FY}").get_data(as_text=True)
    for name in names:
        assert f'/personal/parametros/{FY}/{name}"' in html


def test_the_pages_are_valid_html(demo_app, tmp_path):
    """vnu on the list and each of the four forms (one with its errors), in both
    languages."""
    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing():
        pytest.skip(vnu_missing())
    staff = login(demo_app, "staff")
    files = []
    for lang in ("es", "en"):
        pages = {"list": staff.get(f"/personal/parametros?fy={FY}&lang={lang}")}
        for name in ("grace_day", "late_fee_base", "lump_sum_deadline", "installment_count"):
            pages[name] = staff.get(f"/personal/parametros/{FY}/{name}?lang={lang}")
        pages["error"] = _post(staff, "lump_sum_deadline", lang=lang, value="day",
                               deadline_day="2027-08-31")
        pages["select-error"] = _post(staff, "late_fee_base", lang=lang, value="whole")
        for key, r in pages.items():
            f = tmp_path / f"{key}-{lang}.html"
            f.write_text(r.get_data(as_text=True), encoding="utf-8")
            files.append(f)
    errors = vnu_errors(files)
    assert errors == [], "\n".join(errors[:40])


def test_the_deadlines_form_starts_from_the_day_in_force(demo_app):
    staff = login(demo_app, "staff")
    assert _post(staff, "lump_sum_deadline", value="day",
                 deadline_day="2026-12-15").status_code == 303
    html = staff.get(f"/personal/parametros/{FY}/lump_sum_deadline").get_data(as_text=True)
    assert 'value="2026-12-15"' in html
    assert re.search(r'<option value="day" selected>', html)


def test_a_bad_value_is_said_with_the_forms_other_errors(demo_app):
    """One round: a value out of bounds and a missing resolution are refused together."""
    staff = login(demo_app, "staff")
    r = _post(staff, "grace_day", value="40", resolution_number="", resolution_date="")
    assert r.status_code == 400
    text = _text(r.get_data(as_text=True))
    assert "Escriba un día del mes del 1 al 31." in text
    assert "Escriba el número de la resolución." in text
    assert text.index("Escriba un día del mes") < text.index("Escriba el número de la resolución")
    assert _count(demo_app, BoardParameterValue) == 0
