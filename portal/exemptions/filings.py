"""The owner's certification (J5): a resumable draft, the wizard's answers, the checks of
R-B5 to R-B12, the figures, the filing and the resubmission of what staff returned.

The wizard's steps (`STEPS`) ask only what R-B1 to R-B12 need (R-B14 lists what the
certification states); `steps_for(answers, facts)` leaves out the ones that do not apply (the
temporary-absence statement only for an owner living away, the payment plan only where the
parcel owed property tax on January 1). Every state change goes through `_move`: the
`ExemptionEvent` row and an audit record, and the model refuses a backward move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import func, or_, select

from portal import clock, count_input
from portal.accounts import access, audit, in_force
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.core import payment_plan, property_tax
from portal.core.errors import CalcError, ParameterNotFound
from portal.core.exemption import (
    TEMPORARY_ABSENCE_REASONS,
    Eligibility,
    EligibilityResult,
    ExemptionInput,
    eligibility,
)
from portal.core.explain import N_
from portal.core.money import ZERO
from portal.core.params import fiscal_year_start
from portal.core.payment_plan import PlanSchedule
from portal.db import UnitOfWork
from portal.exemptions import answers as answers_of
from portal.exemptions import cooperatives
from portal.exemptions import tax_facts as facts_service
from portal.models import (
    ExemptionCertification,
    ExemptionEvent,
    ExemptionEvidence,
    ExemptionOwner,
    Lender,
    Loan,
    OwnershipShare,
    Parcel,
    Party,
    PropertyTaxFact,
)
from portal.models.exemptions import EXEMPTION_HOLDING

#: The wizard's steps, in order (one question each; "evidence", "result" and "attest" are
#: the uploads, the bill before filing and the R-B12 warning with the attestation).
STEPS = ("owners", "occupants", "use", "absence", "rent", "residential", "veteran",
         "cooperative", "debt", "evidence", "result", "attest")
USES = ("home", "new_structure", "away", "not_home")
RESIDENTIAL_KINDS = ("all", "fraction", "valuation")
COOP_ELECTIONS = answers_of.COOP_ELECTIONS
comparable_name = answers_of.comparable_name  # the one comparison of names
EDITABLE = ("draft", "returned")


def certification_year(on: date) -> date:
    """The fiscal year a certification filed on `on` is for: the year in course (its bills
    of July 1 and January 1), judged on its January 1 (R-B15). See docs/EXEMPTION.md."""
    return fiscal_year_start(on)


def _closed(uow: UnitOfWork) -> tuple[date, ...]:
    return tuple(sorted(in_force.parameter_set(uow).closed_dates()))


# --- reading ------------------------------------------------------------------------------

def owners_on_record(uow: UnitOfWork, parcel_id: int, on: date) -> list[tuple[int, str, str]]:
    """(party id, name, share kind) of the parcel's owners on `on` who are people."""
    rows = uow.session.execute(
        select(Party.id, Party.name, OwnershipShare.kind)
        .join(OwnershipShare, OwnershipShare.party_id == Party.id)
        .where(OwnershipShare.parcel_id == int(parcel_id), OwnershipShare.starts_on <= on,
               or_(OwnershipShare.ends_on.is_(None), OwnershipShare.ends_on >= on),
               Party.kind == "person")
        .order_by(Party.name)).all()
    return [(pid, name, kind) for pid, name, kind in rows]


def active_loan(uow: UnitOfWork, parcel_id: int, on: date) -> tuple[Any, Any] | None:
    """(loan, lender party) of the parcel's active loan on `on` (R-B9), if any."""
    row = uow.session.execute(
        select(Loan, Party).join(Lender, Lender.id == Loan.lender_id)
        .join(Party, Party.id == Lender.party_id)
        .where(Loan.parcel_id == int(parcel_id), Loan.starts_on <= on,
               or_(Loan.ends_on.is_(None), Loan.ends_on >= on))
        .order_by(Loan.starts_on.desc(), Loan.id).limit(1)).first()
    return (row[0], row[1]) if row else None


def get_for_view(uow: UnitOfWork, user: Any, cert_id: int | str) -> tuple[
        ExemptionCertification, Parcel, str]:
    """(certification, parcel, relation) for anyone who may see it: staff, an owner or a
    delegate of the parcel, the lender of the certification's loan (R-B9). A draft only for
    its filer and the parcel's owners. `NotFound` otherwise."""
    cid = access.parse_id(cert_id)
    cert = uow.session.get(ExemptionCertification, cid)
    if cert is None or cert.status == "withdrawn" and not access.is_staff(user):
        raise NotFound()
    rel = access.relation(uow, user, cert.parcel_id)
    if rel is None or rel == "lessee":
        raise NotFound()
    if rel == "lender" and (cert.loan_id is None or cert.status == "draft"
                            or not _lender_of_loan(uow, user, cert.loan_id)):
        raise NotFound()
    if cert.status == "draft" and rel not in ("owner", "staff") \
            and cert.created_by_id != getattr(user, "id", None):
        raise NotFound()
    parcel = uow.session.get(Parcel, cert.parcel_id)
    return cert, parcel, rel


def _lender_of_loan(uow: UnitOfWork, user: Any, loan_id: int) -> bool:
    from portal.models import PartyMember
    return uow.session.scalar(
        select(func.count()).select_from(Loan)
        .join(Lender, Lender.id == Loan.lender_id)
        .join(PartyMember, PartyMember.party_id == Lender.party_id)
        .where(Loan.id == loan_id, PartyMember.user_id == user.id,
               PartyMember.revoked_at.is_(None))) > 0


