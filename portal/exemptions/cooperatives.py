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
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from portal import clock
from portal.accounts import audit
from portal.accounts.errors import Conflict
from portal.core.explain import N_
from portal.db import UnitOfWork
from portal.exemptions.answers import COOP_ELECTIONS, comparable_name
from portal.models import CooperativeElection, ExemptionCertification, Lender, Parcel, Party

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
        if found.election != election:
            raise Conflict("coop_election_differs", election=found.election)
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
    return Shown(e.cooperative_name, e.election, lender, clock.legal_date(e.created_at), units,
                 by_owner=e.lender_id is None)
