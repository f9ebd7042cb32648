"""The parcel page's property-tax debts (`portal.web.fragments.debts`) write what the staff's
page includes (templates/collections/attachments/_debts.html without its forms), byte for
byte, in both languages, through every branch: a notice with and without its number, paid
and owed, what stops the sale with and without its last day, accruals with and without a
reference, auctions with a result (with and without a shortfall) and without one, a debt
with no notice."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from types import SimpleNamespace as NS

import pytest

from portal.i18n import ShownStep, use_language
from portal.web import fragments, locale

STEPS = [ShownStep("R-C3", "13 LPRA § 33262(j)", "Dunning <fee>", "10% of $2,840.00 & more"),
         ShownStep("R-C2", "", "", "Thirty days")]


def _stop(last: bool) -> NS:
    return NS(amount=Decimal("3662.65"), amount_text="$3,662.65",
              parts=[("The debt <the notice> states", "$3,343.65"), ("Accrued", "$0.00")],
              last_amount=Decimal("3700.10") if last else None,
              last_text="$3,700.10" if last else None, last_day=date(2026, 12, 16),
              last_day_text="December 16, 2026", sale_possible=not last, why=STEPS)


def _notice(nid: int, number: str | None, stop: NS | None, accruals: list) -> NS:
    return NS(stop=stop, accruals=accruals, id=nid, notified_text="November 16, 2026",
              delivery_text="by certified mail", number=number,
              items=[("Taxes", "$2,840.00"), ("Interest <&>", "$12.00")],
              fee_text="$319.00", total_text="$3,662.65", last_day=date(2026, 12, 16),
              sale_on=date(2026, 12, 17), sale_text="December 17, 2026", why_fee=STEPS,
              why_term=STEPS[1:])


def _auction(aid: int, result: NS | None) -> NS:
    return NS(id=aid, number=f"A-{aid}", appraised_text="November 2, 2026",
              real_value_text="$185,000.00", mortgage_text="$162,450.18",
              equity_text="$22,549.82", credit_text="$3,970.19", floor_text="$3,775.19",
              minimum_text="$3,970.19", why=STEPS, result=result)


def _result(shortfall: str) -> NS:
    return NS(outcome_text="Sold", held_text="January 5, 2027", bids=3,
              price_text="$4,000.00", shortfall=Decimal(shortfall),
              shortfall_text=f"${shortfall}")


def _debt(did: int, *, paid: bool, notice: NS | None, auctions: list) -> NS:
    return NS(id=did, creditor="crim", creditor_text="CRIM <Municipal> & Co",
              years="2023-2024, 2024-2025", amounts=[("Taxes", "$2,840.00"),
                                                     ("Surcharges", "$142.00")],
              paid=paid, paid_text="December 1, 2026" if paid else None, notice=notice,
              auctions=auctions)


ACCRUALS = [NS(stated_text="December 1, 2026", accrued_text="$12.50", per_day_text="$0.40",
               custody_text="$25.00", reference="TR-<9>"),
            NS(stated_text="December 5, 2026", accrued_text="$14.10", per_day_text="$0.40",
               custody_text="$25.00", reference="")]
ATT = NS(today=date(2026, 11, 30), relation="owner", parcel_id=7, debts=[
    _debt(1, paid=False, notice=_notice(11, "9407 1118", _stop(True), ACCRUALS),
          auctions=[_auction(21, _result("120.00")), _auction(22, None)]),
    _debt(2, paid=True, notice=_notice(12, None, _stop(False), []),
          auctions=[_auction(23, _result("0.00"))]),
    _debt(3, paid=False, notice=None, auctions=[]),
    _debt(4, paid=False, notice=_notice(14, "1", None, []), auctions=[_auction(24, None)]),
])


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("count", [4, 1, 0])
def test_debts_write_the_staff_pages_markup_without_its_forms(app, lang: str, count: int):  # noqa: ANN001
    att = NS(**{**vars(ATT), "debts": ATT.debts[:count] if count > 1 else ATT.debts[3:]
                if count == 1 else []})
    with app.test_request_context("/"), use_language(lang):
        template = app.jinja_env.get_template("collections/attachments/_debts.html")
        written = template.render(att=att, staff_forms=False, **locale._gettext_for(lang))
        url_for = app.jinja_env.globals["url_for"]
        assert str(fragments.debts(att, url_for)) == written