def get_for_owner(uow: UnitOfWork, user: Any, cert_id: int | str) -> tuple[
        ExemptionCertification, Parcel]:
    """The certification for its owner's changes: `NotFound` unless the user sees it,
    `Forbidden` unless an owner of the parcel (staff review, they do not file)."""
    cert, parcel, rel = get_for_view(uow, user, cert_id)
    if rel != "owner":
        raise Forbidden()
    return cert, parcel


def current(uow: UnitOfWork, parcel_id: int, fy: date) -> ExemptionCertification | None:
    return uow.session.scalars(
        select(ExemptionCertification)
        .where(ExemptionCertification.parcel_id == parcel_id,
               ExemptionCertification.fiscal_year_start == fy,
               ExemptionCertification.status != "withdrawn")
        .order_by(ExemptionCertification.id.desc()).limit(1)).first()


# --- the draft ----------------------------------------------------------------------------

def start(uow: UnitOfWork, user: Any, parcel_id: int | str) -> ExemptionCertification:
    """The parcel's certification for the year in course: the one there (a draft is resumed),
    else a new draft. Only an owner of the parcel files (R-B5, R-B13); the CRIM's facts must be
    on file (`no_property_tax_facts`)."""
    parcel = access.get_parcel(uow, user, parcel_id)
    if access.relation(uow, user, parcel.id) != "owner":
        raise Forbidden()
    fy = certification_year(clock.today())
    existing = current(uow, parcel.id, fy)
    if existing is not None:
        return existing
    if not facts_service.has_facts(uow, parcel.id, fy):
        raise NotFound("no_property_tax_facts")
    cert = ExemptionCertification(parcel_id=parcel.id, fiscal_year_start=fy, status="draft",
                                  created_by_id=user.id,
                                  language=getattr(user, "language", "es") or "es",
                                  answers={}, step=STEPS[0], returned_steps=[])
    uow.session.add(cert)
    uow.session.flush()
    audit.record(uow, user, "exemption.draft_started", cert,
                 after={"parcel_id": parcel.id, "fiscal_year": fy})
    return cert


def steps_for(answers: dict[str, Any], facts: PropertyTaxFact) -> list[str]:
    """The steps this certification asks (see the module's docstring)."""
    out = []
    for s in STEPS:
        if s == "absence" and answers.get("use") != "away":
            continue
        if s == "debt" and not facts.debt_on_january_1 > 0:
            continue
        out.append(s)
    return out


def editable_steps(cert: ExemptionCertification, facts: PropertyTaxFact) -> list[str]:
    """A draft: every step; a returned certification: only the steps staff returned, and the
    evidence, the result and the attestation (R-B12: the owner attests again)."""
    steps = steps_for(cert.answers or {}, facts)
    if cert.status == "draft":
        return steps
    if cert.status == "returned":
        keep = set(cert.returned_steps or ()) | {"evidence", "result", "attest"}
        return [s for s in steps if s in keep]
    return []


def _require_editable(cert: ExemptionCertification, step: str, facts: PropertyTaxFact) -> None:
    if cert.status not in EDITABLE:
        raise Conflict("exemption_not_editable")
    if step not in editable_steps(cert, facts):
        raise Conflict("exemption_step_not_returned")


def one_dwelling_conflicts(uow: UnitOfWork, cert: ExemptionCertification,
                           party_ids: list[int]) -> list[tuple[str, str, str]]:
    """R-B6 (c): (owner's name, other parcel's catastro, its status) for each owner who holds
    an approved or pending exemption on another parcel for the same year
    (`dwelling_conflicts`, over what `spouse_pairs` and `exemptions_held` read)."""
    if not party_ids:
        return []
    pairs = spouse_pairs(uow, party_ids)
    claim = claimants(party_ids, pairs)
    held = exemptions_held(uow, sorted(claim), cert.fiscal_year_start)
    return dwelling_conflicts(cert.parcel_id, party_ids, pairs, held)


@dataclass(frozen=True)
class Held:
    """An owner named on a certification that holds (or may still get) the year's exemption
    (R-B6: approved or pending)."""

    party_id: int
    name: str
    parcel_id: int
    catastro: str
    status: str


def claimants(party_ids: Iterable[int], pairs: Mapping[int, set[int]]) -> set[int]:
    """R-B20 (a)-(c): the owners who claim a home and their spouses (a couple has one
    exemption: a spouse's exemption elsewhere is the couple's)."""
    out = {int(p) for p in party_ids}
    for p in list(out):
        out |= pairs.get(p, set())
    return out


def dwelling_conflicts(parcel_id: int, party_ids: Iterable[int],
                       pairs: Mapping[int, set[int]], held: Iterable[Held]
                       ) -> list[tuple[str, str, str]]:
    """R-B6 (c), pure: (name, catastro, status) of each exemption held on another parcel by
    one of the owners who claim this home or their spouses (`claimants`), in `held`'s order.
    Only the owners who claim this home are checked, so a co-owner who lives elsewhere may
    claim their own home while the resident co-owners take the whole cap here (the core's
    cap is the dwelling's, whoever the owners)."""
    claim = claimants(party_ids, pairs)
    return [(h.name, h.catastro, h.status) for h in held
            if h.party_id in claim and h.parcel_id != parcel_id]


