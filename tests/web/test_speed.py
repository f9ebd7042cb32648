"""The dashboard's and the parcel page's services build no SQL statement per call (building
them cost more than running them: docs/WEB.md, "Speed"); the statements are built once
with bound parameters and reused. The benchmark (bench/web_bench.py) measures the time.

Seen through SQLAlchemy's public events only (tests.support.sql.StatementsExecuted): every
statement object a second call executes is one the first call executed already, the same
object; a statement built per call would be a new one."""

from __future__ import annotations

from portal import clock
from tests.support.demo import parcel_ids
from tests.support.sql import StatementsExecuted


def test_hot_services_build_no_statements(demo_app):
    from portal.accounts import statements
    from portal.people import users
    from portal.web.data import database, uow
    pid = parcel_ids(demo_app)["lessee"][0]
    with demo_app.app_context(), uow() as w:
        engine = database().engine
        lessee = users.find_by_email(w, "lessee@demo.pr")
        with StatementsExecuted(engine) as first:
            statements.dashboard(w, lessee, clock.today())
            statements.statement_for(w, lessee, pid, with_payments=False, rows=True)
        with StatementsExecuted(engine) as again:
            statements.dashboard(w, lessee, clock.today())
            statements.statement_for(w, lessee, pid, with_payments=False, rows=True)
    assert again.statements, "the services read the database"
    assert again.new_since(first) == [], [str(s) for s in again.new_since(first)]


def test_every_request_and_lender_services_build_no_statements(demo_app):
    """`load_user` (every request), the lender's loans and portfolio: statements built once;
    the dashboard's facts are plain rows with what the core reads."""
    from portal.accounts import access, statements
    from portal.people import users
    from portal.web.data import database, uow
    with demo_app.app_context(), uow() as w:
        engine = database().engine
        lender = users.find_by_email(w, "lender@demo.pr")
        with StatementsExecuted(engine) as first:
            users.load_user(w, lender.id)
            loans = access.lender_loans(w, lender)
            portfolio = statements.lender_portfolio(w, lender, clock.today())
        with StatementsExecuted(engine) as again:
            again_user = users.load_user(w, lender.id)
            assert again_user is lender and again_user.is_lender
            assert access.lender_loans(w, lender) == loans
            assert [(s.parcel.id, s.status, s.due_now, s.loan) for s in
                    statements.lender_portfolio(w, lender, clock.today()).summaries] == \
                [(s.parcel.id, s.status, s.due_now, s.loan) for s in portfolio.summaries]
    assert again.new_since(first) == [], [str(s) for s in again.new_since(first)]
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
