"""R-B10 (iii), R-B21 in the lender's portfolio (J7): each loan's latest acquisition of a new
structure with its 30-day notice deadline (rolled by the core), in words; the filter "due
within N days / overdue" in SQL, the same as the core's answer, a Board's closed day
included; the sort; the CSV's columns through `safe_cell`; another lender's acquisitions never
seen. The clock is the test's: 30 November 2026 (the demo's day) unless a test moves it."""

from __future__ import annotations

import csv
import re
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from portal import clock
from portal.db import UnitOfWork
from portal.lenders import acquisitions, portfolio
from portal.models import Loan
from portal.people import users
from tests.support.clock import TODAY
from tests.support.demo import add_loans
from tests.support.html import vnu_errors, vnu_missing
from tests.support.lenders import page_statements
from tests.support.pages import login

#: Acquired 27 October: + 30 days is Thanksgiving (26 November), rolled to Friday the 27th;
#: on the 30th, overdue 3 days. Acquired 20 November: + 30 is Sunday 20 December, rolled to
#: Monday the 21st; on the 30th, 21 days left.
OVERDUE, IN_TIME = date(2026, 10, 27), date(2026, 11, 20)
#: One deed date a loan for the demo bank's 50 loans, 1 October to 30 November.
SPREAD = [date(2026, 10, 1) + timedelta(days=round(k * 60 / 49)) for k in range(50)]


def _db(app):  # noqa: ANN001, ANN202
    from portal.web.data import database
    with app.app_context():
        return database()


def _numbers(app) -> list[str]:  # noqa: ANN001
    with UnitOfWork(_db(app)) as w:
        return list(w.session.scalars(select(Loan.loan_number).order_by(Loan.loan_number)))


def _report(app, reported: list[tuple[str, date]], email: str = "lender@demo.pr"  # noqa: ANN001
            ) -> None:
    """Each (loan number, deed date) reported by the lender's user, on the loan page's path."""
    with clock.fixed(TODAY), UnitOfWork(_db(app)) as w:
        user = users.find_by_email(w, email)
        for number, day in reported:
            acquisitions.report(w, user, number, acquired_on=day)


def _row(html: str, number: str) -> str:
    """The table row of loan `number`."""
    [row] = [r for r in html.split("<tr>") if f">{number}</a></th>" in r]
    return row.split("</tr>")[0]


def _count(html: str) -> int:
    m = re.search(r"(\d+) (?:préstamos?|loans?)\b", html)
    return int(m.group(1)) if m else 0


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ("Último día para notificar al CRIM", "hace 3 días", "vencido", "quedan 21 días",
            "a tiempo")),
    ("en", ("Last day to notify the CRIM", "3 days ago", "overdue", "21 days left",
            "in time"))])
def test_the_portfolio_shows_the_notice_deadline_in_words(demo_app, lang, words):
    label, ago, overdue, left, in_time = words
    first, second, third = _numbers(demo_app)[:3]
    # the second loan also has an older acquisition: the latest is shown
    _report(demo_app, [(first, OVERDUE), (second, date(2026, 6, 1)), (second, IN_TIME)])
    with clock.fixed(TODAY):
        html = login(demo_app, "lender").get(f"/prestamista/prestamos?lang={lang}"
                                             ).get_data(as_text=True)
    row = _row(html, first)
    assert f'data-label="{label}"' in row  # the stacked row's label at 375 px
    assert '<time datetime="2026-11-27">' in row and f"({ago})" in row
    assert f">{overdue}</span>" in row  # said in words, not by colour only
    row = _row(html, second)
    assert '<time datetime="2026-12-21">' in row and f"({left})" in row
    assert f">{in_time}</span>" in row and "2026-07-01" not in row
    assert re.search(rf'data-label="{label}">—</td>', _row(html, third))
    assert f">{label}" in html.split("<tbody>")[0]  # the column's header


