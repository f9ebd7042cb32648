"""The back office's reports (portal/reports/reports.py): each report's figures
(aggregate SQL) agree with its rows (streamed) and with the facts, on SQLite and
PostgreSQL; the aging report's buckets (portal/core/aging.py) by hand."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import select

from portal import clock
from portal.accounts.errors import Forbidden
from portal.collections import demands
from portal.core import aging
from portal.models import Notice, Parcel, User
from portal.reports import reports
from tests.support.clock import TODAY, at
from tests.support.world import pay


def _run(world, name: str, **kw):  # noqa: ANN001, ANN202
    with world.uow() as w:
        staff = w.session.get(User, world.staff.id)
        p = reports.Params(today=kw.pop("today", TODAY), **kw)
        figs = {f.code: f.value for f in reports.figures(w, staff, name, p)}
        rows = list(reports.rows(w, staff, name, p))
    return figs, rows


def test_aging_buckets_by_hand():
    today = date(2026, 11, 30)
    assert aging.bucket(today, today) is None  # due today: not past due
    assert aging.bucket(date(2026, 11, 29), today) == "d0_30"  # 1 day
    assert aging.bucket(date(2026, 10, 31), today) == "d0_30"  # 30 days
    assert aging.bucket(date(2026, 10, 30), today) == "d31_90"  # 31
    assert aging.bucket(date(2026, 9, 1), today) == "d31_90"  # 90
    assert aging.bucket(date(2026, 8, 31), today) == "d91_365"  # 91
    assert aging.bucket(date(2025, 11, 30), today) == "d91_365"  # 365
    assert aging.bucket(date(2025, 11, 29), today) == "over_365"  # 366
    [w0, w1, w2, w3] = aging.windows(today)
    assert (w0.due_from, w0.due_to) == (date(2026, 10, 31), date(2026, 11, 29))
    assert (w3.due_from, w3.due_to) == (None, date(2025, 11, 29))
    assert aging.totals([(date(2026, 11, 1), Decimal("5")), (date(2026, 7, 1), Decimal("2")),
                         (date(2026, 12, 1), Decimal("9"))], today) == {
        "d0_30": Decimal("5"), "d31_90": Decimal("0.00"), "d91_365": Decimal("2"),
        "over_365": Decimal("0.00")}


def test_aging_report_totals(world):
    """The world's roll: A 1,000, B 3,000, C 6,000, D 2,000 a year in 12 installments from
    1 July. On 30 November, installments 1-2 (July, August) are 91-365 days past due, 3-4
    (September 1 is 90 days; October) 31-90, 5 (November 1, 29 days) 0-30. B paid its whole
    year in July and is not listed."""
    pay(world, "B", "3000.00", date(2026, 7, 5))
    figs, rows = _run(world, "morosidad")
    by_parcel = {r[0]: r[2:] for r in rows}
    assert set(by_parcel) == {"040-000-000-01", "040-000-000-03", "040-000-000-04"}
    assert by_parcel["040-000-000-01"] == (Decimal("83.33"), Decimal("166.68"),
                                           Decimal("166.68"), Decimal("0.00"),
                                           Decimal("416.69"))
    assert by_parcel["040-000-000-03"] == (Decimal("500.00"), Decimal("1000.00"),
                                           Decimal("1000.00"), Decimal("0.00"),
                                           Decimal("2500.00"))
    assert figs["count"] == 3
    for i, code in enumerate(aging.CODES):  # the figures are the rows' sums
        assert figs[code] == sum(r[i] for r in by_parcel.values())
    assert figs["total"] == Decimal("416.69") + Decimal("2500.00") + Decimal("833.35")
    # A partial payment: its principal goes to the oldest installment first (R-A10).
    pay(world, "A", "100.00", date(2026, 11, 30))
    _figs, rows = _run(world, "morosidad")
    a = {r[0]: r for r in rows}["040-000-000-01"]
    assert a[6] < Decimal("416.69") and a[2] == Decimal("83.33")  # the newest untouched


def test_payments_by_day_and_method(world):
    pay(world, "A", "100.00", date(2026, 11, 2), hh=23)  # 23:00 in Puerto Rico: still the 2nd
    pay(world, "B", "250.00", date(2026, 11, 2), hh=9)
    pay(world, "C", "500.00", date(2026, 11, 3))
    figs, rows = _run(world, "pagos")
    assert rows == [(date(2026, 11, 2), "card", 2, Decimal("350.00"), Decimal("0.00")),
                    (date(2026, 11, 3), "card", 1, Decimal("500.00"), Decimal("0.00"))]
    assert figs["count"] == 3 and figs["total"] == Decimal("850.00")
    assert figs["method:card:3"] == Decimal("850.00")
    figs, rows = _run(world, "pagos", start=date(2026, 11, 3), end=date(2026, 11, 3))
    assert figs["total"] == Decimal("500.00") and len(rows) == 1


def test_assessment_register(world):
    figs, rows = _run(world, "registro", fiscal_year_start=date(2026, 7, 1))
    assert figs == {"count": 4, "total": Decimal("12000.00"), "lessee": 1}
    assert [(r[0], r[3]) for r in rows] == [
        ("040-000-000-01", Decimal("1000.00")), ("040-000-000-02", Decimal("3000.00")),
        ("040-000-000-03", Decimal("6000.00")), ("040-000-000-04", Decimal("2000.00"))]
    figs, rows = _run(world, "registro", fiscal_year_start=date(2027, 7, 1))
    assert figs["count"] == 0 and rows == []


def test_demands_and_the_court_list(world):
    with clock.fixed(at(date(2026, 11, 3))), world.uow() as w:
        demands.run(w, w.session.get(User, world.staff.id))
    figs, rows = _run(world, "demandas")
    assert figs["count"] == len(rows) == 4
    assert figs["total"] == sum(r[9] for r in rows)
    assert figs["principal"] == sum(r[4] for r in rows)
    figs, rows = _run(world, "demandas", start=date(2026, 11, 4))
    assert figs["count"] == 0 and rows == []
    with world.uow() as w:
        staff = w.session.get(User, world.staff.id)
        a = w.session.scalar(select(Notice).where(Notice.parcel_id == world.parcel["A"],
                                                  Notice.kind == "demand"))
        demands.record_mailing(w, staff, a.id, date(2026, 11, 4), "9400 1000 0000 0000 0001")
    figs, rows = _run(world, "tribunal")
    assert figs["count"] == len(rows) == 1
    assert rows[0][0] == "040-000-000-01" and rows[0][3] == date(2026, 11, 20)
    assert figs["total"] == rows[0][5] > 0


def test_exemption_queue_and_safe_cells(world):
    from portal.csv_text import csv_lines
    from portal.models import ExemptionCertification
    from tests.support.world import FY_START
    with world.uow() as w:
        w.session.get(Parcel, world.parcel["C"]).municipality = "=HYPERLINK(\"x\")"
        for n, status in enumerate(("filed", "approved", "draft")):
            w.session.add(ExemptionCertification(
                parcel_id=world.parcel["C"], fiscal_year_start=FY_START, status=status,
                created_by_id=world.alice.id, filed_on=date(2026, 11, 1 + n),
                filing_number=f"EX-{n}" if status != "draft" else None))
    figs, rows = _run(world, "exoneraciones")
    assert (figs["count"], figs["filed"], figs["approved"]) == (2, 1, 1)
    assert [r[0] for r in rows] == ["EX-0", "EX-1"] and rows[0][5] == 29
    text = "".join(csv_lines(["a"] * 8, rows))
    assert "'=HYPERLINK" in text


def test_staff_only(world):
    with world.uow() as w, pytest.raises(Forbidden):
        reports.figures(w, w.session.get(User, world.alice.id), "pagos",
                        reports.Params(today=TODAY))
