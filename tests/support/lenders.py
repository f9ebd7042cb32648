"""The lenders' side of the demo District in the tests: other banks, API tokens, more homes
with loans, the batch file's rows and CSV, the statements a lender's page runs."""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from decimal import Decimal
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from portal import clock
from portal.db import UnitOfWork

from .demo import app_uow
from .pages import csrf_token
from .sql import QueryCounter


def new_token(client: FlaskClient, name: str = "Escrow", scope: str = "read",
              days: str = "90") -> str:
    """A new API token of the signed-in lender administrator's organisation (shown once)."""
    page = client.get("/prestamista/organizacion").get_data(as_text=True)
    r = client.post("/prestamista/organizacion/tokens", data={
        "csrf_token": csrf_token(page), "name": name, "scope": scope, "days": days})
    assert r.status_code == 200, r.status_code
    return re.search(r'id="new-token"[^>]* value="([^"]+)"', r.get_data(as_text=True)).group(1)


def second_lender(w: UnitOfWork, email: str = "user00001@demo.pr", *,  # noqa: ANN201
                  enrol: bool = True):
    """Lender B ("Banco B"), administered by the demo user `email`: (the lender, the user).
    The administrator uses two-step verification unless `enrol` is false."""
    from portal.models import Lender, Party, PartyMember, User
    s = w.session
    other = s.scalar(select(User).where(User.email == email))
    party = Party(kind="organisation", name="Banco B")
    s.add(party)
    s.flush()
    b = Lender(party_id=party.id, code="BBB")
    s.add(b)
    s.flush()
    s.add(PartyMember(party_id=party.id, user_id=other.id, role="administrator"))
    if enrol:
        two_steps(w, other)
    return b, other


def two_steps(w: UnitOfWork, user: Any) -> None:
    """A lender's administrator uses two-step verification: `user` enrolled with
    the demo's secret, as `pages.login` answers the second step."""
    from portal.demo.district import STAFF_TOTP_SECRET
    from portal.people import two_factor
    if not two_factor.is_enrolled(user):
        two_factor.enrol_with_secret(w, user, STAFF_TOTP_SECRET)


def other_lender(w: UnitOfWork):  # noqa: ANN201
    """A second bank with one loan (on the demo's first loan's parcel) and one clerk
    (user00001@demo.pr): (the lender, the clerk)."""
    from portal.models import Lender, Loan, Party, PartyMember
    from portal.people import users
    party = Party(kind="organisation", name="Banco Otro")
    w.session.add(party)
    w.session.flush()
    lender = Lender(party_id=party.id, code="OTRO")
    w.session.add(lender)
    w.session.flush()
    clerk = users.find_by_email(w, "user00001@demo.pr")
    w.session.add(PartyMember(party_id=party.id, user_id=clerk.id, role="employee"))
    first = w.session.scalars(select(Loan).order_by(Loan.loan_number)).first()
    w.session.add(Loan(lender_id=lender.id, parcel_id=first.parcel_id,
                       loan_number="OT-1", starts_on=date(2020, 1, 1)))
    w.session.flush()
    return lender, clerk


def loan_with_facts(app: Flask) -> tuple[int, int, Any]:
    """(loan id, parcel id, the core's retention) of a demo loan whose parcel has the CRIM's
    facts for the year."""
    from portal.core.lender import retention
    from portal.exemptions.filings import exemption_input
    from portal.models import Loan, PropertyTaxFact
    with app_uow(app) as w:
        row = w.session.execute(
            select(Loan.id, Loan.parcel_id, PropertyTaxFact)
            .join(PropertyTaxFact, PropertyTaxFact.parcel_id == Loan.parcel_id)
            .order_by(Loan.loan_number).limit(1)).first()
        assert row is not None, "a demo loan's parcel has property-tax facts"
        return row[0], row[1], retention(exemption_input({}, row[2]), row[2].fiscal_year_start)


def page_statements(app: Flask, client: FlaskClient, path: str) -> tuple[int, str]:
    """(the number of SQL statements the page ran, its HTML); the page must answer 200."""
    from portal.web.data import database
    with app.app_context():
        engine = database().engine
    with QueryCounter(engine) as q:
        r = client.get(path)
    assert r.status_code == 200, (path, r.status_code)
    return q.count, r.get_data(as_text=True)


# --- the batch file (J7: many certifications in one upload) --------------------------------

def batch_csv(rows: list[dict[str, str]], *, lang: str = "es", delimiter: str = ",",
              encoding: str = "utf-8", bom: bool = False, newline: str = "\r\n") -> bytes:
    """The rows as the batch template's CSV, with its headers in `lang`."""
    from portal.lenders.batches import COLUMNS, HEADERS
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator=newline)
    w.writerow([HEADERS[lang][c] for c in COLUMNS])
    for r in rows:
        w.writerow([r.get(c, "") for c in COLUMNS])
    data = buf.getvalue().encode(encoding)
    return (b"\xef\xbb\xbf" + data) if bom else data