def exemptions_held(uow: UnitOfWork, party_ids: list[int], fy: date) -> list[Held]:
    """Every certification naming one of `party_ids` that holds (or may still get) the
    exemption of the fiscal year opening `fy`, one per owner and parcel, by name and catastro:
    the year's own approved or pending one, or the parcel's last approval of an earlier year,
    which continues (R-B15); a revoked one holds the years before its `revoked_from` (R-B18).
    An earlier approval stops continuing once the parcel has a later approval or revocation."""
    if not party_ids:
        return []
    ids = sorted(set(party_ids))
    c = ExemptionCertification
    # only the owners' index narrows it (the year and the status are read, not asked: with
    # statistics older than the year's filings a planner would read them all)
    rows = uow.session.execute(
        select(ExemptionOwner.party_id, Party.name, c.parcel_id, Parcel.catastro,
               c.status, c.fiscal_year_start, c.revoked_from, c.id)
        .join(Party, Party.id == ExemptionOwner.party_id)
        .join(c, c.id == ExemptionOwner.certification_id)
        .join(Parcel, Parcel.id == c.parcel_id)
        .where(ExemptionOwner.party_id.in_(ids))
        .order_by(Party.name, Parcel.catastro, c.fiscal_year_start.desc(), c.id.desc())).all()
    rows = [r for r in rows if r.fiscal_year_start <= fy]
    earlier = sorted({r.parcel_id for r in rows if r.fiscal_year_start < fy})
    last_decided = _last_decided(uow, earlier, fy)
    out: dict[tuple[int, int], Held] = {}
    for party, name, parcel, catastro, status, start, revoked_from, cid in rows:
        holds = status == "approved" or (status == "revoked" and fy < revoked_from)
        if start == fy and (status in EXEMPTION_HOLDING or holds):
            shown = "approved" if status == "revoked" else status
        elif start < fy and holds and last_decided.get(parcel) == cid:
            shown = "approved"
        else:
            continue
        out.setdefault((party, parcel), Held(party, name, parcel, catastro, shown))
    return list(out.values())


def _last_decided(uow: UnitOfWork, parcel_ids: list[int], fy: date) -> dict[int, int]:
    """parcel -> the id of its last certification approved (or since revoked) for a fiscal
    year up to `fy`: the one whose approval continues (R-B15)."""
    if not parcel_ids:
        return {}
    c = ExemptionCertification
    out: dict[int, int] = {}
    # only the parcels' index narrows it, as above
    for cid, pid, start, status in uow.session.execute(
            select(c.id, c.parcel_id, c.fiscal_year_start, c.status)
            .where(c.parcel_id.in_(parcel_ids))
            .order_by(c.parcel_id, c.fiscal_year_start.desc(), c.id.desc())):
        if start <= fy and status in ("approved", "revoked"):
            out.setdefault(pid, cid)
    return out


def spouse_pairs(uow: UnitOfWork, party_ids: Iterable[int]) -> dict[int, set[int]]:
    """R-B5: party -> the other parties who hold a spouse's share (the marital community) of
    some parcel together with it, for each of `party_ids` that has one."""
    ids = sorted({int(p) for p in party_ids})
    out: dict[int, set[int]] = {}
    if not ids:
        return out
    a, b = OwnershipShare.__table__.alias("a"), OwnershipShare.__table__.alias("b")
    today = clock.today()
    rows = uow.session.execute(
        select(a.c.party_id, b.c.party_id).select_from(a)
        .join(b, b.c.parcel_id == a.c.parcel_id)
        .where(a.c.party_id.in_(ids), a.c.kind == "spouse", b.c.kind == "spouse",
               b.c.party_id != a.c.party_id,
               or_(a.c.ends_on.is_(None), a.c.ends_on >= today),
               or_(b.c.ends_on.is_(None), b.c.ends_on >= today)).distinct())
    for pid, spouse in rows:
        out.setdefault(pid, set()).add(spouse)
    return out


def spouses_of(uow: UnitOfWork, party_ids: list[int]) -> set[int]:
    """R-B5: the parties who hold a spouse's share (the marital community) of some parcel
    together with one of `party_ids` (a couple has one exemption)."""
    return claimants(party_ids, spouse_pairs(uow, party_ids)) - set(party_ids)


def _answer(check: Any, *args: Any) -> Any:
    """One answer through the one validator of a certification's answers
    (`portal.exemptions.answers`), its refusal as the service's `InvalidInput`."""
    try:
        return check(*args)
    except answers_of.AnswerRefused as e:
        raise InvalidInput(e.reason, field=e.field, **e.params) from None


