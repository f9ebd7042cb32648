"""The demo's attachment figures (portal/collections/attachments.load_demo), as anyone can check
them with `portal calc`: the figures the pages, the PDF and the tests show are the core's
public operations' (R-C2, R-C3, R-C4)."""

from __future__ import annotations

from portal.core.calc import run


def test_the_demo_notice():
    """R-C3: 10 % of 2,840.00 = 284.00, plus 35.00 custody = 319.00. R-C2: notified Monday
    2026-11-16: the 30th day is Wednesday 2026-12-16; a sale from 2026-12-17."""
    fee = run("dunning_fee", {"tax_principal": "2840.00", "custody_costs": "35.00"})
    assert (fee["fee"], fee["total"]) == ("284.00", "319.00")
    last = run("deadline", {"kind": "attachment_payment", "date": "2026-11-16"})
    sale = run("deadline", {"kind": "attachment_sale", "date": "2026-11-16"})
    assert (last["date"], sale["date"]) == ("2026-12-16", "2026-12-17")


def test_the_demo_auction_minimum():
    """R-C4: equity 185,000.00 − 162,450.18 = 22,549.82; credit 3,120.40 + 156.02 + 498.77 +
    75.00 + 120.00 = 3,970.19; floor 3,120.40 + 156.02 + 498.77 = 3,775.19; the minimum is
    the lesser of equity and credit, 3,970.19, above the floor."""
    out = run("auction_minimum", {"real_value": "185000.00", "mortgage_amount": "162450.18",
                                  "taxes": "3120.40", "surcharges": "156.02",
                                  "interest": "498.77", "penalties": "75.00",
                                  "costs": "120.00"})
    assert (out["equity"], out["credit"], out["floor"], out["minimum"]) == (
        "22549.82", "3970.19", "3775.19", "3970.19")
