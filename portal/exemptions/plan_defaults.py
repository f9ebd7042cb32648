"""R-B16: a payment plan's default told (docs/EXEMPTION.md, "A default told").

A daily task (`portal.jobs.daily`, registered by `portal/domains.py`): run for day D, it asks
the core (`plans.plan_state` on D) about each approved plan not yet found in default; a plan
in default gets a `plan_defaults` row and, in the same transaction, an email to its filer
in the filer's language (what falls due and what follows). Idempotent: the row is unique
per certification, so a second run, another worker or `portal daily --on` finds it and
sends nothing twice. The plans are read in pages of `PAGE` ids, committed after each page:
memory does not grow with their number.

Staff list the rows (`listing`), with each plan's state today: a payment the CRIM reports
later, dated on time, can bring a plan back (the row and the email stay, as facts of the
day).
"""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from portal import mail
from portal.accounts import access
from portal.accounts.errors import InvalidInput, NotFound
from portal.config import mail_settings
from portal.core.params import fiscal_year_label
from portal.db import Database, UnitOfWork
from portal.exemptions import filings, plans
from portal.models import ExemptionCertification, Parcel, PlanDefault

log = logging.getLogger(__name__)

NAME = "exemptions.plan_defaults"
TEMPLATE = "plan_default"
PAGE = 200


def _approved_plans(uow: UnitOfWork, after: int) -> list[int]:
    c = ExemptionCertification
    return list(uow.session.scalars(
        select(c.id).outerjoin(PlanDefault, PlanDefault.certification_id == c.id)
        .where(c.status == "approved", c.plan_payments.is_not(None), c.id > after,
               PlanDefault.id.is_(None))
        .order_by(c.id).limit(PAGE)))


def find(database: Database, day: date, config: Any = None) -> dict[str, int]:
    """The plans in default on `day` recorded and their owners emailed (the daily task)."""
    config = config or mail_settings()
    base = str(config.get("PORTAL_BASE_URL") or "").rstrip("/")
    seen = found = told = skipped = 0
    last = 0
    while True:
        with UnitOfWork(database) as uow:
            ids = _approved_plans(uow, last)
            for cert_id in ids:
                seen += 1
                cert = uow.session.get(ExemptionCertification, cert_id)
                try:
                    state = plans.plan_state(uow, cert, filings.figures(uow, cert), day)
                except (InvalidInput, NotFound):  # its figures cannot be computed: the others go on
                    log.warning("plan of certification %s: no figures on %s", cert_id, day)
                    skipped += 1
                    continue
                if state is None or state.state != "defaulted":
                    continue
                to = filings.filer_contact(uow, cert)
                row = PlanDefault(certification_id=cert.id, defaulted_on=state.defaulted_on,
                                  missed=state.missed, due_now=state.due_now, found_on=day,
                                  owner_told=to is not None)
                try:
                    with uow.session.begin_nested():
                        uow.session.add(row)
                        uow.session.flush()
                        if to is not None:
                            parcel = uow.session.get(Parcel, cert.parcel_id)
                            mail.send(uow, to[0], TEMPLATE, to[1], config=config,
                                      number=cert.filing_number, catastro=parcel.catastro,
                                      fiscal_year=fiscal_year_label(cert.fiscal_year_start),
                                      missed=state.missed, defaulted_on=state.defaulted_on,
                                      balance=state.balance, due_now=state.due_now,
                                      link=f"{base}/exoneracion/{cert.id}/recibo")
                except IntegrityError:  # another worker found it at the same moment
                    continue
                found += 1
                told += to is not None
        if len(ids) < PAGE:
            break
        last = ids[-1]
    return {"plans": seen, "defaults": found, "emailed": told, "skipped": skipped}


def listing(uow: UnitOfWork, staff: Any, *, offset: int = 0, limit: int = 50
            ) -> tuple[list[tuple[PlanDefault, str, str]], int]:
    """The defaults found, the latest first: (row, filing number, catastro), and the count."""
    access.require_staff(staff)
    c = ExemptionCertification
    rows = uow.session.execute(
        select(PlanDefault, c.filing_number, Parcel.catastro)
        .join(c, c.id == PlanDefault.certification_id).join(Parcel, Parcel.id == c.parcel_id)
        .order_by(PlanDefault.defaulted_on.desc(), PlanDefault.id.desc())
        .offset(offset).limit(limit)).all()
    count = uow.session.scalar(select(func.count()).select_from(PlanDefault)) or 0
    return [tuple(r) for r in rows], count


def of(uow: UnitOfWork, cert_id: int) -> PlanDefault | None:
    """The default found for a certification's plan, if any (the caller read it)."""
    return uow.session.scalar(select(PlanDefault).where(
        PlanDefault.certification_id == cert_id))