def save_step(uow: UnitOfWork, user: Any, cert_id: int | str, step: str,
              data: dict[str, Any]) -> tuple[ExemptionCertification, str | None]:
    """Record one step's answers (already validated as form fields by the web layer; the
    service checks the values again) and give the next step. R-B6: the owners step refuses
    an owner with an exemption elsewhere that year (`one_dwelling`, params: conflicts)."""
    cert, _parcel = get_for_owner(uow, user, cert_id)
    facts = facts_service.facts_for(uow, cert.parcel_id, cert.fiscal_year_start)
    _require_editable(cert, step, facts)
    answers = dict(cert.answers or {})
    if step == "owners":
        on_record = {pid for pid, _n, _k in owners_on_record(uow, cert.parcel_id,
                                                              clock.today())}
        chosen = sorted({int(x) for x in data.get("owners", [])})
        if not chosen or not set(chosen) <= on_record:
            raise InvalidInput(field="owners")
        spouses_here = {pid for pid, _n, kind in owners_on_record(uow, cert.parcel_id,
                                                                   clock.today())
                        if kind == "spouse"}
        if spouses_here & set(chosen) and not spouses_here <= set(chosen):
            raise InvalidInput("both_spouses", field="owners")  # R-B5: both are owners
        conflicts = one_dwelling_conflicts(uow, cert, chosen)
        if conflicts:
            raise Conflict("one_dwelling", conflicts=conflicts)
        answers["owners"] = chosen
        _set_owners(uow, cert, chosen)
    elif step == "occupants":
        answers["occupants"] = _answer(answers_of.occupants, data.get("occupants"))
    elif step == "use":
        use = data.get("use")
        if use not in USES:
            raise InvalidInput(field="use")
        answers["use"] = use
        if use == "new_structure":
            answers["deed_date"] = _answer(answers_of.deed_date, data.get("deed_date"),
                                           clock.today()).isoformat()
        else:
            answers.pop("deed_date", None)
        if use != "away":
            answers.pop("absence_reason", None)
            answers.pop("absence_sworn", None)
    elif step == "absence":
        reason = data.get("absence_reason")
        if reason not in TEMPORARY_ABSENCE_REASONS:
            raise InvalidInput(field="absence_reason")
        if not data.get("absence_sworn"):
            raise InvalidInput(field="absence_sworn")
        answers["absence_reason"], answers["absence_sworn"] = reason, True
    elif step == "rent":
        rent = data.get("rent")
        if rent not in ("no", "yes"):
            raise InvalidInput(field="rent")
        answers["rent"] = rent
        answers["rent_part"] = str(data.get("rent_part", "")).strip()[:500] \
            if rent == "yes" else ""
    elif step == "residential":
        kind = data.get("residential")
        if kind not in RESIDENTIAL_KINDS:
            raise InvalidInput(field="residential")
        answers["residential"] = kind
        answers.pop("fraction", None)
        answers.pop("residential_valuation", None)
        if kind == "fraction":
            answers["fraction"] = str(_answer(answers_of.fraction, data.get("fraction")))
            answers["fraction_basis"] = str(data.get("fraction_basis", "")).strip()[:500]
        elif kind == "valuation":
            answers["residential_valuation"] = str(_answer(
                answers_of.amount, data.get("residential_valuation"), "residential_valuation"))
    elif step == "veteran":
        vet = data.get("veteran")
        if vet not in ("no", "yes"):
            raise InvalidInput(field="veteran")
        answers["veteran"] = vet
        answers["veteran_amount"] = str(_answer(
            answers_of.veteran_amount, data.get("veteran_amount"), facts.valuation)) \
            if vet == "yes" else "0.00"
    elif step == "cooperative":
        coop = data.get("cooperative")
        if coop not in ("no", "yes"):
            raise InvalidInput(field="cooperative")
        answers["cooperative"] = coop
        if coop == "yes":
            answers["unit_share"] = str(_answer(answers_of.unit_share, data.get("unit_share")))
            name = _answer(answers_of.cooperative_name, data.get("cooperative_name"))
            answers["coop_election"], answers["cooperative_name"] = cooperative_election(
                uow, cert.fiscal_year_start, name, data.get("coop_election") or None)
            answers["coop_elected_by"] = "cooperative"
        else:
            for key in ("unit_share", "coop_election", "cooperative_name", "coop_elected_by"):
                answers.pop(key, None)
    elif step == "debt":
        _save_plan(cert, answers, data)
    elif step in ("evidence", "result"):
        pass
    else:
        raise NotFound()
    cert.answers = answers
    steps = steps_for(answers, facts)
    nxt = _next(steps, step, editable_steps(cert, facts))
    cert.step = nxt or step
    return cert, nxt


def cooperative_election(uow: UnitOfWork, fy: date, name: str, stated: str | None
                         ) -> tuple[str, str]:
    """R-B4, R-B20: (election, cooperative's name) a cooperative's unit is filed under: the
    cooperative's of the year when on record, with its name as recorded (the owner is not
    asked; a different one `stated` is refused, `Conflict("coop_election_differs")`), else
    the one the owner states for the cooperative (`InvalidInput(field="coop_election")`
    when none), recorded as the cooperative's when the certification is filed
    (`_file_under_cooperative`)."""
    found = cooperatives.find(uow, fy=fy, name=name)
    if found is not None:
        election = cooperatives.in_force(uow, found)  # a staff correction's, if any
        if stated and stated != election:
            raise Conflict("coop_election_differs", election=election)
        return election, found.cooperative_name
    if stated not in COOP_ELECTIONS:
        raise InvalidInput(field="coop_election")
    return stated, name


def _file_under_cooperative(uow: UnitOfWork, user: Any, cert: ExemptionCertification) -> None:
    """A cooperative's unit filed by its owner goes under the cooperative's election of the
    year: the one on record, or the one the owner stated, recorded now as the cooperative's
    (by that owner) so that later units, an owner's or a lender's, follow it.
    `Conflict("coop_election_differs")` when the cooperative's election on record is the
    other one (recorded since the owner answered)."""
    a = cert.answers or {}
    if a.get("cooperative") != "yes":
        cert.coop_election_id = None
        return
    if not a.get("cooperative_name"):
        raise Conflict("exemption_incomplete", steps=["cooperative"])
    cert.coop_election_id = cooperatives.record(
        uow, fy=cert.fiscal_year_start, name=a["cooperative_name"],
        election=a.get("coop_election", ""), recorded_by_id=actor_id(user), lender_id=None).id