def batch_rows(app: Flask, n: int) -> list[dict[str, str]]:
    """Rows for `n` of the demo bank's loans, as its officer would fill them in: the
    parcel's owners on record, the open fiscal year, a residence, attested. A loan whose
    parcel owes property tax recorded on it (the demo's home: R-B11, a plan the owner files
    herself) is left out: its row would be refused."""
    from portal.exemptions import filings
    from portal.lenders import batches
    from portal.models import Lender, Loan, OwnershipShare, Parcel, Party, TaxDebt
    fy = filings.certification_year(clock.today())
    with app_uow(app) as w:
        s = w.session
        bank = s.scalar(select(Lender.id).order_by(Lender.id).limit(1))
        owing = select(TaxDebt.parcel_id).where(TaxDebt.paid_on.is_(None))
        loans = s.execute(select(Loan.loan_number, Parcel.id, Parcel.catastro)
                          .join(Parcel, Parcel.id == Loan.parcel_id)
                          .where(Loan.lender_id == bank, Parcel.id.not_in(owing))
                          .order_by(Loan.loan_number).limit(n)).all()
        out = []
        for number, pid, catastro in loans:
            names = s.scalars(select(Party.name).join(
                OwnershipShare, OwnershipShare.party_id == Party.id)
                .where(OwnershipShare.parcel_id == pid, Party.kind == "person")
                .order_by(Party.name)).all()
            row = dict.fromkeys(batches.COLUMNS, "")
            row.update(loan_number=number, catastro=catastro,
                       fiscal_year=batches.fiscal_year_label(fy),
                       delivery_date=clock.today().isoformat(),
                       owners=" | ".join(names), residential_use="yes", rent="no",
                       officer_name="Ana Rivera Soto", officer_attests="yes")
            out.append(row)
    return out


def add_homes(app: Flask, n: int, prefix: str = "090") -> list[dict[str, str]]:
    """`n` more loans of the demo bank, each on a new home with one owner (a person) and the
    CRIM's facts of the open year, written in bulk; a row for each, as its officer fills it."""
    from portal.accounts import bulk
    from portal.exemptions import filings
    from portal.models import Lender, Loan, OwnershipShare, Parcel, Party, PropertyTaxFact
    fy = filings.certification_year(clock.today())
    catastros = [f"{prefix}-{k // 1000:03d}-{k % 1000:03d}-00" for k in range(n)]
    with app_uow(app) as w:
        bank = w.session.scalar(select(Lender.id).order_by(Lender.id).limit(1))
        pids = bulk.insert_rows(w, Parcel, [
            {"catastro": c, "address": f"Calle Luna {k}", "municipality": "San Juan",
             "zone": "urban", "land_area_cuerdas": Decimal("0.250000"),
             "land_valuation": Decimal("6000.00"), "structure_valuation": Decimal("14000.00"),
             "owner_kind": "private", "transferred": False, "tax_incentive_exempt": False,
             "benefit_units": Decimal("1.0000")} for k, c in enumerate(catastros)],
            return_ids=True)
        owners = bulk.insert_rows(w, Party, [
            {"kind": "person", "name": f"Dueña Peñuelas {prefix}-{k:04d}", "language": "es"}
            for k in range(n)], return_ids=True)
        bulk.insert_rows(w, OwnershipShare, [
            {"parcel_id": p, "party_id": o, "share": Decimal(1), "kind": "sole",
             "starts_on": date(2015, 1, 1)} for p, o in zip(pids, owners, strict=True)])
        bulk.insert_rows(w, PropertyTaxFact, [
            {"parcel_id": p, "fiscal_year_start": fy, "municipality": "San Juan",
             "zone": "urban", "land_area_cuerdas": Decimal("0.250000"),
             "land_valuation": Decimal("6000.00"), "structure_valuation": Decimal("14000.00"),
             "debt_on_january_1": Decimal(0), "illustrative": True, "source": "test"}
            for p in pids])
        bulk.insert_rows(w, Loan, [
            {"lender_id": bank, "parcel_id": p, "loan_number": f"L-{prefix}-{k:04d}",
             "starts_on": date(2020, 1, 1)} for k, p in enumerate(pids)])
    return [{"loan_number": f"L-{prefix}-{k:04d}", "catastro": c,
             "fiscal_year": f"{fy.year}-{fy.year + 1}",
             "delivery_date": clock.today().isoformat(),
             "owners": f"Dueña Peñuelas {prefix}-{k:04d}", "residential_use": "sí", "rent": "no",
             "veteran_amount": "0", "officer_name": "María Ortiz Colón",
             "officer_attests": "sí"} for k, c in enumerate(catastros)]
