"""A housing cooperative's election (R-B4, R-B20): the cooperative, not a member, elects
for its units the residential exemption (each unit on its share, with its own cap) or the
cooperatives law's exemption instead (Exoneración residencial (b): "Será opcional para tales
cooperativas acogerse a la exoneración provista por esta sección, o a la exoneración
contributiva dispuesta por ... la Ley General de Sociedades Cooperativas").

The election is recorded once per cooperative and fiscal year (`record`: the name as
compared, `answers.comparable_name`), by whoever files the cooperative's first unit of the
year: a lender's rows name the cooperative and its election, and an owner's certification
names the cooperative and, only when no election of the year is on record, states it (the
owner then records it as the cooperative's, `filings.file`); each unit's certification
points to it, so the filing and the receipt show it as the cooperative's (`shown`), with
the units filed under it. A second record of another election for the same cooperative and year is
refused (`Conflict("coop_election_differs")`): the cooperative elects once.

An election recorded in error is corrected by staff (`correct`, reviewers and
administrators): elections are facts, never changed, so a correction is a new row
(`CooperativeElectionCorrection`, with its reason and staff member, audited) and the
election in force is the latest correction's, else the one recorded (`in_force`): later
units follow it and the pages show it. A unit already filed keeps the answers it was filed
with; staff review it as any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import func, select

from portal import clock
from portal.accounts import access, audit
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.core.explain import N_
from portal.db import UnitOfWork
from portal.exemptions.answers import COOP_ELECTIONS, comparable_name
from portal.models import (
    CooperativeElection,
    CooperativeElectionCorrection,
    ExemptionCertification,
    Lender,
    Parcel,
    Party,
    User,
)

#: Who corrects an election (docs/STAFF.md's roles): those who decide the certifications.
CORRECTORS = ("administrator", "reviewer")
#: The longest reason a correction keeps.
REASON_MAX = 500
#: A page of the staff's list of elections.
PAGE = 50

#: Why another election for the same cooperative and year is refused, for the lender's rows
#: and the owner's wizard alike.
ELECTION_DIFFERS = N_("This cooperative's election of the year is already on record, and it "
                      "is the other one: the cooperative elects once for all its units "
                      "(R-B4, R-B20).")


def find(uow: UnitOfWork, *, fy: date, name: str) -> CooperativeElection | None:
    """The cooperative's election of the year `fy` on record under `name` (as compared), if
    any."""
    return uow.session.scalar(select(CooperativeElection).where(
        CooperativeElection.fiscal_year_start == fy,
        CooperativeElection.name_key == comparable_name(name)[:200]))


def record(uow: UnitOfWork, *, fy: date, name: str, election: str, recorded_by_id: int,
           lender_id: int | None) -> CooperativeElection:
    """The cooperative's election of the year `fy`: the one on record (the same election),
    or a new one. `Conflict("coop_election_differs", election=...)` when the cooperative's
    election on record is the other one."""
    if election not in COOP_ELECTIONS:
        raise Conflict("coop_election_unknown")
    key = comparable_name(name)[:200]
    found = find(uow, fy=fy, name=name)
    if found is not None:
        current = in_force(uow, found)
        if current != election:
            raise Conflict("coop_election_differs", election=current)
        return found
    made = CooperativeElection(fiscal_year_start=fy, cooperative_name=" ".join(name.split()),
                               name_key=key, election=election, lender_id=lender_id,
                               recorded_by_id=recorded_by_id)
    uow.session.add(made)
    uow.session.flush()
    audit.record(uow, recorded_by_id, "exemption.coop_election", made,
                 after={"fiscal_year": fy, "cooperative": made.cooperative_name,
                        "election": election, "lender_id": lender_id})
    return made


@dataclass(frozen=True)
class Shown:
    """The cooperative's election as a filing shows it: who elected, what, who recorded it
    and when, and the units filed under it (catastro numbers)."""

    cooperative: str
    election: str
    recorded_by: str  # the lender's name, or "" when a unit's owner recorded it
    recorded_on: date
    units: tuple[str, ...]
    by_owner: bool = False  # recorded by the owner of one of its units, filing it


def shown(uow: UnitOfWork, cert: ExemptionCertification) -> Shown | None:
    """The election `cert` is filed under (None for none): its units are the certifications
    of the year not withdrawn that point to it."""
    if cert.coop_election_id is None:
        return None
    return shown_of(uow, uow.session.get(CooperativeElection, cert.coop_election_id))


def shown_of(uow: UnitOfWork, e: CooperativeElection) -> Shown:
    """The election `e` as a page shows it, with the units filed under it."""
    lender = "" if e.lender_id is None else uow.session.scalar(
        select(Party.name).join(Lender, Lender.party_id == Party.id)
        .where(Lender.id == e.lender_id)) or ""
    c = ExemptionCertification
    units = tuple(uow.session.scalars(
        select(Parcel.catastro).join(c, c.parcel_id == Parcel.id)
        .where(c.coop_election_id == e.id, c.status != "withdrawn")
        .order_by(Parcel.catastro)))
    return Shown(e.cooperative_name, in_force(uow, e), lender, clock.legal_date(e.created_at),
                 units, by_owner=e.lender_id is None)


# --- staff: the elections and their corrections ------------------------------------------

def in_force(uow: UnitOfWork, e: CooperativeElection) -> str:
    """The election in force: the latest correction's, else the one recorded."""
    corrected = uow.session.scalar(
        select(CooperativeElectionCorrection.election)
        .where(CooperativeElectionCorrection.coop_election_id == e.id)
        .order_by(CooperativeElectionCorrection.id.desc()).limit(1))
    return corrected or e.election


