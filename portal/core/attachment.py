"""The Secretary of the Treasury's attachment: R-C1 to R-C3 (13 LPRA § 33262).

It applies to taxes under the Internal Revenue Code, not to District assessments (those are
claimed in court, R-A13). The deadlines of R-C2 are in `deadlines` (attachment_payment,
attachment_sale).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

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
    fee = cents(rate * tax_principal)
    t = Trace()
    t.add("R-C3", N_("Dunning agent's fee: {rate} of the tax principal {principal} = {fee}; "
                     "plus custody costs {custody}."),
          rate=Rate(rate), principal=tax_principal, fee=fee, custody=custody_costs)
    return DunningFee(fee, fee + custody_costs, t)


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
