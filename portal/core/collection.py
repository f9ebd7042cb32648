"""Collections of District assessments: R-A12, R-A13, R-A14, R-A16 (23 LPRA § 6432(c), (d)).

After day G the Authority demands, by certified mail with return receipt, all amounts then
due (R-A12). If the demand is not paid in full within 15 days after mailing (the last day
rolls over), the debt may be claimed in court under Rule 60 whatever the amount (R-A13).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from portal.core.deadlines import deadline
from portal.core.explain import N_, Trace


@dataclass(frozen=True)
class Demand:
    """R-A12, 23 LPRA § 6432(d): a certified-mail demand; `acknowledged_on` is the return
    receipt."""

    mailed_on: date
    amount: Decimal
    acknowledged_on: date | None = None


@dataclass(frozen=True)
class CollectionTimeline:
    last_day_to_pay: date  # R-A13: mailing + 15 days, rolled
    court_claim_from: date  # R-A13: the day after
    stage: str  # "demand_window" | "claimable" | "paid"
    days_left: int
    trace: Trace


def timeline(demand: Demand, today: date, paid_in_full: bool,
             closed_days: Iterable[date] = ()) -> CollectionTimeline:
    """R-A13, 23 LPRA § 6432(d): where a demand stands on `today` and what stops the next step."""
    closed = tuple(closed_days)
    last = deadline("demand_payment", demand.mailed_on, closed_days=closed)
    first_claim = deadline("court_claim", demand.mailed_on, closed_days=closed)
    t = Trace()
    if paid_in_full:
        stage = "paid"
    elif today <= last:
        stage = "demand_window"
    else:
        stage = "claimable"
    t.add("R-A12", N_("Demand of {amount} mailed by certified mail on {mailed}."),
          amount=demand.amount, mailed=demand.mailed_on)
    t.add("R-A13", N_("Paying it in full by {last} stops a claim in court; from {first} the "
                      "debt may be claimed in court under Rule 60 of Civil Procedure (the "
                      "summary procedure, faster, for collecting money), whatever the "
                      "amount."),
          last=last, first=first_claim)
    return CollectionTimeline(last, first_claim, stage, (last - today).days, t)


def may_be_demanded(statement_delinquent_principal: Decimal,
                    total_due_now: Decimal | None = None,
                    minimum: Decimal = Decimal("0.00")) -> bool:
    """R-A12, 23 LPRA § 6432(d): after day G the delinquent are demanded all amounts then
    due. R-A17 (revision 3): with the Board's `demand_minimum`, an account whose demand would
    list less (`total_due_now`) waits for the first later month whose demand reaches it."""
    if statement_delinquent_principal <= 0:
        return False
    return total_due_now is None or total_due_now >= minimum


def under_demand_minimum(amount: Decimal | None, minimum: Decimal) -> bool:
    """R-A17 (revision 3): a demand (or a claim for it) for less than the Board's
    `demand_minimum`: staff are warned before recording a claim in court for it."""
    return minimum > 0 and (amount or Decimal(0)) < minimum


@dataclass(frozen=True)
class DepositOrder:
    """R-A14, 23 LPRA § 6432(d): a court order that the lessee of an Authority parcel deposit
    its rents in court until the debt is paid; the account records it and shows it."""

    ordered_on: date
    court: str
    case_number: str
    lifted_on: date | None = None

    def in_force(self, on: date) -> bool:
        """R-A14, 23 LPRA § 6432(d): the order stands until lifted (the debt satisfied)."""
        return self.ordered_on <= on and (self.lifted_on is None or on < self.lifted_on)


def who_pays(parcel_owner: str, lease_active: bool, lessee_pays: bool) -> str:
    """R-A16, 23 LPRA § 6432(c), (d): the assessment is collected from the owner or the lessee
    of each private parcel, as the lease provides. For an Authority or public parcel that is
    assessed, it is assessed because it was leased or transferred: its lessee pays.
    Waiver of use or benefit, or abandonment, changes nothing (no parameter for it exists).
    """
    if lease_active and (lessee_pays or parcel_owner in ("authority", "public")):
        return "lessee"
    return "owner"
