"""R-B16: a payment plan's default told (docs/EXEMPTION.md, "A default told").

A daily task (`portal.jobs.daily`, registered by `portal/domains.py`): run for day D, it asks
the core (`plans.plan_state` on D) about each approved plan not yet found in default; a plan
in default gets a `plan_defaults` row and, in the same transaction, an email to its filer
in the filer's language (what falls due and what follows), and one to each user of the
lender of the loan the certification was filed for (else of each lender with a loan in
force on the parcel that day, as `review.tell_lenders` chooses), each in the user's own
language (`plan_default_lender`, through the outbox): the bank that pays from escrow or
holds the mortgage learns that the whole balance is due and the CRIM may attach the
property. Idempotent: the row is unique
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
from portal.models import (
    ExemptionCertification,
    Lender,
    Loan,
    Parcel,
    PartyMember,
    PlanDefault,
    User,
)

log = logging.getLogger(__name__)

NAME = "exemptions.plan_defaults"
TEMPLATE = "plan_default"
LENDER_TEMPLATE = "plan_default_lender"
PAGE = 200


def _approved_plans(uow: UnitOfWork, after: int) -> list[int]:
    c = ExemptionCertification
    return list(uow.session.scalars(
        select(c.id).outerjoin(PlanDefault, PlanDefault.certification_id == c.id)
        .where(c.status == "approved", c.plan_payments.is_not(None), c.id > after,
               PlanDefault.id.is_(None))
        .order_by(c.id).limit(PAGE)))


def lender_contacts(uow: UnitOfWork, cert: ExemptionCertification, day: date
                    ) -> list[tuple[str, str, int, str]]:
    """(email, language, loan id, loan number) of each user (not revoked) of the lender of
    the loan the certification was filed for, else of each lender with a loan in force on
    the parcel on `day`; one row per email (the first loan by lender and number)."""
    q = select(User.email, User.language, Loan.id, Loan.loan_number) \
        .join(PartyMember, PartyMember.user_id == User.id) \
        .join(Lender, Lender.party_id == PartyMember.party_id) \
        .join(Loan, Loan.lender_id == Lender.id).where(PartyMember.revoked_at.is_(None))
    if cert.loan_id is not None:
        q = q.where(Loan.id == cert.loan_id)
    else:
        q = q.where(Loan.parcel_id == cert.parcel_id, Loan.starts_on <= day,
                    Loan.ends_on.is_(None) | (Loan.ends_on >= day))
    out: dict[str, tuple[str, str, int, str]] = {}
    for email, lang, loan_id, number in uow.session.execute(
            q.order_by(Loan.lender_id, Loan.loan_number, User.id)):
        out.setdefault(email, (email, lang or "es", loan_id, number))
    return list(out.values())


def find(database: Database, day: date, config: Any = None) -> dict[str, int]:
    """The plans in default on `day` recorded and their owners emailed (the daily task)."""
    config = config or mail_settings()
    base = str(config.get("PORTAL_BASE_URL") or "").rstrip("/")
    seen = found = told = skipped = lenders_told = 0
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
                banks = [b for b in lender_contacts(uow, cert, day)
                         if to is None or b[0] != to[0]]  # a lender's filer: told as a bank
                row = PlanDefault(certification_id=cert.id, defaulted_on=state.defaulted_on,
                                  missed=state.missed, due_now=state.due_now, found_on=day,
                                  owner_told=to is not None, lenders_told=len(banks))
                try:
                    with uow.session.begin_nested():
                        uow.session.add(row)
                        uow.session.flush()
                        parcel = uow.session.get(Parcel, cert.parcel_id)
                        ctx = {"number": cert.filing_number, "catastro": parcel.catastro,
                               "fiscal_year": fiscal_year_label(cert.fiscal_year_start),
                               "missed": state.missed, "defaulted_on": state.defaulted_on,
                               "balance": state.balance, "due_now": state.due_now}
                        if to is not None:
                            mail.send(uow, to[0], TEMPLATE, to[1], config=config, **ctx,
                                      link=f"{base}/exoneracion/{cert.id}/recibo")
                        for email, lang, loan_id, loan_number in banks:
                            mail.send(uow, email, LENDER_TEMPLATE, lang, config=config,
                                      **ctx, loan=loan_number,
                                      link=f"{base}/prestamista/prestamos/{loan_id}")
                except IntegrityError:  # another worker found it at the same moment
                    continue
                found += 1
                told += to is not None
                lenders_told += len(banks)
        if len(ids) < PAGE:
            break
        last = ids[-1]
    return {"plans": seen, "defaults": found, "emailed": told, "skipped": skipped,
            "lenders_emailed": lenders_told}


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
