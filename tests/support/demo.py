"""The demo District (portal.demo.district) in the tests: loading it, reading it through the
app, and adding to it what a test needs (more loans, a second bank, a filed certification)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import select

from portal import clock
from portal.db import Database, UnitOfWork

from .clock import TODAY
from .pages import ROLES
from .schema import copy_of


def load(template: Path, folder: Path) -> tuple[Path, Any]:
    """A copy of the schema template in `folder` with the demo District loaded on its day
    (the session fixture `demo_db` holds it): (the SQLite file, the demo's result)."""
    from portal.demo import district
    path = copy_of(template, folder, "demo.db")
    database = Database(f"sqlite:///{path}")
    with clock.fixed(TODAY):
        result = district.load(database, users_n=len(district.SIGN_INS) + 2)
    database.dispose()
    return path, result


@contextmanager
def app_uow(app: Flask) -> Iterator[UnitOfWork]:
    """A unit of work on the app's database, inside the app's context (committed at the end
    of the `with`, as the services' units of work are)."""
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        yield w


def parcel_ids(app: Flask) -> dict[str, list[int]]:
    """{role: the parcel ids on that role's dashboard} (read through the services)."""
    from portal.accounts import access
    from portal.people import users
    out: dict[str, list[int]] = {}
    with app_uow(app) as w:
        for role, email_addr in ROLES.items():
            user = users.find_by_email(w, email_addr)
            out[role] = [p.id for p, _rel in access.linked_parcels(w, user)]
    return out


def home_parcel(app: Flask) -> int:
    """The demo owner's parcel that secures the demo bank's loan (the home, J5/J6)."""
    from portal.models import Loan
    mine = set(parcel_ids(app)["owner"])
    with app_uow(app) as w:
        lent = set(w.session.scalars(select(Loan.parcel_id)))
    [home] = sorted(mine & lent)
    return home


def add_loans(app: Flask, n: int) -> None:
    """`n` more active loans of the demo bank, on parcels it holds no loan on (in turn, when
    there are fewer such parcels than loans: a parcel may carry several loans)."""
    from portal.models import Loan, Parcel
    with app_uow(app) as w:
        s = w.session
        lender_id = s.scalar(select(Loan.lender_id).limit(1))
        taken = set(s.scalars(select(Loan.parcel_id)))
        free = [pid for pid in s.scalars(select(Parcel.id).order_by(Parcel.id))
                if pid not in taken]
        s.add_all(Loan(lender_id=lender_id, parcel_id=free[k % len(free)],
                       loan_number=f"ZZ-{k:04d}", starts_on=date(2024, 1, 1)) for k in range(n))


def filed_exemption(app: Flask, parcel_id: int) -> int:
    """The demo owner's residential-exemption certification of `parcel_id`, filed (J5)."""
    from portal.exemptions import filings
    from portal.people import users
    with app_uow(app) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        cert = filings.start(w, owner, parcel_id)
        party = filings.owners_on_record(w, parcel_id, cert.fiscal_year_start)[0][0]
        facts = filings.facts_service.facts_for(w, parcel_id, cert.fiscal_year_start)
        for step, data in (("owners", {"owners": [party]}),
                           ("occupants", {"occupants": "María Rivera Ortiz (dueña)"}),
                           ("use", {"use": "home"}),
                           ("rent", {"rent": "no"}), ("residential", {"residential": "all"}),
                           ("veteran", {"veteran": "no"}), ("cooperative", {"cooperative": "no"}),
                           ("debt", {"plan": "pay_in_full"})):
            if step in filings.steps_for(cert.answers or {}, facts):  # R-B11: debt only if owed
                filings.save_step(w, owner, cert.id, step, data)
        filings.file(w, owner, cert.id, attested=True, full_name="María Rivera Ortiz")
        return cert.id
