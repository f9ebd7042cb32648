"""The Secretary of the Treasury's attachment: R-C1 to R-C3, R-C7 (13 LPRA § 33262).

It applies to taxes under the Internal Revenue Code, not to District assessments (those are
claimed in court, R-A13). The deadlines of R-C2 are in `deadlines` (attachment_payment,
attachment_sale).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from portal.core.deadlines import deadline
from portal.core.explain import N_, Rate, Trace
from portal.core.money import ZERO, cents

DUNNING_FEE_RATE = Decimal("0.10")  # 13 LPRA § 33262(j); also a dated parameter


@dataclass(frozen=True)
class DunningFee:
    fee: Decimal
    total: Decimal
    trace: Trace


def dunning_fee(tax_principal: Decimal, custody_costs: Decimal = ZERO,
                rate: Decimal = DUNNING_FEE_RATE) -> DunningFee:
    """R-C3, 13 LPRA § 33262(j): 10% of the tax principal (surcharges excluded), plus the
    custody and deposit costs at cost."""
    fee = _fee(tax_principal, rate)
    t = Trace()
    t.add("R-C3", N_("Dunning agent's fee: {rate} of the tax principal {principal} = {fee}; "
                     "plus custody costs {custody}."),
          rate=Rate(rate), principal=tax_principal, fee=fee, custody=custody_costs)
    return DunningFee(fee, fee + custody_costs, t)


def _fee(tax_principal: Decimal, rate: Decimal = DUNNING_FEE_RATE) -> Decimal:
    """R-C3: the dunning agent's fee alone, cents(rate x tax principal)."""
    return cents(rate * tax_principal)


@dataclass(frozen=True)
class AttachmentNotice:
    """R-C1, 13 LPRA § 33262(a): what a notice of attachment states: taxes, levies, fines,
    interest, surcharges and penalties due and unpaid, and the dunning agent's fee."""

    taxes: Decimal
    levies: Decimal
    fines: Decimal
    interest: Decimal
    surcharges: Decimal
    penalties: Decimal
    dunning_fee: Decimal

    @property
    def total(self) -> Decimal:
        """R-C1, 13 LPRA § 33262(a): everything the notice states as due and unpaid."""
        return (self.taxes + self.levies + self.fines + self.interest + self.surcharges
                + self.penalties + self.dunning_fee)


def attachment_notice(taxes: Decimal, surcharges: Decimal = ZERO, interest: Decimal = ZERO,
                      penalties: Decimal = ZERO, levies: Decimal = ZERO, fines: Decimal = ZERO,
                      custody_costs: Decimal = ZERO) -> AttachmentNotice:
    """R-C1 + R-C3, 13 LPRA § 33262(a), (j): the notice, with the dunning fee computed on the
    tax principal (surcharges excluded) plus custody costs."""
    fee = dunning_fee(taxes, custody_costs)
    return AttachmentNotice(taxes, levies, fines, interest, surcharges, penalties, fee.total)


@dataclass(frozen=True)
class SaleStop:
    """R-C7, 13 LPRA § 33262(b), (e), (j): what stops the attachment sale if paid on `on`."""

    notice_amount: Decimal  # the debt the notice states (taxes ... penalties), without the fee
    accrued: Decimal  # interest and surcharges accrued from the notice to the day of payment
    dunning_fee: Decimal  # R-C3: 10 % of the tax principal
    custody_costs: Decimal  # at cost, to the day of payment
    amount: Decimal  # the sum: paid in full on `on`, it stops the sale
    last_day: date  # R-C2: 30 days from the notice, rolled over weekends and legal holidays
    sale_from: date  # R-C2: the first day of a possible sale
    stage: str  # "payment_window" (on <= last_day) | "sale_possible"
    trace: Trace


def sale_stop(notice: AttachmentNotice, notified_on: date, on: date, *,
              accrued: Decimal = ZERO, custody_costs: Decimal = ZERO) -> SaleStop:
    """R-C7, 13 LPRA § 33262(b), (e), (j): the sale is stopped by paying the amount in the
    notice plus what accrued to the day of payment (`accrued`: the interest and surcharges
    the Treasury adds after the notice, an input: the portal keeps no Treasury ledger), the
    dunning agent's fee (R-C3, on the tax principal) and the custody costs (at cost, to the
    day of payment). The notice's date is the day of personal delivery or of the certified
    mailing (R-C7). The R-C2 days are met at the Treasury: they roll over weekends and legal
    holidays, not the Board's closed days (`deadlines.TREASURY_KINDS`)."""
    return _sale_stop(notice, on, accrued, custody_costs, *_notice_terms(notice, notified_on))


