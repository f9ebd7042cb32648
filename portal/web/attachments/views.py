"""What the attachment pages show: the service's records and the core's figures, formatted in
the reader's language (no figure is computed here)."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace
from typing import Any

from flask_babel import lazy_gettext as _l

from portal.i18n import Formats
from portal.services.attachments import ParcelAttachments

CREDITORS = {"crim": _l("CRIM (Municipal Revenue Collection Center)"),
             "treasury": _l("Department of the Treasury")}
DELIVERIES = {"personal": _l("in person"), "certified_mail": _l("by certified mail")}
OUTCOMES = {"adjudicated_to_crim": _l("Adjudicated to the CRIM at the minimum (no bids)"),
            "sold": _l("Sold")}
ITEMS = {"taxes": _l("Taxes"), "surcharges": _l("Surcharges"), "interest": _l("Interest"),
         "penalties": _l("Penalties"), "levies": _l("Levies"), "fines": _l("Fines"),
         "costs": _l("Costs")}


def _notice(nv: Any, f: Formats) -> SimpleNamespace:
    n = nv.notice
    return SimpleNamespace(
        id=n.id, notified_text=f.date_long(n.notified_on),
        delivery_text=str(DELIVERIES.get(n.delivery, n.delivery)),
        number=n.certified_mail_number,
        items=[(str(ITEMS[k]), f.money(v)) for k, v in nv.figures],
        fee_text=f.money(n.dunning_fee), total_text=f.money(n.total),
        last_day=n.last_day, sale_on=n.earliest_sale_on,
        sale_text=f.date_long(n.earliest_sale_on),
        why_fee=f.trace(nv.why_fee), why_term=f.trace(nv.why_term))


def _auction(av: Any, f: Formats) -> SimpleNamespace:
    a, m, r = av.auction, av.minimum, av.result
    result = None if r is None else SimpleNamespace(
        outcome_text=str(OUTCOMES.get(r.outcome, r.outcome)), held_text=f.date_long(r.held_on),
        bids=r.bids, price_text=f.money(r.price), shortfall=r.shortfall,
        shortfall_text=f.money(r.shortfall))
    return SimpleNamespace(
        id=a.id, number=a.auction_number, appraised_text=f.date_long(a.appraised_on),
        real_value_text=f.money(a.real_value), mortgage_text=f.money(a.mortgage_amount),
        equity_text=f.money(a.equity), credit_text=f.money(a.credit),
        floor_text=f.money(a.floor), minimum_text=f.money(a.minimum),
        why=f.trace(m.trace), result=result)


def summary_view(s: ParcelAttachments | None, f: Formats) -> SimpleNamespace | None:
    """The parcel's debts for staff or the debtor (None: the service found the reader may not
    see them, R-C5)."""
    if s is None:
        return None
    debts = []
    for dv in s.debts:
        d = dv.debt
        debts.append(SimpleNamespace(
            id=d.id, creditor=d.creditor, creditor_text=str(CREDITORS[d.creditor]),
            years=d.fiscal_years,
            amounts=[(str(ITEMS[k]), f.money(getattr(d, k))) for k in ITEMS
                     if getattr(d, k) or k == "taxes"],
            paid=d.paid_on is not None,
            paid_text=f.date_long(d.paid_on) if d.paid_on else None,
            notice=_notice(dv.notice, f) if dv.notice else None,
            auctions=[_auction(a, f) for a in dv.auctions]))
    today: date = s.today
    return SimpleNamespace(debts=debts, today=today, relation=s.relation)