def test_the_filter_selects_overdue_and_due_within_n_days(demo_app):
    first, second = _numbers(demo_app)[:2]
    _report(demo_app, [(first, OVERDUE), (second, IN_TIME)])

    def found(query: str) -> tuple[int, str]:  # signed in on the clock's day
        r = login(demo_app, "lender").get(f"/prestamista/prestamos?{query}")
        assert r.status_code == 200, query
        html = r.get_data(as_text=True)
        return _count(html), html
    with clock.fixed(TODAY):
        n, html = found("adquisicion=overdue")
        assert n == 1 and _row(html, first)
        n, html = found("adquisicion=30")  # the 21st: within 30 days, not within 7
        assert n == 1 and _row(html, second)
        n, html = found("adquisicion=7")
        assert n == 0 and "No loan matches these filters." in found("adquisicion=7&lang=en")[1]
        assert found("adquisicion=reported")[0] == 2
        assert found("")[0] == 50
        client = login(demo_app, "lender")
        for bad in ("5", "tarde", "-1"):
            r = client.get(f"/prestamista/prestamos?adquisicion={bad}")
            assert r.status_code == 400 and "Traceback" not in r.get_data(as_text=True)
    with clock.fixed(date(2026, 12, 15)):  # six days before the 21st
        n, html = found("adquisicion=7")
        assert n == 1 and "(quedan 6 días)" in _row(html, second)
    with clock.fixed(date(2026, 12, 21)):  # the last day itself: due today, not overdue
        n, html = found("adquisicion=7")
        assert n == 1 and "(hoy)" in _row(html, second)
        assert found("adquisicion=overdue")[0] == 1
    with clock.fixed(date(2026, 12, 22)):
        assert found("adquisicion=overdue")[0] == 2 and found("adquisicion=30")[0] == 0


def test_the_filter_and_the_sort_are_the_cores_answer(demo_app):
    """One acquisition a loan, on 50 days from 1 October to 30 November (weekends, the
    holidays, a day the Board closes): on each day looked at, the loans SQL selects as overdue
    or due within 7 or 30 days are those the core's deadline says, and the sort by the last
    day is in the core's order."""
    numbers = _numbers(demo_app)
    days = SPREAD
    _report(demo_app, list(zip(numbers, days, strict=True)))
    with clock.fixed(TODAY), UnitOfWork(_db(demo_app)) as w:  # the last day of 14 November
        from portal.roll import board_parameters
        board_parameters.declare_closed(w, users.find_by_email(w, "staff@demo.pr"),
                                        date(2026, 12, 14), None, "Cierre", "Closed", "2026-20",
                                        date(2026, 11, 29))
    for today in (TODAY, date(2026, 12, 7), date(2026, 12, 14), date(2026, 12, 28)):
        with clock.fixed(today), UnitOfWork(_db(demo_app)) as w:
            user = users.find_by_email(w, "lender@demo.pr")
            notice = {n: acquisitions.deadline(w, d, today)
                      for n, d in zip(numbers, days, strict=True)}
            assert date(2026, 12, 14) not in {x.last_day for x in notice.values()}

            def selected(w=w, user=user, **query: object) -> list[str]:  # noqa: ANN001
                return [r.loan_number for r in portfolio.rows(w, user, portfolio.Query(**query))]
            assert selected(notice="overdue") == [n for n in numbers if notice[n].overdue]
            for within in (7, 30):
                assert selected(notice_within=within) == [
                    n for n in numbers
                    if 0 <= notice[n].days_left <= within], (today, within)
            rows = list(portfolio.rows(w, user, portfolio.Query(sort="notice")))
            assert [r.notice for r in rows] == [notice[r.loan_number] for r in rows]
            last = [r.notice.last_day for r in rows]
            assert last == sorted(last)
            page = portfolio.portfolio(w, user, portfolio.Query(sort="notice", desc=True))
            assert [r.notice.last_day for r in page.rows] == sorted(last, reverse=True)
            assert page.count == 50


