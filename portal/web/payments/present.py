"""Words and formatting for the payment pages and their errors. The receipt's view (page,
PDF, email) is `portal.documents.receipt`'s; the pages' names for it are kept here.

No amount is computed here: every figure comes from the core (`portal.core.offer`) or
the ledger (`portal.payments.receipts`). Messages are catalog entries (N_ marks them for
extraction; they are translated when shown).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from portal import clock, money_input
from portal.core import offer as core_offer
from portal.core import payment_states as states
from portal.core.explain import N_
from portal.documents.receipt import (
    STATUS_CSS,
    LineView,
    ReceiptView,
    kind_label,
    line_label,
    line_rules,
    method_label,
    receipt_view,
    status_label,
    t,
)
from portal.i18n import current_locale, date_long, money
from portal.i18n import gettext as _

__all__ = ["ERRORS", "GATEWAY", "LUMP_GONE", "STAFF_ERRORS", "STATUS_CSS", "LineView",
           "ReceiptView", "error_text", "gateway_error", "kind_label", "lump_gone",
           "method_label", "money", "others_paying", "preview_lines", "receipt_view",
           "status_label", "t"]

ERRORS = {
    "not_a_number": N_("Write the amount with numbers only, for example 125.50."),
    "negative": N_("The amount cannot be negative."),
    "zero": N_("The amount must be more than $0.00."),
    "too_many_decimals": N_("Write at most two decimals (the cents)."),
    "too_small": N_("The smallest amount you can pay is {minimum}."),
    "too_much": N_("That is more than you owe: the pay-off amount today is {payoff}."),
    "nothing_due": N_("Nothing is due on this account now."),
    "unknown_installment": N_("That installment is not one of this account's. Choose one from "
                              "the list."),
    "installment_paid": N_("That installment is already paid. Choose a later one."),
    "lump_sum_unavailable": N_("The lump-sum discount is not available for this account."),
    "nothing_chosen": N_("Choose what to pay for at least one parcel."),
    "duplicate_account": N_("Choose only one option per parcel."),
    "not_yours": N_("That account is not one you can pay. Choose from the list."),
    "total_too_small": N_("The total must be at least {minimum} to pay online."),
    "unknown_kind": N_("Choose one of the options."),
    "changed": N_("The amounts changed since you reviewed them (a payment was posted or a day "
                  "passed). Review the new amounts and confirm again."),
}

#: The same problems in staff's words (the office form is not addressed to the payer).
STAFF_ERRORS = {
    "too_much": N_("More than this account's pay-off of {payoff}."),
    "nothing_due": N_("Nothing is owed on this account."),
}

LUMP_GONE = {
    "granted": N_("The lump-sum discount of {discount} was granted on {date} (rule R-A11)."),
    "late": N_("The lump-sum discount ended on {deadline}."),
    "not_first": N_("The lump-sum discount is only for a year of which nothing has been paid "
                    "yet."),
    "no_discount": N_("The Authority has not set a lump-sum discount for this year."),
    "nothing_due": N_("Nothing is left to pay this year."),
    "short": N_("The lump-sum discount needs the whole year in one payment."),
    "repeat": N_("The lump-sum discount was already granted this year."),
}

GATEWAY = {
    "unavailable": N_("The payment service is not answering right now. Nothing was charged. "
                      "Please try again in a few minutes."),
    "declined": N_("The payment was declined. Nothing was charged. Try another card or bank "
                   "account."),
    "rejected": N_("The payment could not be started. Nothing was charged. Please try again "
                   "later, or call the Authority."),
}


def _time(instant: Any) -> str:
    """A time of day in Puerto Rico, in the page's language (10:15 a. m.)."""
    from datetime import UTC

    from babel.dates import format_time

    aware = instant if instant.tzinfo is not None else instant.replace(tzinfo=UTC)  # SQLite
    local = aware.astimezone(clock.PR_TZ)
    return format_time(local, "short", locale=current_locale())


def others_paying(others: list[Any], catastro: dict[str, str]) -> list[str]:
    """One sentence per someone else's payment of the same accounts (`service.OtherPayer`):
    who (their name, or "another person with access"), which parcels, and when."""
    out = []
    for o in others:
        name = o.name.strip() or _("Another person with access")
        params = {"name": name, "parcels": ", ".join(catastro.get(k, k) for k in o.accounts),
                  "date": date_long(clock.legal_date(o.started_at)),
                  "time": _time(o.started_at)}
        if o.status == states.PROCESSING:
            out.append(_("%(name)s paid parcel %(parcels)s from a bank account on %(date)s at "
                         "%(time)s; the bank is still processing that payment.", **params))
        else:
            out.append(_("%(name)s started paying parcel %(parcels)s on %(date)s at %(time)s "
                         "and has not finished yet.", **params))
    return out


def error_text(code: str, params: dict[str, Any] | None = None, *, staff: bool = False
               ) -> str:
    """The message for a refused choice; `staff` words it for the office, not the payer."""
    params = dict(params or {})
    if staff and code in STAFF_ERRORS:
        values = {k: money(v) if isinstance(v, Decimal) else v for k, v in params.items()}
        return t(STAFF_ERRORS[code], **values)
    if code.startswith("money_"):  # an amount refused as typed (`amounts.parse_amount`)
        return money_input.MoneyInputError(code.removeprefix("money_"), **params).message()
    if code == "lump_sum_unavailable":
        return lump_gone(params.get("reason"), params.get("deadline"), params.get("discount"),
                         params.get("granted_on"))
    values = {k: money(v) if isinstance(v, Decimal) else v for k, v in params.items()}
    return t(ERRORS.get(code, ERRORS["unknown_kind"]), **values)


def lump_gone(reason: str | None, deadline: Any, discount: Decimal | None = None,
              granted_on: Any = None) -> str:
    """Why the lump sum is not offered; once granted, its amount and date."""
    text = LUMP_GONE.get(reason or "", ERRORS["lump_sum_unavailable"])
    return t(text, deadline=date_long(deadline) if deadline else "—",
             discount=money(discount) if discount is not None else "—",
             date=date_long(granted_on) if granted_on else "—")


def gateway_error(kind: str) -> str:
    return t(GATEWAY.get(kind, GATEWAY["rejected"]))


def preview_lines(part: core_offer.Part, cost_kinds: dict[int, str] | None = None
                  ) -> list[LineView]:
    """How the core would apply a priced part today (the review page)."""
    costs = {c.index: c.cost.description for c in part.after.cost_items}
    out = []
    for ln in part.application.lines:
        if ln.kind == "discount":
            continue  # shown apart, below the lines the money pays
        ids, title = line_rules(ln.kind, ln.rule)
        out.append(LineView(line_label(ln.kind, ln.installment,
                                       costs.get(ln.cost) if ln.cost is not None else None),
                            ln.amount, ids, title, ln.kind))
    return out