def _save_plan(cert: ExemptionCertification, answers: dict[str, Any],
               data: dict[str, Any]) -> None:
    """R-B11, R-B16: the plan requested (number of monthly payments at most
    `plan_max_payments`, a first due date from today on) or paying the debt in full."""
    choice = data.get("plan")
    if choice not in ("request", "pay_in_full"):
        raise InvalidInput(field="plan")
    answers["plan"] = choice
    if choice == "request":
        most, _down = property_tax.plan_terms(cert.fiscal_year_start)
        typed = data.get("plan_payments")
        try:  # the one parser of a typed count, bounded by R-B16's most
            n = count_input.parse(typed if isinstance(typed, int) else str(typed or ""),
                                  minimum=1, maximum=most)
        except count_input.CountInputError:
            raise InvalidInput(field="plan_payments", most=most) from None
        first = data.get("plan_first_due")
        if not isinstance(first, date) or first < clock.today() \
                or (first - clock.today()).days > 366:
            raise InvalidInput(field="plan_first_due")
        cert.plan_payments, cert.plan_first_due = n, first
        answers["plan_payments"], answers["plan_first_due"] = n, first.isoformat()
    else:
        cert.plan_payments = cert.plan_first_due = None
        answers.pop("plan_payments", None)
        answers.pop("plan_first_due", None)


def _next(steps: list[str], step: str, editable: list[str]) -> str | None:
    after = steps[steps.index(step) + 1:] if step in steps else []
    for s in after:
        if s in editable:
            return s
    return None


def previous(cert: ExemptionCertification, facts: PropertyTaxFact, step: str) -> str | None:
    steps = editable_steps(cert, facts)
    if step not in steps:
        return None
    i = steps.index(step)
    return steps[i - 1] if i > 0 else None


def _set_owners(uow: UnitOfWork, cert: ExemptionCertification, party_ids: list[int]) -> None:
    s = uow.session
    have = {o.party_id: o for o in s.scalars(select(ExemptionOwner).where(
        ExemptionOwner.certification_id == cert.id))}
    for pid, row in have.items():
        if pid not in party_ids:
            s.delete(row)
    for pid in party_ids:
        if pid not in have:
            s.add(ExemptionOwner(certification_id=cert.id, party_id=pid))
    s.flush()


# --- the figures --------------------------------------------------------------------------

@dataclass(frozen=True)
class Figures:
    """What the result step, the receipt and staff's page show: the bill without and with
    the exemption (the core's `property_tax.compare`) and the eligibility checks."""

    comparison: property_tax.BillComparison
    eligibility: EligibilityResult
    debt: Decimal
    plan_last_day: date | None  # R-B11: the 30th day after filing (rolled)
    cooperative_law: bool = False  # R-B4: the cooperative chose the other exemption
    plan: PlanSchedule | None = None  # R-B16: the plan requested, its payments (the core's)


def exemption_input(answers: dict[str, Any], facts: PropertyTaxFact) -> ExemptionInput:
    """The core's inputs from the CRIM's facts and the answers (R-B1 to R-B4, R-B7)."""
    valuation = facts.land_valuation + facts.structure_valuation
    kind = answers.get("residential", "all")
    residential_valuation = facts.residential_valuation
    fraction = Decimal(1)
    if residential_valuation is None:
        if kind == "valuation" and answers.get("residential_valuation"):
            residential_valuation = Decimal(answers["residential_valuation"])
        elif kind == "fraction" and answers.get("fraction"):
            fraction = Decimal(answers["fraction"])
    unit_share = Decimal(answers.get("unit_share", "1")) \
        if answers.get("cooperative") == "yes" else Decimal(1)
    return ExemptionInput(
        valuation=valuation,
        tax_rate=property_tax.tax_rate(facts.municipality, facts.fiscal_year_start),
        residential_fraction=fraction, residential_valuation=residential_valuation,
        veteran_exemption=Decimal(answers.get("veteran_amount") or "0"),
        unit_share=unit_share, zone=facts.zone, land_valuation=facts.land_valuation,
        land_area_cuerdas=facts.land_area_cuerdas)


def figures(uow: UnitOfWork, cert: ExemptionCertification) -> Figures:
    facts = facts_service.facts_for(uow, cert.parcel_id, cert.fiscal_year_start)
    a = cert.answers or {}
    others = one_dwelling_conflicts(uow, cert, [int(x) for x in a.get("owners", [])])
    try:
        return figures_of(a, facts, cert.fiscal_year_start, other_exemption=bool(others),
                          approved=cert.status == "approved",
                          filed_on=cert.filed_on or clock.today(),
                          closed_days=lambda: _closed(uow))
    except (CalcError, ParameterNotFound) as e:
        raise InvalidInput("calc", field=getattr(e, "field", None), message=str(e)) from None


def figures_of(a: dict[str, Any], facts: Any, fy: date, *, other_exemption: bool,
               approved: bool, filed_on: date, closed_days: Callable[[], tuple[date, ...]],
               comparison: property_tax.BillComparison | None = None) -> Figures:
    """The figures, pure: the core's bill without and with the exemption from the answers
    and the CRIM's facts, and the eligibility checks (R-B1 to R-B11); `other_exemption`: an
    owner holds one on another parcel (R-B6, `dwelling_conflicts`); `closed_days` are read
    only when the parcel owed property tax on January 1 (R-B11's last day); `comparison`,
    when the caller computed it already from the same answers and facts. The core's
    `CalcError`/`ParameterNotFound` are the caller's to word."""
    if comparison is None:
        comparison = property_tax.compare(exemption_input(a, facts), fy)
    owes = facts.debt_on_january_1 > 0
    plan = a.get("plan")
    e = Eligibility(
        used_as_home_on_jan_1=a.get("use") == "home",
        rent_received=a.get("rent") == "yes",
        new_structure_available_to_buyer=a.get("use") == "new_structure",
        temporary_absence_reason=a.get("absence_reason") if a.get("use") == "away" else None,
        other_exemption_elsewhere=other_exemption,
        owes_property_tax_jan_1=owes and plan != "pay_in_full",
        payment_plan_filed_in_time=plan == "request",
        payment_plan_approved=approved,
        occupant=a.get("occupant") or "owner",
        family_relationship=a.get("family_relationship"))
    last = property_tax.plan_last_day(filed_on, closed_days()) if owes else None
    coop_law = a.get("cooperative") == "yes" and a.get("coop_election") == "cooperative_law"
    debt = facts.debt_on_january_1 if owes else ZERO
    return Figures(comparison, eligibility(e), debt, last, coop_law,
                   plan_of(a, debt, fy) if plan == "request" else None)


