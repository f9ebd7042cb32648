"""What a lender said it will pay (J7), as the owner's pages show it: the parcel page's
notice and the pay pages' guard against paying twice ("Your bank said it will pay this").
No route here, and no import of the lender's blueprint: the payments' pages use it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask_login import current_user

from portal import clock
from portal.accounts.errors import NotFound
from portal.db import UnitOfWork
from portal.i18n import gettext as _
from portal.lenders import intents
from portal.payments.service import parse_key
from portal.web.data import uow


def item_label(kind: str, crim_half: int | None = None, number: int | None = None) -> str:
    """What an intent or an item covers, in the user's language."""
    if kind == "crim_bill":
        return (_("CRIM property-tax bill of July 1") if crim_half == 1
                else _("CRIM property-tax bill of January 1"))
    if kind == "district_installment":
        return _("District installment %(number)s", number=number)
    return _("What is due now to the District")


def shown(v: intents.IntentView) -> dict[str, Any]:
    """An intent as the owner's pages list it (templates/lenders/_marks.html)."""
    return {"id": v.id, "lender": v.lender_name, "amount": v.amount,
            "what": item_label(v.kind, v.crim_half, v.installment_number),
            "date": clock.legal_date(v.marked_at), "parcel_id": v.parcel_id,
            "key": f"{v.parcel_id}-{v.fiscal_year_id}"}


def account_marks(keys: Iterable[str], w: UnitOfWork | None = None) -> list[dict[str, Any]]:
    """The District intents in force on these accounts ("parcel-fiscal year" keys) of
    lenders the user does not work for: the pay pages show them and ask to confirm (read in
    the page's unit of work `w` when given)."""
    accounts = []
    for k in keys:
        try:
            accounts.append(parse_key(k))
        except NotFound:  # (a key the user may not pay is refused by the payments)
            continue
    if not accounts:
        return []
    if w is None:
        with uow() as own:
            found = intents.for_accounts(own, current_user, accounts)
    else:
        found = intents.for_accounts(w, current_user, accounts)
    return [shown(v) for views in found.values() for v in views]
