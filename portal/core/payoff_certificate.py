"""What a payoff certificate (certificación de deuda) says: R-A19, with R-A15's ranking.

R-A19: a certificate states the parcel, the payer, the issue date and a good-through date;
per fiscal year: delinquent and due principal, fees, interest to the good-through date and
per day, costs, credit; upcoming installments apart; the budget version and that amendments
may change it; the collection status; the R-A15 ranking (senior liens named, not certified);
and a verification code that reveals only the certificate's own data. Paid by the
good-through date, it settles the items listed (policy).

Every amount is the core's statement of the account as of the good-through date
(`offer.Account.statement`: the same statement the parcel page's "pay-off amount, good
through" reads as `Offer.payoff_statement`), and the status and the collection stage are
`offer.offer` on the issue date. Nothing here computes an amount of its own except the
interest per day after the good-through date (R-A8's daily accrual on the principal then
delinquent), which no other figure gives.

Pure: the accounts' facts in, the certificate's content out, as plain values that the
service stores as the certificate's snapshot (`to_json` / `from_json`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from portal.core.collection import Demand
from portal.core.errors import InputError
from portal.core.liens import CUTOFF, Lien, lien_order
from portal.core.money import ZERO
from portal.core.offer import Account, account_status, offer
from portal.core.statement import interest_per_day

#: A certificate holds at most this many days after its issue date (policy: a sale's
#: closing is usually set within a month; interest to that day is included, R-A8).
CERTIFICATE_DAYS = 30

#: The senior liens the statute names (R-A15, 23 LPRA § 6432(e)(1)-(2)): named on every
#: certificate whether or not the portal knows of one; never certified.
STATUTORY_SENIOR = ("fiscal_act21_1997", "property_tax")


class CertificateDateError(InputError):
    """A good-through date outside [issue date, issue date + CERTIFICATE_DAYS]. `code` is
    "past" or "too_far"; `last` the last date allowed."""

    def __init__(self, code: str, last: date):
        super().__init__(f"good_through: {code}", field="good_through")
        self.code = code
        self.last = last


def last_good_through(issued_on: date) -> date:
    return issued_on + timedelta(days=CERTIFICATE_DAYS)


def check_good_through(issued_on: date, good_through: date) -> date:
    """R-A19: the good-through date is the issue date or a later day, at most
    CERTIFICATE_DAYS ahead (policy)."""
    last = last_good_through(issued_on)
    if good_through < issued_on:
        raise CertificateDateError("past", last)
    if good_through > last:
        raise CertificateDateError("too_far", last)
    return good_through


@dataclass(frozen=True)
class Collection:
    """R-A12, R-A13, R-A18 on the issue date: the last demand mailed and where it stands."""

    mailed_on: date
    amount: Decimal
    last_day: date
    court_claim_from: date
    stage: str  # "paid" | "demand_window" | "claimable"


@dataclass(frozen=True)
class YearFigures:
    """One fiscal year's account as of the good-through date (R-A19)."""

    fiscal_year: str
    delinquent_principal: Decimal
    due_principal: Decimal
    late_fees: Decimal
    interest: Decimal  # to the good-through date (R-A8)
    interest_per_day: Decimal  # after it
    costs: Decimal
    credit: Decimal
    total_due: Decimal  # the statement's total_due_now on the good-through date
    upcoming_principal: Decimal  # apart: installments not yet due on that date
    upcoming_count: int
    next_due: date | None  # the first upcoming installment's due date
    payoff: Decimal  # total_due + upcoming principal (the statement's payoff)
    #: current | pending | overdue, of the figures printed (the statement as of the good-
    #: through day): the certificate's words follow its figures.
    status: str
    budget_version: int | None = None
    budget_adopted_on: date | None = None
    collection: Collection | None = None


@dataclass(frozen=True)
class RankedLien:
    """A lien as the certificate names it (R-A15): its kind, when it was constituted (a
    mortgage: recorded in the Registry), and whose it is (a lender's name), if known."""

    kind: str
    constituted_on: date | None = None
    holder: str = ""


@dataclass(frozen=True)
class Ranking:
    """R-A15 (advisory): the liens ahead of the District's and behind it. The statute's
    senior liens are always named (not certified: the portal does not know them); the
    mortgages the portal knows are placed by their recording date; one not recorded is not
    constituted yet, so it is listed apart."""

    senior: tuple[RankedLien, ...]
    junior: tuple[RankedLien, ...]
    unrecorded: tuple[RankedLien, ...] = ()