def plan_of(a: dict[str, Any], debt: Decimal, fy: date) -> PlanSchedule | None:
    """R-B16: the plan the answers request (its number of payments and first due date) for
    the property tax owed on January 1, on the CRIM's terms for the fiscal year (the down
    payment's rate), from the core (`core.payment_plan.schedule`). The plan's payments are
    made to the CRIM, not through the portal: their dates roll over weekends and Puerto Rico
    holidays, not the Board's closed days (policy, as the Treasury's periods). None without
    a debt or a complete request."""
    n, first = a.get("plan_payments"), a.get("plan_first_due")
    if debt <= 0 or not n or not first:
        return None
    _most, rate = property_tax.plan_terms(fy)
    return payment_plan.schedule(debt, int(n), date.fromisoformat(first), rate)


COOPERATIVE_LAW = N_("The cooperative chose the cooperatives law's exemption instead: the "
                     "residential exemption does not apply to the unit.")


def blocking_reasons(f: Figures) -> list[tuple[str, str]]:
    """The unmet requirements that stop a filing: all but R-B11 when a plan is requested
    (its approval is pending with the exemption, R-B16); and a cooperative that chose the
    cooperatives law's exemption instead (R-B4)."""
    out = [(rule, msg) for rule, msg in f.eligibility.reasons if rule != "R-B11"]
    if f.cooperative_law:
        out.append(("R-B4", COOPERATIVE_LAW))
    return out


def missing_steps(cert: ExemptionCertification, facts: PropertyTaxFact) -> list[str]:
    return missing_steps_of(cert.answers or {}, facts)


def missing_steps_of(a: dict[str, Any], facts: Any) -> list[str]:
    """The steps these answers leave unanswered (pure)."""
    needed = {"owners": "owners", "occupants": "occupants", "use": "use",
              "absence": "absence_reason", "rent": "rent",
              "residential": "residential", "veteran": "veteran", "cooperative": "cooperative",
              "debt": "plan"}
    unnamed = a.get("cooperative") == "yes" and not a.get("cooperative_name")  # R-B4, R-B20
    return [s for s in steps_for(a, facts) if s in needed
            and (needed[s] not in a or s == "cooperative" and unnamed)]


# --- filing -------------------------------------------------------------------------------

def file(uow: UnitOfWork, user: Any, cert_id: int | str, *, attested: bool,
         full_name: str, language: str | None = None) -> ExemptionCertification:
    """File (or resubmit) the certification: every step answered, no unmet requirement, the
    R-B12 attestation (the box and the full name of an owner named on the filing,
    `signed_by_owner`); `language`: the one the filer used (the receipt's and the emails'). A first
    filing gets its filing number and date (R-B13, Exoneración residencial (e), (g): the
    Puerto Rico day); where the parcel has a loan it goes to the lender (R-B9). What it
    states is R-B14's list (e): the owners, the use on January 1, rent, the residential part,
    the veterans' amount, a cooperative's share and election, any R-B8 statement, the debt on
    January 1 and any plan: the wizard's steps (`STEPS`), every one answered."""
    cert, parcel = get_for_owner(uow, user, cert_id)
    facts = facts_service.facts_for(uow, cert.parcel_id, cert.fiscal_year_start)
    _require_editable(cert, "attest", facts)
    if missing_steps(cert, facts):
        raise Conflict("exemption_incomplete", steps=missing_steps(cert, facts))
    a = cert.answers
    if a.get("cooperative") == "yes":  # R-B4, R-B20: first, its refusal the clearest
        cooperative_election(uow, cert.fiscal_year_start, a.get("cooperative_name", ""),
                             a.get("coop_election"))
    f = figures(uow, cert)
    conflicts = one_dwelling_conflicts(uow, cert, [int(x) for x in cert.answers["owners"]])
    if conflicts:
        raise Conflict("one_dwelling", conflicts=conflicts)
    if blocking_reasons(f):
        raise Conflict("exemption_not_eligible", reasons=blocking_reasons(f))
    name = " ".join((full_name or "").split())
    if not attested:
        raise InvalidInput(field="attest")
    if len(name) < 3 or len(name) > 200:
        raise InvalidInput(field="full_name")
    named = {int(x) for x in cert.answers.get("owners", [])}
    if not signed_by_owner(name, [n for p, n, _k in owners_on_record(
            uow, cert.parcel_id, clock.today()) if p in named]):
        raise InvalidInput("attest_name_mismatch", field="full_name")
    _file_under_cooperative(uow, user, cert)
    cert.attested_name, cert.attested_at = name, clock.now()
    if language in ("es", "en"):  # the receipt and the decisions in the filer's language
        cert.language = language
    if cert.status == "draft":
        loan = active_loan(uow, cert.parcel_id, clock.today())
        cert.loan_id = loan[0].id if loan else None
        cert.filed_at, cert.filed_on = clock.now(), clock.today()
        _move(uow, user, cert, "filed")
        cert.filing_number = filing_number(cert.fiscal_year_start, cert.id)
    else:
        _move(uow, user, cert, "resubmitted")
        cert.returned_steps = []
    cert.step = "attest"
    return cert