def _notice_terms(notice: AttachmentNotice, notified_on: date) -> tuple[Decimal, date, date]:
    """What a notice's sale stop counts whatever the day of payment: the dunning agent's fee
    on the tax principal (R-C3), the last day to pay and the first day of a sale (R-C2)."""
    return (_fee(notice.taxes), deadline("attachment_payment", notified_on),
            deadline("attachment_sale", notified_on))


def _sale_stop(notice: AttachmentNotice, on: date, accrued: Decimal, custody_costs: Decimal,
               fee: Decimal, last: date, sale_from: date) -> SaleStop:
    """`sale_stop` with the notice's terms (`_notice_terms`) given."""
    debt = (notice.taxes + notice.levies + notice.fines + notice.interest + notice.surcharges
            + notice.penalties)
    amount = debt + accrued + fee + custody_costs
    stage = "payment_window" if on <= last else "sale_possible"
    t = Trace()
    t.add("R-C7", N_("Paid in full on {on}, {amount} stops the sale: the notice's {debt}, "
                     "{accrued} accrued since, the dunning agent's fee {fee} and custody costs "
                     "{custody}."), on=on, amount=amount, debt=debt, accrued=accrued, fee=fee,
          custody=custody_costs)
    t.add("R-C2", N_("The last day to pay in full is {last}; from {first} the property may be "
                     "sold."), last=last, first=sale_from)
    return SaleStop(debt, accrued, fee, custody_costs, amount, last, sale_from, stage, t)


@dataclass(frozen=True)
class Accrual:
    """What the Treasury states accrued on a notice's debt after the notice (R-C7): to the day
    `stated_on`, `accrued` (interest, surcharges and penalties since the notice), `per_day`
    (what each later day adds, as the Treasury states it) and `custody_costs` (the custody and
    deposit costs to that day, at cost: the total, not an addition)."""

    stated_on: date
    accrued: Decimal
    per_day: Decimal = ZERO
    custody_costs: Decimal = ZERO


@dataclass(frozen=True)
class AccruedTo:
    """What accrued from the notice to a day of payment, from the Treasury's statements."""

    accrued: Decimal  # the statement's accrued, plus per_day for each day after it
    custody_costs: Decimal
    basis: Accrual | None  # the statement used (None: none yet, nothing accrued)
    days_after: int  # days from the statement to the day of payment


def accrued_to(accruals: Iterable[Accrual], notified_on: date, on: date,
               notice_custody: Decimal = ZERO) -> AccruedTo:
    """R-C7, 13 LPRA § 33262(b), (j): what accrued from the notice to the day of payment `on`,
    from the Treasury's statements recorded (the portal keeps no Treasury ledger and the Code's
    interest is not computed here, policy): the latest statement dated on or after the notice
    and on or before `on` (of two on the same day, the later in the list), its `accrued` plus
    cents(`per_day` × the days from its date to `on`), and its custody costs. No statement
    yet: nothing accrued, and the custody costs are the notice's."""
    best: Accrual | None = None
    for a in accruals:
        if notified_on <= a.stated_on <= on and (best is None or a.stated_on >= best.stated_on):
            best = a
    if best is None:
        return AccruedTo(ZERO, notice_custody, None, 0)
    days = (on - best.stated_on).days
    return AccruedTo(best.accrued + cents(best.per_day * days), best.custody_costs, best, days)


@dataclass(frozen=True)
class SaleStopDays:
    """R-C7 on a day and on the last day of the 30 (R-C2): what stops the sale."""

    on: SaleStop  # paid on the day asked
    on_last_day: SaleStop | None  # paid on the last day of the 30 (None after it)


def sale_stop_from(notice: AttachmentNotice, notified_on: date, on: date,
                   accruals: Iterable[Accrual] = (), notice_custody: Decimal = ZERO
                   ) -> SaleStopDays:
    """R-C7 with what accrued read from the Treasury's statements (`accrued_to`): the amount
    that stops the sale paid on `on`, and paid on the last day (while `on` is not after it;
    only what is recorded on `on` is known, so the last day's figure uses the same statements
    with their per-day accrual to that day)."""
    known = [a for a in accruals if a.stated_on <= on]
    terms = _notice_terms(notice, notified_on)

    def stop(day: date) -> SaleStop:
        acc = accrued_to(known, notified_on, day, notice_custody)
        res = _sale_stop(notice, day, acc.accrued, acc.custody_costs, *terms)
        if acc.basis is not None:
            res.trace.add("R-C7", N_("Accrued since the notice, as the Treasury stated it to "
                                     "{stated}: {accrued}, plus {per_day} a day for {days} "
                                     "days: {total}; custody costs to that day {custody}."),
                          stated=acc.basis.stated_on, accrued=acc.basis.accrued,
                          per_day=acc.basis.per_day, days=acc.days_after, total=acc.accrued,
                          custody=acc.custody_costs)
        return res

    today = stop(on)
    last = today.last_day
    return SaleStopDays(today, stop(last) if on <= last else None)
