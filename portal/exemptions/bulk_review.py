"""Reviewing residential-exemption certifications in bulk (docs/EXEMPTION.md,
"Review in bulk"): the queue filtered by lender, status, municipality and a band of the
amount typed, each row flagged when its amounts are far from the parcel's CRIM facts
(`portal.core.review_flags`), and one decision (approve, or return with reasons) applied to
many certifications.

Each certification is still decided one by one through the single review's own functions
(`review.take_up`, `review.approve`, `review.return_`): each gets its event, its audit record
and its reviewer, in a savepoint of its own, so one that cannot be decided (its state moved
meanwhile) is reported and leaves the others decided."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import Numeric, Select, and_, cast, select

from portal.accounts import access
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.core.review_flags import outliers
from portal.db import UnitOfWork
from portal.exemptions import review
from portal.models import (
    ExemptionCertification,
    Lender,
    Loan,
    Parcel,
    Party,
    PropertyTaxFact,
)

#: Rows a page of the bulk queue shows (and the most one decision takes).
PAGE = 50
MOST = 200
#: The statuses a bulk decision may start from (a filed or resubmitted one is taken up first).
DECIDABLE = ("filed", "resubmitted", "under_review")
ACTIONS = ("approve", "return")
STREAM = 500


@dataclass(frozen=True)
class Filters:
    lender_id: int | None = None
    status: str | None = None
    municipality: str | None = None
    amount_min: Decimal | None = None
    amount_max: Decimal | None = None
    flagged_only: bool = False


@dataclass(frozen=True)
class Row:
    id: int
    filing_number: str | None
    status: str
    catastro: str
    municipality: str
    lender: str | None
    amount: Decimal | None  # the residential valuation typed, if any
    veteran: Decimal | None
    crim_total: Decimal | None
    crim_residential: Decimal | None
    flags: tuple[str, ...]


@dataclass
class Outcome:
    decided: list[int] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)


def _typed(key: str) -> Any:
    return cast(ExemptionCertification.answers[key].as_string(), Numeric(14, 2))


def _base(f: Filters) -> Select:
    c = ExemptionCertification
    amount = _typed("residential_valuation")
    stmt = (select(c.id, c.filing_number, c.status, Parcel.catastro, Parcel.municipality,
                   Party.name, c.answers["residential_valuation"].as_string(),
                   c.answers["veteran_amount"].as_string(),
                   PropertyTaxFact.land_valuation + PropertyTaxFact.structure_valuation,
                   PropertyTaxFact.residential_valuation)
            .join(Parcel, Parcel.id == c.parcel_id)
            .outerjoin(Loan, Loan.id == c.loan_id)
            .outerjoin(Lender, Lender.id == Loan.lender_id)
            .outerjoin(Party, Party.id == Lender.party_id)
            .outerjoin(PropertyTaxFact, and_(PropertyTaxFact.parcel_id == c.parcel_id,
                                             PropertyTaxFact.fiscal_year_start
                                             == c.fiscal_year_start))
            .where(c.status != "draft"))
    if f.lender_id is not None:
        stmt = stmt.where(Lender.id == f.lender_id)
    if f.status:
        if f.status not in review.QUEUE_STATUSES:
            raise InvalidInput(field="status")
        stmt = stmt.where(c.status == f.status)
    else:
        stmt = stmt.where(c.status.in_(DECIDABLE))
    if f.municipality:
        stmt = stmt.where(Parcel.municipality == f.municipality)
    if f.amount_min is not None:
        stmt = stmt.where(amount >= f.amount_min)
    if f.amount_max is not None:
        stmt = stmt.where(amount <= f.amount_max)
    return stmt.order_by(c.filed_on, c.id)


def _decimal(value: Any) -> Decimal | None:
    if value in (None, ""):
        return None
    try:
        return Decimal(str(value)).quantize(Decimal("0.01"))
    except InvalidOperation:
        return None


def _row(r: Any) -> Row:
    i, number, status, cat, muni, lender, typed, veteran, total, residential = r
    amount, vet = _decimal(typed), _decimal(veteran)
    crim_total, crim_res = _decimal(total), _decimal(residential)
    return Row(i, number, status, cat, muni, lender, amount, vet, crim_total, crim_res,
               outliers(crim_total=crim_total, crim_residential=crim_res,
                        typed_residential=amount, typed_veteran=vet))


def _rows(uow: UnitOfWork, f: Filters) -> Iterator[Row]:
    for r in uow.session.execute(_base(f).execution_options(yield_per=STREAM)):
        row = _row(r)
        if not f.flagged_only or row.flags:
            yield row


def queue(uow: UnitOfWork, user: Any, f: Filters, *, offset: int = 0,
          limit: int = PAGE) -> tuple[list[Row], int, int]:
    """A page of the filtered certifications (by default those a decision may take: filed,
    resubmitted, under review), how many match, and how many of those are flagged. Read as
    a stream: the flags are the core's, so the count of flagged rows reads every match
    once, none kept."""
    access.require_staff(user)
    page: list[Row] = []
    total = flagged = 0
    for row in _rows(uow, f):
        if offset <= total < offset + limit:
            page.append(row)
        total += 1
        flagged += bool(row.flags)
    return page, total, flagged


def lenders(uow: UnitOfWork) -> list[tuple[int, str]]:
    """(id, name) of the lenders with a filed certification, by name."""
    c = ExemptionCertification
    return [(i, n) for i, n in uow.session.execute(
        select(Lender.id, Party.name).join(Party, Party.id == Lender.party_id)
        .where(select(c.id).join(Loan, Loan.id == c.loan_id)
               .where(Loan.lender_id == Lender.id, c.status != "draft").exists())
        .order_by(Party.name))]


def decide(uow: UnitOfWork, user: Any, ids: list[int | str], action: str, *,
           reasons: list[str] | None = None, note: str = "") -> Outcome:
    """Approve, or return with `reasons`, each certification of `ids` (at most `MOST`),
    one by one through the single review's functions. A filed or resubmitted one is taken
    up first (its own event). One that cannot be decided is skipped with its reason's code
    (`exemption_state`, `not_found`); the others are decided."""
    access.require_staff_role(user, *review.REVIEWERS)
    if action not in ACTIONS:
        raise InvalidInput(field="action")
    chosen = list(dict.fromkeys(access.parse_id(i) for i in ids))
    if not chosen or len(chosen) > MOST:
        raise InvalidInput(field="ids", most=MOST)
    if action == "return" and (not reasons or any(r not in review.REASONS for r in reasons)):
        raise InvalidInput(field="reasons")
    out = Outcome()
    for cert_id in chosen:
        try:
            with uow.session.begin_nested():
                cert = review._get(uow, user, cert_id)
                if cert.status in ("filed", "resubmitted"):
                    review.take_up(uow, user, cert_id)
                if action == "approve":
                    review.approve(uow, user, cert_id, note)
                else:
                    review.return_(uow, user, cert_id, list(reasons or []), note)
        except NotFound:
            out.skipped.append((cert_id, "not_found"))
        except Conflict as exc:
            out.skipped.append((cert_id, exc.code))
        else:
            out.decided.append(cert_id)
    return out


__all__ = ["ACTIONS", "Filters", "Outcome", "Row", "decide", "lenders", "queue"]