def signed_by_owner(signature: str, owner_names: Iterable[str]) -> bool:
    """R-B12: the attestation is signed with the full name of an owner named on the filing
    (not the account's name, not another owner of record), accents, case and spaces aside."""
    return comparable_name(signature) in {comparable_name(n) for n in owner_names}


def file_for_lender(uow: UnitOfWork, actor: Any, *, parcel_id: int, fy: date, loan_id: int,
                    answers: dict[str, Any], attested_name: str, created_by_id: int,
                    delivered_on: date, language: str = "es",
                    coop_election_id: int | None = None
                    ) -> tuple[ExemptionCertification, Figures]:
    """R-B9, R-B21: the certification a lender files for the owner of a parcel of its loan
    `loan_id`: the year's draft or returned certification is completed (a new draft where
    there is none), with the same checks as `file` (every step answered, then
    `lender_checks`: R-B6's one dwelling, no unmet requirement) and the same figures. The
    attestation is the lender's officer's (R-B21: that the lender holds the certification
    the owner signed, R-B12). Its filing date is `delivered_on`, the day the owner delivered
    the certification to the lender (R-B13, R-B21), from which R-B11's 30 days for a payment
    plan run (a returned certification resubmitted keeps its first filing date). A
    cooperative's unit is filed under the cooperative's election `coop_election_id`
    (`exemptions.cooperatives`: the cooperative's, not the member's, R-B4, R-B20).
    `Conflict("exemption_not_editable")` for one already filed or
    decided. A step of a lender's batch files its new certifications at once instead
    (`exemptions.batch_filing`), with the same checks."""
    facts = facts_service.facts_for(uow, parcel_id, fy)
    cert = current(uow, parcel_id, fy)
    if cert is None:
        cert = ExemptionCertification(parcel_id=parcel_id, fiscal_year_start=fy,
                                      status="draft", created_by_id=created_by_id,
                                      language=language if language in ("es", "en") else "es",
                                      answers={}, step=STEPS[0], returned_steps=[])
        uow.session.add(cert)
        uow.session.flush()
        audit.record(uow, actor, "exemption.draft_started", cert,
                     after=draft_started_after(parcel_id, fy, loan_id))
    elif cert.status not in EDITABLE:
        raise Conflict("exemption_not_editable")
    owners = sorted({int(x) for x in answers.get("owners", [])})
    cert.answers = {**answers, "owners": owners}
    _set_owners(uow, cert, owners)
    if missing_steps(cert, facts):
        raise Conflict("exemption_incomplete", steps=missing_steps(cert, facts))
    conflicts = one_dwelling_conflicts(uow, cert, owners)
    try:
        f = lender_checks(cert.answers, facts, fy, conflicts=conflicts,
                          approved=cert.status == "approved",
                          filed_on=cert.filed_on or delivered_on,
                          closed_days=lambda: _closed(uow))
    except (CalcError, ParameterNotFound) as e:
        raise InvalidInput("calc", field=getattr(e, "field", None), message=str(e)) from None
    cert.attested_name, cert.attested_at = attested_name, clock.now()
    cert.loan_id = loan_id
    cert.delivered_on = delivered_on
    cert.coop_election_id = coop_election_id
    if cert.status == "draft":  # R-B13: a lender's filing is dated the owner's delivery
        cert.filed_at, cert.filed_on = clock.now(), delivered_on
        _move(uow, actor, cert, "filed")
        cert.filing_number = filing_number(cert.fiscal_year_start, cert.id)
    else:
        _move(uow, actor, cert, "resubmitted")
        cert.returned_steps = []
    cert.step = "attest"
    return cert, f


def lender_checks(answers: dict[str, Any], facts: Any, fy: date, *,
                  conflicts: list[tuple[str, str, str]], approved: bool, filed_on: date,
                  closed_days: Callable[[], tuple[date, ...]],
                  comparison: property_tax.BillComparison | None = None) -> Figures:
    """A lender's filing's checks once every step is answered, pure (the single filing's and
    a batch's, `exemptions.batch_filing`): the figures (`figures_of`), then R-B6's one
    dwelling (`conflicts`, from `dwelling_conflicts`) and no unmet requirement
    (`blocking_reasons`): `Conflict("one_dwelling")` or
    `Conflict("exemption_not_eligible")`."""
    f = figures_of(answers, facts, fy, other_exemption=bool(conflicts), approved=approved,
                   filed_on=filed_on, closed_days=closed_days, comparison=comparison)
    if f.eligibility.reasons and conflicts:
        raise Conflict("one_dwelling", conflicts=conflicts)
    if blocking_reasons(f):
        raise Conflict("exemption_not_eligible", reasons=blocking_reasons(f))
    return f


def filing_number(fy: date, cert_id: int) -> str:
    """A filing's number: `EXR-<FY start year>-<id>` (R-B13)."""
    return f"EXR-{fy.year}-{cert_id:06d}"


def draft_started_after(parcel_id: int, fy: date, loan_id: int) -> dict[str, Any]:
    """The audit record's `after` of the draft a lender's filing starts."""
    return {"parcel_id": parcel_id, "fiscal_year": fy, "loan_id": loan_id}


def moved_audit(old: str, to: str, reasons: list[str] | None = None, note: str = ""
                ) -> tuple[dict[str, Any], dict[str, Any]]:
    """(before, after) of the audit record of a state change (`_move`)."""
    return {"status": old}, {"status": to, "reasons": list(reasons or []), "note": note}