def test_loans_without_an_acquisition_sort_last_either_way(demo_app):
    numbers = _numbers(demo_app)
    _report(demo_app, [(numbers[10], OVERDUE), (numbers[20], IN_TIME)])
    client = login(demo_app, "lender")
    with clock.fixed(TODAY):
        for order, expect in (("asc", [numbers[10], numbers[20]]),
                              ("desc", [numbers[20], numbers[10]])):
            html = client.get(f"/prestamista/prestamos?orden=notice&dir={order}"
                              ).get_data(as_text=True)
            shown = re.findall(r'<th scope="row"[^>]*><a [^>]*>([^<]+)</a></th>', html)
            assert shown[:2] == expect and shown[2:] == sorted(shown[2:])
            assert 'aria-sort="' + ("ascending" if order == "asc" else "descending") in html


def test_the_export_has_the_notice_columns(demo_app, monkeypatch):
    first, second = _numbers(demo_app)[:2]
    _report(demo_app, [(first, OVERDUE), (second, IN_TIME)])
    client = login(demo_app, "lender")
    with clock.fixed(TODAY):
        text = client.get("/prestamista/prestamos.csv").get_data(as_text=True)
        rows = list(csv.reader(text.lstrip("\ufeff").splitlines()))
        assert rows[0][-4:] == ["Adquirida el", "Último día para notificar al CRIM",
                                "Días para notificar al CRIM", "Notificación al CRIM"]
        mine = {r[0]: r[-4:] for r in rows[1:]}
        assert mine[first] == ["2026-10-27", "2026-11-27", "hace 3 días", "vencido"]
        assert mine[second] == ["2026-11-20", "2026-12-21", "quedan 21 días", "a tiempo"]
        assert sum(1 for v in mine.values() if v == ["", "", "", ""]) == 48
        english = client.get("/prestamista/prestamos.csv?adquisicion=overdue&lang=en"
                             ).get_data(as_text=True).lstrip("\ufeff").splitlines()
        assert len(english) == 2
        assert english[1].endswith(",2026-10-27,2026-11-27,3 days ago,overdue")
        # every cell goes through safe_cell: a days-left text that looked like a formula
        from portal.web.lenders import loans
        monkeypatch.setattr(loans, "days_left", lambda day, on: f"-{(on - day).days}")
        text = client.get("/prestamista/prestamos.csv?adquisicion=overdue"
                          ).get_data(as_text=True)
        assert list(csv.reader(text.lstrip("\ufeff").splitlines()))[1][-2] == "'-3"



def test_one_payment_for_the_loans_the_notice_filter_selects(demo_app):
    """The acquisition filter rides along to "pay what is due now on these loans"."""
    numbers = _numbers(demo_app)
    _report(demo_app, [(n, OVERDUE) for n in numbers[:20]] + [(numbers[20], IN_TIME)])
    with clock.fixed(TODAY), UnitOfWork(_db(demo_app)) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        overdue = {r.parcel_id: r.due_now for r in portfolio.rows(
            w, user, portfolio.Query(notice="overdue"))}
        ids, total = portfolio.parcels_to_pay(w, user, portfolio.Query(notice="overdue"))
    assert len(overdue) == 20 and ids  # some of them owe something now
    assert sorted(ids) == sorted(p for p, due in overdue.items() if due > 0) and total == len(ids)

def _other_lender(app) -> str:  # noqa: ANN001
    """A second bank with a loan ("OT-1") on the parcel of the demo bank's first loan, and
    its clerk (user00001@demo.pr); the clerk's email."""
    from tests.support.lenders import other_lender as other_bank
    with UnitOfWork(_db(app)) as w:
        return other_bank(w)[1].email