@dataclass(frozen=True)
class CertificateContent:
    """Everything a certificate says (R-A19), in plain values."""

    catastro: str
    payer: str  # "owner" | "lessee" (R-A16, as the lease provides)
    payer_names: tuple[str, ...]
    issued_on: date
    good_through: date
    years: tuple[YearFigures, ...]
    ranking: Ranking
    total_due: Decimal = field(init=False)
    upcoming_principal: Decimal = field(init=False)
    payoff: Decimal = field(init=False)

    def __post_init__(self) -> None:
        for name in ("total_due", "upcoming_principal", "payoff"):
            object.__setattr__(self, name, sum((getattr(y, name) for y in self.years), ZERO))

    def to_json(self) -> dict[str, Any]:
        """The snapshot stored with an issued certificate: money and dates as text."""
        return _plain(asdict(self))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CertificateContent:
        r = data["ranking"]
        return cls(
            catastro=data["catastro"], payer=data["payer"],
            payer_names=tuple(data["payer_names"]),
            issued_on=date.fromisoformat(data["issued_on"]),
            good_through=date.fromisoformat(data["good_through"]),
            years=tuple(_year(y) for y in data["years"]),
            ranking=Ranking(*(tuple(_lien(x) for x in r[k])
                              for k in ("senior", "junior", "unrecorded"))))


_MONEY = ("delinquent_principal", "due_principal", "late_fees", "interest", "interest_per_day",
          "costs", "credit", "total_due", "upcoming_principal", "payoff")


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Decimal | date):
        return str(value) if isinstance(value, Decimal) else value.isoformat()
    return value


def _day(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


def _year(d: dict[str, Any]) -> YearFigures:
    c = d.get("collection")
    collection = None if c is None else Collection(
        date.fromisoformat(c["mailed_on"]), Decimal(c["amount"]),
        date.fromisoformat(c["last_day"]), date.fromisoformat(c["court_claim_from"]),
        c["stage"])
    return YearFigures(
        fiscal_year=d["fiscal_year"], **{k: Decimal(d[k]) for k in _MONEY},
        upcoming_count=int(d["upcoming_count"]), next_due=_day(d["next_due"]),
        status=d["status"], budget_version=d["budget_version"],
        budget_adopted_on=_day(d["budget_adopted_on"]), collection=collection)


def _lien(d: dict[str, Any]) -> RankedLien:
    return RankedLien(d["kind"], _day(d["constituted_on"]), d.get("holder", ""))


def year_figures(account: Account, issued_on: date, good_through: date, *,
                 demand: Demand | None = None, budget_version: int | None = None,
                 budget_adopted_on: date | None = None) -> YearFigures:
    """R-A19 for one fiscal year: the account's statement as of `good_through` (interest to
    that day, R-A8; late fees of grace days that close by then, R-A7), its status read
    from those same figures (never "up to date" above delinquent principal or late fees),
    and, on `issued_on`, the last demand's stage (`core.offer`)."""
    st = account.statement(good_through)
    today = offer(account, issued_on, demand=demand, with_later=False)
    upcoming = [i for i in st.installments if i.status == "upcoming"]
    collection = None
    if today.stop is not None:
        s = today.stop
        collection = Collection(s.mailed_on, s.demand.amount, s.last_day, s.court_claim_from,
                                s.stage)
    return YearFigures(
        fiscal_year=account.fiscal_year,
        delinquent_principal=st.delinquent_principal, due_principal=st.due_principal,
        late_fees=st.late_fees, interest=st.interest, interest_per_day=interest_per_day(st),
        costs=st.costs, credit=st.credit, total_due=st.total_due_now,
        upcoming_principal=st.upcoming_principal, upcoming_count=len(upcoming),
        next_due=min((i.due_date for i in upcoming), default=None), payoff=st.payoff,
        status=account_status(st), budget_version=budget_version,
        budget_adopted_on=budget_adopted_on, collection=collection)


def ranking(mortgages: Sequence[RankedLien]) -> Ranking:
    """R-A15 (advisory): the statute's senior liens, then the known mortgages recorded
    before 2000-09-02 (`liens.lien_order`), ahead of the District's; the other recorded
    mortgages behind it; unrecorded ones apart (not constituted)."""
    recorded = [m for m in mortgages if m.constituted_on is not None]
    by_id = {str(n): m for n, m in enumerate(recorded)}
    order = lien_order([Lien(k, "mortgage", m.constituted_on) for k, m in by_id.items()
                        if m.constituted_on is not None])
    statutory = tuple(RankedLien(kind) for kind in STATUTORY_SENIOR)
    return Ranking(statutory + tuple(by_id[k] for k in order.senior),
                   tuple(by_id[k] for k in order.junior),
                   tuple(m for m in mortgages if m.constituted_on is None))


def certificate(catastro: str, payer: str, payer_names: Sequence[str], issued_on: date,
                good_through: date, years: Sequence[YearFigures],
                mortgages: Sequence[RankedLien] = ()) -> CertificateContent:
    """R-A19 (23 LPRA § 6432(e)): the certificate's content. `years`: `year_figures` of each
    fiscal year with something owed or credited, and of the year of the issue date."""
    check_good_through(issued_on, good_through)
    return CertificateContent(catastro, payer, tuple(payer_names), issued_on, good_through,
                              tuple(years), ranking(mortgages))


__all__ = ["CERTIFICATE_DAYS", "CUTOFF", "CertificateContent", "CertificateDateError",
           "Collection", "RankedLien", "Ranking", "YearFigures", "certificate",
           "check_good_through", "interest_per_day", "last_good_through", "ranking",
           "year_figures"]
