"""Outliers in a residential-exemption certification (the bulk review): amounts
the filer typed that are far from the parcel's CRIM facts for the year. Pure: the review
(`portal.exemptions.bulk_review`) reads the facts and the answers and asks this.

The rule (docs/EXEMPTION.md, "Review in bulk"), each flag with its code:
- `no_crim_facts`: the CRIM's facts for the year are missing, so no amount can be checked.
- `residential_over_total`: the residential valuation typed is larger than the CRIM's whole
  valuation of the parcel (land and structures): the home cannot be worth more than the
  property it is part of.
- `residential_far_from_crim`: the CRIM records a residential valuation and the typed one is
  more than `FAR_FACTOR` times it, or less than one `FAR_FACTOR`-th of it.
- `veteran_over_total`: the veterans' exemption typed is larger than the CRIM's whole
  valuation.
A zero or missing typed amount is never an outlier."""

from __future__ import annotations

from decimal import Decimal

#: How far from the CRIM's residential valuation a typed one may be before it is flagged.
FAR_FACTOR = Decimal(2)
FLAGS = ("no_crim_facts", "residential_over_total", "residential_far_from_crim",
         "veteran_over_total")


def outliers(*, crim_total: Decimal | None, crim_residential: Decimal | None,
             typed_residential: Decimal | None, typed_veteran: Decimal | None
             ) -> tuple[str, ...]:
    """The flags (codes of `FLAGS`, in that order) of a certification's typed amounts."""
    typed = [a for a in (typed_residential, typed_veteran) if a]
    if not typed:
        return ()
    if crim_total is None:
        return ("no_crim_facts",)
    out = []
    if typed_residential and typed_residential > crim_total:
        out.append("residential_over_total")
    if typed_residential and crim_residential and (
            typed_residential > crim_residential * FAR_FACTOR
            or typed_residential * FAR_FACTOR < crim_residential):
        out.append("residential_far_from_crim")
    if typed_veteran and typed_veteran > crim_total:
        out.append("veteran_over_total")
    return tuple(out)