def test_a_lender_never_sees_another_lenders_acquisitions(demo_app):
    """The other bank's acquisition on its loan of the same parcel is not the demo bank's,
    and the demo bank's is not the other's: on the page, in the filter and in the CSV."""
    first, second = _numbers(demo_app)[:2]
    clerk = _other_lender(demo_app)
    _report(demo_app, [("OT-1", IN_TIME)], email=clerk)
    _report(demo_app, [(second, OVERDUE)])
    bank, other = login(demo_app, "lender"), login(demo_app, clerk)
    with clock.fixed(TODAY):
        html = bank.get("/prestamista/prestamos").get_data(as_text=True)
        assert "OT-1" not in html and re.search(r">—</td>\s*$", _row(html, first))
        assert '<time datetime="2026-12-21">' not in html
        assert _count(bank.get("/prestamista/prestamos?adquisicion=reported")
                      .get_data(as_text=True)) == 1
        assert "2026-12-21" not in bank.get("/prestamista/prestamos.csv").get_data(as_text=True)
        html = other.get("/prestamista/prestamos?adquisicion=reported").get_data(as_text=True)
        assert _count(html) == 1 and '<time datetime="2026-12-21">' in _row(html, "OT-1")
        csv_text = other.get("/prestamista/prestamos.csv").get_data(as_text=True)
        assert "2026-11-27" not in csv_text and first not in csv_text
        assert "2026-12-21" in csv_text


def test_the_notices_cost_no_statement_per_row(demo_app):
    """A page with acquisitions on many of its loans costs what a page with one costs: the
    dates come with the page's rows, the deadlines from the core."""
    add_loans(demo_app, 75)
    numbers = _numbers(demo_app)
    _report(demo_app, [(n, IN_TIME) for n in numbers[:30]] + [(numbers[-1], OVERDUE)])
    client = login(demo_app, "lender")
    with clock.fixed(TODAY):
        client.get("/prestamista/prestamos")  # the figures of the day
        first, html = page_statements(demo_app, client, "/prestamista/prestamos")
        last, html3 = page_statements(demo_app, client, "/prestamista/prestamos?page=3")
        assert html.count('<time datetime="2026-12-21">') == 30
        assert html3.count('<time datetime="2026-11-27">') == 1
        assert first == last
        filtered, html = page_statements(demo_app, client,
                                     "/prestamista/prestamos?adquisicion=30&orden=notice")
        # A filtered page sums its loans in one statement more than the first page, which
        # reads its lender's kept totals (portfolio._kept).
        assert filtered <= first + 1 and _count(html) == 30


@pytest.mark.skipif(vnu_missing() is not None, reason=vnu_missing() or "")
def test_the_portfolio_with_acquisitions_is_valid_html(demo_app, tmp_path):
    first, second = _numbers(demo_app)[:2]
    _report(demo_app, [(first, OVERDUE), (second, IN_TIME)])
    client = login(demo_app, "lender")
    files = []
    with clock.fixed(TODAY):
        for n, path in enumerate(("/prestamista/prestamos",
                                  "/prestamista/prestamos?adquisicion=overdue&lang=en",
                                  "/prestamista/prestamos?adquisicion=5")):
            f = tmp_path / f"acq-{n}.html"
            f.write_text(client.get(path).get_data(as_text=True), encoding="utf-8")
            files.append(f)
    assert vnu_errors(files) == []


def _answers(app) -> dict:  # noqa: ANN001
    """The acquisition filters' and sorts' loans, with one acquisition a loan on 50 days."""
    numbers = _numbers(app)
    days = SPREAD
    _report(app, list(zip(numbers, days, strict=True)))
    out: dict = {}
    for today in (TODAY, date(2026, 12, 14)):
        with clock.fixed(today), UnitOfWork(_db(app)) as w:
            user = users.find_by_email(w, "lender@demo.pr")
            for name, query in (("overdue", {"notice": "overdue"}), ("7", {"notice_within": 7}),
                                ("30", {"notice_within": 30}),
                                ("asc", {"sort": "notice"}),
                                ("desc", {"sort": "notice", "desc": True})):
                out[(today, name)] = [(r.loan_number, r.notice) for r in portfolio.rows(
                    w, user, portfolio.Query(**query))]
    return out


@pytest.mark.postgres
def test_the_acquisition_filters_on_postgresql_match_sqlite(tmp_path, demo_app):
    from tests.support.app import demo_on_postgresql
    on_sqlite = _answers(demo_app)
    assert on_sqlite[(TODAY, "overdue")] and on_sqlite[(TODAY, "30")]
    with demo_on_postgresql(tmp_path) as (app, _result):
        on_pg = _answers(app)
    assert on_pg == on_sqlite
