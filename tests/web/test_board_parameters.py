"""The Board's parameters page (R-A6 to R-A11, J8; docs/STAFF.md): a fiscal year's values with
their references, a new value recorded with its resolution (append-only, audit-logged, in
force on the next request), days declared closed with the Board's reason in both languages
(the parcel page says why a last day moved), bad input answered in the reader's language with
nothing saved, and roles: only the administrator records. The demo's today: 2026-11-30."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from html import unescape

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal import clock
from portal.accounts import in_force
from portal.accounts.facts import rules_for
from portal.db import UnitOfWork
from portal.models import AuditRecord, BoardParameterValue
from portal.web.data import database
from tests.support.demo import parcel_ids
from tests.support.pages import csrf_token, login

FY = "2026-2027"
FY_START = date(2026, 7, 1)


def _count(app: Flask, model, *where) -> int:  # noqa: ANN001
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(model).where(*where))


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _post_value(client, value: str, lang: str = "es", **over: str):  # noqa: ANN001, ANN202
    path = f"/personal/parametros/{FY}/interest_rate?lang={lang}"
    page = client.get(path).get_data(as_text=True)
    data = {"csrf_token": csrf_token(page), "value": value, "effective_on": "2026-11-30",
            "resolution_number": "2026-14", "resolution_date": "2026-11-20", **over}
    return client.post(path, data=data)


def test_the_list_shows_each_value_with_its_reference_and_who_sets_it(demo_app):
    staff = login(demo_app, "staff")
    html = staff.get(f"/personal/parametros?fy={FY}&lang=en").get_data(as_text=True)
    text = _text(html)
    assert "Board parameters for 2026-2027" in text
    assert "10%" in text and "5%" in text and "2%" in text  # interest, late fee, discount
    assert "23 LPRA § 6432(d)" in text  # a statute's clause, with its default
    assert "The statute's default: 10" in text
    assert f'/personal/parametros/{FY}/interest_rate"' in html
    assert f'/personal/parametros/{FY}/grace_day"' in html  # the Board may replace it
    assert "Portal outage" not in text  # the demo's closed day is in 2025-2026
    older = _text(staff.get("/personal/parametros?fy=2025-2026&lang=en").get_data(
        as_text=True))
    assert "Portal outage (illustrative demo entry)" in older


def test_the_spanish_list_marks_the_language_of_each_quotation(demo_app):
    # WCAG 3.1.2: the record's English words keep their language on a Spanish page.
    html = login(demo_app, "staff").get(f"/personal/parametros?fy={FY}&lang=es").get_data(
        as_text=True)
    assert '<span lang="en">23 LPRA § 6432(d)' in html


def test_a_new_rate_is_recorded_append_only_audited_and_read_at_once(demo_app):
    staff = login(demo_app, "staff")
    assert _post_value(staff, "0.10").status_code == 303  # the same value: still a row
    r = _post_value(staff, "8%")
    assert r.status_code == 303, _text(r.get_data(as_text=True))[:1500]
    assert _count(demo_app, BoardParameterValue) == 2
    assert _count(demo_app, AuditRecord, AuditRecord.action == "board_parameter.adopted") == 2
    with demo_app.app_context(), UnitOfWork(database()) as w:
        assert rules_for(FY_START, w).interest_rate == Decimal("0.08")
        audit = w.session.scalars(select(AuditRecord).where(
            AuditRecord.action == "board_parameter.adopted").order_by(AuditRecord.id)).all()
        assert audit[-1].before == {"value": "0.1"} and audit[-1].after["value"] == "0.08"
    html = _text(staff.get(r.headers["Location"] + "&lang=en").get_data(as_text=True))
    assert "Resolución 2026-14" in html and "staff@demo.pr" in html and "8%" in html
    assert "replaced" in html and "in force" in html


def test_a_value_effective_later_is_not_in_force_until_its_day(demo_app):
    staff = login(demo_app, "staff")
    r = _post_value(staff, "0.09", effective_on="2027-01-15")
    assert r.status_code == 303
    with demo_app.app_context(), UnitOfWork(database()) as w:
        assert rules_for(FY_START, w).interest_rate == Decimal("0.10")
    with clock.fixed(date(2027, 1, 15)), demo_app.app_context(), UnitOfWork(database()) as w:
        assert rules_for(FY_START, w).interest_rate == Decimal("0.09")


@pytest.mark.parametrize(("lang", "value", "over", "words"), [
    ("es", "abc", {}, "Escriba una tasa como 0.07 o 7%."),
    ("en", "abc", {}, "Write a rate such as 0.07 or 7%."),
    ("es", "30%", {}, "Escriba una tasa de 0% a 25%."),
    ("en", "7", {}, "Write a rate from 0% to 25%."),
    ("es", "0.07", {"resolution_number": ""}, "Escriba el número de la resolución."),
    ("en", "0.07", {"resolution_date": "2026-12-01"},
     "The resolution's date cannot be after today."),
    ("es", "0.07", {"effective_on": "2026-11-01"},
     "No puede entrar en vigor antes de la fecha de la resolución."),
    ("en", "0.07", {"effective_on": "2027-07-01"},
     "It must take effect by the fiscal year's last day."),
    ("en", "0.07", {"effective_on": "30/11/2026"},
     "Write the date as 11/30/2026 (month, day and year), or as YYYY-MM-DD."),
])
def test_bad_input_is_explained_in_the_readers_language_and_nothing_changes(
        demo_app, lang, value, over, words):
    staff = login(demo_app, "staff")
    r = _post_value(staff, value, lang, **over)
    assert r.status_code == 400
    assert words in _text(r.get_data(as_text=True))
    assert _count(demo_app, BoardParameterValue) == 0
    assert _count(demo_app, AuditRecord, AuditRecord.action.like("board_parameter.%")) == 0


def test_only_the_administrator_records_and_every_staff_role_sees(demo_app):
    for who in ("reviewer@demo.pr", "cashier@demo.pr", "readonly@demo.pr"):
        c = login(demo_app, who)
        html = c.get(f"/personal/parametros?fy={FY}").get_data(as_text=True)
        assert "Board parameters" in _text(c.get(f"/personal/parametros?fy={FY}&lang=en")
                                           .get_data(as_text=True))
        assert "/interest_rate\"" not in html and "/closed_day\"" not in html
        token = csrf_token(c.get("/").get_data(as_text=True))
        for name in ("interest_rate", "closed_day"):
            path = f"/personal/parametros/{FY}/{name}"
            assert c.get(path).status_code == 403
            assert c.post(path, data={"csrf_token": token, "value": "0.07"}).status_code == 403
    assert _count(demo_app, BoardParameterValue) == 0
    owner = login(demo_app, "owner")
    token = csrf_token(owner.get("/").get_data(as_text=True))
    assert owner.get("/personal/parametros").status_code == 404
    assert owner.post(f"/personal/parametros/{FY}/interest_rate", data={
        "csrf_token": token, "value": "0.07"}).status_code == 404
    staff = login(demo_app, "staff")
    assert staff.get(f"/personal/parametros/{FY}/demand_payment_days").status_code == 404
    assert staff.get(f"/personal/parametros/{FY}/nope").status_code == 404
    assert staff.get("/personal/parametros/2026/interest_rate").status_code == 404


def _declare(client, lang: str = "es", **over: str):  # noqa: ANN001, ANN202
    path = f"/personal/parametros/{FY}/closed_day?lang={lang}"
    page = client.get(path).get_data(as_text=True)
    data = {"csrf_token": csrf_token(page), "first_day": "2026-12-10", "last_day": "",
            "reason_es": "Huracán Ernesto", "reason_en": "Hurricane Ernesto",
            "resolution_number": "2026-15", "resolution_date": "2026-11-29", **over}
    return client.post(path, data=data)


def test_a_declared_closed_day_moves_the_due_date_and_the_parcel_page_says_why(demo_app):
    """R-A6: the installment due 2026-12-01 is timely to the 10th; the Board closes the 10th:
    its last timely day is the 11th at once, and the owner's page says why in both
    languages."""
    owner = login(demo_app, "owner")
    pid = parcel_ids(demo_app)["owner"][0]
    before = _text(owner.get(f"/propiedad/{pid}?lang=en").get_data(as_text=True))
    assert "Hurricane Ernesto" not in before
    staff = login(demo_app, "staff")
    r = _declare(staff)
    assert r.status_code == 303, _text(r.get_data(as_text=True))[:1500]
    with demo_app.app_context(), UnitOfWork(database()) as w:
        assert date(2026, 12, 10) in rules_for(FY_START, w).closed_days
    en = _text(owner.get(f"/propiedad/{pid}?lang=en").get_data(as_text=True))
    assert ("the last timely day was extended to December 11, 2026 because the Board "
            "declared December 10, 2026 closed (Hurricane Ernesto, Resolución 2026-15)") in en
    es = _text(owner.get(f"/propiedad/{pid}?lang=es").get_data(as_text=True))
    assert "porque la Junta declaró cerrado el 10 de diciembre de 2026 (Huracán Ernesto, " \
           "Resolución 2026-15)" in es
    assert _count(demo_app, AuditRecord,
                  AuditRecord.action == "board_parameter.closed_day") == 1
    listing = _text(staff.get(f"/personal/parametros?fy={FY}&lang=es").get_data(as_text=True))
    assert "Huracán Ernesto" in listing


@pytest.mark.parametrize(("lang", "over", "words"), [
    ("es", {"reason_en": ""}, "Escriba la razón en inglés."),
    ("en", {"reason_es": ""}, "Write the reason in Spanish."),
    ("en", {"last_day": "2026-12-01"}, "The last day cannot be before the first."),
    ("es", {"last_day": "2027-02-01"}, "Declare como máximo 31 días a la vez."),
    ("en", {"first_day": "2025-10-06"}, "October 6, 2025 is already declared closed."),
])
def test_a_bad_declaration_changes_nothing(demo_app, lang, over, words):
    staff = login(demo_app, "staff")
    r = _declare(staff, lang, **over)
    assert r.status_code == 400
    assert words in _text(r.get_data(as_text=True))
    assert _count(demo_app, BoardParameterValue) == 0


def test_several_days_at_once_are_one_row_each(demo_app):
    staff = login(demo_app, "staff")
    assert _declare(staff, last_day="2026-12-12").status_code == 303
    with demo_app.app_context(), UnitOfWork(database()) as w:
        days = [c.day for c in in_force.closed_days(w)]
    assert [d for d in days if d.year == 2026] == [date(2026, 12, 10), date(2026, 12, 11),
                                                   date(2026, 12, 12)]
    assert _count(demo_app, BoardParameterValue) == 3