def actor_id(user: Any) -> int | None:
    """The id of who acts: a user, or a user's id."""
    return user if isinstance(user, int) else getattr(user, "id", None)


def withdraw(uow: UnitOfWork, user: Any, cert_id: int | str) -> ExemptionCertification:
    cert, _parcel = get_for_owner(uow, user, cert_id)
    if "withdrawn" not in _allowed(cert.status):
        raise Conflict("exemption_state", status=cert.status)
    _move(uow, user, cert, "withdrawn")
    return cert


def _allowed(status: str) -> set[str]:
    from portal.models.exemptions import EXEMPTION_TRANSITIONS
    return EXEMPTION_TRANSITIONS.get(status, set())


def _move(uow: UnitOfWork, user: Any, cert: ExemptionCertification, to: str, *,
          reasons: list[str] | None = None, note: str = "") -> None:
    """Move the certification to `to` (forward only: the model refuses anything else), with
    its event and an audit record naming who (R-B13)."""
    old = cert.status
    if to not in _allowed(old):
        raise Conflict("exemption_state", status=old)
    cert.status = to
    uow.session.add(ExemptionEvent(certification_id=cert.id, from_status=old, to_status=to,
                                   actor_id=actor_id(user), reasons=list(reasons or []),
                                   note=note))
    before, after = moved_audit(old, to, reasons, note)
    audit.record(uow, user, f"exemption.{to}", cert, before=before, after=after)
    uow.session.flush()


def events(uow: UnitOfWork, cert: ExemptionCertification) -> list[ExemptionEvent]:
    return list(uow.session.scalars(select(ExemptionEvent).where(
        ExemptionEvent.certification_id == cert.id).order_by(ExemptionEvent.id)))


def evidence_of(uow: UnitOfWork, cert: ExemptionCertification) -> list[ExemptionEvidence]:
    return list(uow.session.scalars(select(ExemptionEvidence).where(
        ExemptionEvidence.certification_id == cert.id, ExemptionEvidence.removed_at.is_(None))
        .order_by(ExemptionEvidence.id)))


def owner_names(uow: UnitOfWork, cert: ExemptionCertification) -> list[str]:
    return list(uow.session.scalars(
        select(Party.name).join(ExemptionOwner, ExemptionOwner.party_id == Party.id)
        .where(ExemptionOwner.certification_id == cert.id).order_by(Party.name)))


# --- who receives it ----------------------------------------------------------------------

def loan_of(uow: UnitOfWork, cert: ExemptionCertification) -> tuple[str, str] | None:
    """(loan number, lender's name) of the loan the certification went to (R-B9)."""
    if cert.loan_id is None:
        return None
    row = uow.session.execute(
        select(Loan.loan_number, Party.name).join(Lender, Lender.id == Loan.lender_id)
        .join(Party, Party.id == Lender.party_id).where(Loan.id == cert.loan_id)).first()
    return (row[0], row[1]) if row else None


def filer_contact(uow: UnitOfWork, cert: ExemptionCertification) -> tuple[str, str] | None:
    """(email, language) of the filer: the receipt and the decisions go there."""
    from portal.models import User
    email = uow.session.scalar(select(User.email).where(User.id == cert.created_by_id))
    return (email, cert.language) if email else None


def lender_contacts(uow: UnitOfWork, cert: ExemptionCertification) -> list[tuple[str, str]]:
    """(email, language) of the users of the certification's lender (R-B9)."""
    if cert.loan_id is None:
        return []
    from portal.models import PartyMember, User
    rows = uow.session.execute(
        select(User.email, User.language).join(PartyMember, PartyMember.user_id == User.id)
        .join(Lender, Lender.party_id == PartyMember.party_id)
        .join(Loan, Loan.lender_id == Lender.id)
        .where(Loan.id == cert.loan_id, PartyMember.revoked_at.is_(None))).all()
    return [(e, lang) for e, lang in rows]


def lender_certifications(uow: UnitOfWork, user: Any, *, offset: int = 0, limit: int = 50
                          ) -> tuple[list[tuple[ExemptionCertification, str, str]], int]:
    """A page of (certification, catastro, loan number) of the filed certifications on the
    loans of the lenders the user works for, newest first (R-B9: the lender's list), and how
    many there are in all."""
    from portal.models import PartyMember
    c = ExemptionCertification
    where = (PartyMember.user_id == user.id, PartyMember.revoked_at.is_(None),
             c.status.notin_(("draft", "withdrawn")))
    base = (select(c.id).join(Loan, Loan.id == c.loan_id)
            .join(Lender, Lender.id == Loan.lender_id)
            .join(PartyMember, PartyMember.party_id == Lender.party_id).where(*where))
    total = uow.session.scalar(select(func.count()).select_from(base.subquery())) or 0
    rows = [(cert, cat, num) for cert, cat, num in uow.session.execute(
        select(c, Parcel.catastro, Loan.loan_number)
        .join(Loan, Loan.id == c.loan_id)
        .join(Lender, Lender.id == Loan.lender_id)
        .join(PartyMember, PartyMember.party_id == Lender.party_id)
        .join(Parcel, Parcel.id == c.parcel_id)
        .where(*where)
        .order_by(c.filed_on.desc(), c.id.desc()).offset(offset).limit(limit)).all()]
    return rows, total


def for_status(uow: UnitOfWork, status: Any) -> ExemptionCertification:
    """The certification an `exemption_status` result names (its caller read the parcel
    through the access policy)."""
    return uow.session.scalars(select(ExemptionCertification).where(
        ExemptionCertification.id == status.certification_id)).one()
