"""One payment for many parcels (a lender's filtered loans, or a CSV of loan numbers): the
review of the existing payments flow, with "what is due now" chosen for each parcel that
has something due. The confirmation is the payments' own (`payments.confirm`)."""

from __future__ import annotations

from collections.abc import Sequence

from flask_login import current_user

from portal import clock
from portal.accounts import access
from portal.core import offer as core_offer
from portal.payments import service
from portal.web.data import uow
from portal.web.payments import routes


def review_many(parcel_ids: Sequence[int]):  # noqa: ANN201
    """The payments' review page for what is due now on each of these parcels (only those the
    user may pay; the caller chose them among the user's own loans)."""
    today = clock.today()
    with uow() as w:
        rows = service.may_pay(w, current_user,
                               access.linked_parcels_of(w, current_user, parcel_ids))
        accounts = service.account_offers(w, rows, today)
    choices = [core_offer.Choice(a.key, "due_now") for a in accounts if a.offer.due_now > 0]
    if not choices:
        return None
    priced, errors, offers = routes._price(accounts, choices)
    if priced is None:
        return routes._choose_page(accounts, {}, errors, offers, status=400)
    values = {c.account: {"choice": "due_now", "through": "", "amount": ""} for c in choices}
    return routes._review_page(accounts, priced, values)