@dataclass(frozen=True)
class ListedElection:
    id: int
    fiscal_year_start: date
    cooperative: str
    election: str  # in force
    recorded_by: str  # the lender's name, or "" when a unit's owner recorded it
    recorded_on: date
    units: int
    corrections: int


def elections(uow: UnitOfWork, staff: Any, *, offset: int = 0
              ) -> tuple[list[ListedElection], int]:
    """Every cooperative's election, the latest fiscal year first and by name, with the
    election in force, its units (not withdrawn) and how many times it was corrected; a page
    of `PAGE` and how many in all. Staff only."""
    access.require_staff(staff)
    e, c, k = CooperativeElection, ExemptionCertification, CooperativeElectionCorrection
    units = (select(func.count(c.id)).where(c.coop_election_id == e.id, c.status != "withdrawn")
             .scalar_subquery())
    fixes = select(func.count(k.id)).where(k.coop_election_id == e.id).scalar_subquery()
    latest = (select(k.election).where(k.coop_election_id == e.id).order_by(k.id.desc())
              .limit(1).scalar_subquery())
    lender = (select(Party.name).join(Lender, Lender.party_id == Party.id)
              .where(Lender.id == e.lender_id).scalar_subquery())
    total = uow.session.scalar(select(func.count(e.id))) or 0
    rows = uow.session.execute(
        select(e.id, e.fiscal_year_start, e.cooperative_name, func.coalesce(latest, e.election),
               lender, e.created_at, units, fixes)
        .order_by(e.fiscal_year_start.desc(), e.name_key, e.id).limit(PAGE).offset(offset))
    return [ListedElection(i, fy, name, el, who or "", clock.legal_date(at), int(n), int(f))
            for i, fy, name, el, who, at, n, f in rows], int(total)


@dataclass(frozen=True)
class Correction:
    election: str
    reason: str
    staff_name: str
    staff_email: str
    at: datetime


@dataclass(frozen=True)
class ElectionDetail:
    id: int
    fiscal_year_start: date
    recorded: str  # the election as first recorded
    shown: Shown  # as pages show it, the election in force
    corrections: tuple[Correction, ...]  # oldest first


def election_detail(uow: UnitOfWork, staff: Any, election_id: int | str) -> ElectionDetail:
    """One election with its units and every correction (NotFound for none). Staff only."""
    access.require_staff(staff)
    e = _get(uow, election_id)
    k = CooperativeElectionCorrection
    fixes = uow.session.execute(
        select(k.election, k.reason, User.name, User.email, k.created_at)
        .join(User, User.id == k.corrected_by_id)
        .where(k.coop_election_id == e.id).order_by(k.id))
    return ElectionDetail(e.id, e.fiscal_year_start, e.election, shown_of(uow, e),
                          tuple(Correction(*row) for row in fixes))


def _get(uow: UnitOfWork, election_id: int | str) -> CooperativeElection:
    try:
        found = uow.session.get(CooperativeElection, int(election_id))
    except (TypeError, ValueError):
        found = None
    if found is None:
        raise NotFound()
    return found


def correct(uow: UnitOfWork, staff: Any, election_id: int | str, election: str,
            reason: str) -> CooperativeElectionCorrection:
    """Staff correct an election recorded in error (reviewers and administrators): a new
    correction, the election in force from now on, audited with the one it replaces and the
    reason. InvalidInput field `election` (not one of `COOP_ELECTIONS`) or `reason` (empty,
    or longer than `REASON_MAX`); Conflict `unchanged` when it is already the one in
    force."""
    access.require_staff_role(staff, *CORRECTORS)
    e = _get(uow, election_id)
    if election not in COOP_ELECTIONS:
        raise InvalidInput("invalid", field="election")
    why = " ".join((reason or "").split())
    if not why:
        raise InvalidInput("required", field="reason")
    if len(why) > REASON_MAX:
        raise InvalidInput("too_long", field="reason")
    before = in_force(uow, e)
    if before == election:
        raise Conflict("unchanged")
    made = CooperativeElectionCorrection(coop_election_id=e.id, election=election, reason=why,
                                         corrected_by_id=staff.id)
    uow.session.add(made)
    uow.session.flush()
    audit.record(uow, staff, "exemption.coop_election_corrected", e,
                 before={"election": before},
                 after={"election": election, "reason": why, "correction_id": made.id})
    return made
