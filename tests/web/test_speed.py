"""The dashboard's and the parcel page's services build no SQL statement per call (building
them cost more than running them: docs/WEB.md, "Speed"); the statements are built once
with bound parameters and reused. The benchmark (bench/web_bench.py) measures the time."""

from __future__ import annotations

from sqlalchemy.orm import util as orm_util
from sqlalchemy.sql import base, selectable

from portal import clock
from tests.web.conftest import parcel_ids


def test_hot_services_build_no_statements(demo_app, monkeypatch):
    from portal.accounts import statements
    from portal.people import users
    from portal.web.data import uow
    built = []
    init, generate = selectable.Select.__init__, base.Generative._generate
    alias_init = orm_util.AliasedClass.__init__

    def count(name, real):  # noqa: ANN001, ANN202
        def wrapper(self, *a, **k):  # noqa: ANN001, ANN002, ANN003, ANN202
            built.append(name)
            return real(self, *a, **k)
        return wrapper

    pid = parcel_ids(demo_app)["lessee"][0]
    with demo_app.app_context(), uow() as w:
        lessee = users.find_by_email(w, "lessee@demo.pr")
        statements.dashboard(w, lessee, clock.today())
        statements.statement_for(w, lessee, pid, with_payments=False, rows=True)
        monkeypatch.setattr(selectable.Select, "__init__", count("select", init))
        monkeypatch.setattr(base.Generative, "_generate", count("generate", generate))
        monkeypatch.setattr(orm_util.AliasedClass, "__init__", count("aliased", alias_init))
        statements.dashboard(w, lessee, clock.today())
        statements.statement_for(w, lessee, pid, with_payments=False, rows=True)
    assert built == [], built


def test_every_request_and_lender_services_build_no_statements(demo_app, monkeypatch):
    """`load_user` (every request), the lender's loans and portfolio: statements built once;
    the dashboard's facts are plain rows with what the core reads."""
    from portal.accounts import access, statements
    from portal.people import users
    from portal.web.data import uow
    built = []
    init, generate = selectable.Select.__init__, base.Generative._generate

    def count(name, real):  # noqa: ANN001, ANN202
        def wrapper(self, *a, **k):  # noqa: ANN001, ANN002, ANN003, ANN202
            built.append(name)
            return real(self, *a, **k)
        return wrapper

    with demo_app.app_context(), uow() as w:
        lender = users.find_by_email(w, "lender@demo.pr")
        users.load_user(w, lender.id)
        loans = access.lender_loans(w, lender)
        portfolio = statements.lender_portfolio(w, lender, clock.today())
        monkeypatch.setattr(selectable.Select, "__init__", count("select", init))
        monkeypatch.setattr(base.Generative, "_generate", count("generate", generate))
        again = users.load_user(w, lender.id)
        assert again is lender and again.is_lender
        assert access.lender_loans(w, lender) == loans
        assert [(s.parcel.id, s.status, s.due_now, s.loan) for s in
                statements.lender_portfolio(w, lender, clock.today()).summaries] == \
            [(s.parcel.id, s.status, s.due_now, s.loan) for s in portfolio.summaries]
    assert built == [], built
    assert len(loans.loans) == loans.total == 50


def test_dashboard_rows_match_orm_facts(demo_app):
    """The read-only row facts (`rows=True`) give the same statements as the ORM objects."""
    from portal.accounts import access, facts
    from portal.people import users
    from portal.web.data import uow
    with demo_app.app_context(), uow() as w:
        lender = users.find_by_email(w, "lender@demo.pr")
        ids = [p.id for _, p in access.lender_loans(w, lender).loans]
        ids += parcel_ids(demo_app)["owner"]
        fy = facts.fiscal_year_on(w, clock.today())
        orm, rows = facts.load_many(w, ids, fy), facts.load_many(w, ids, fy, rows=True)
        for pid in ids:
            assert orm[pid].evaluate(clock.today()) == rows[pid].evaluate(clock.today()), pid
