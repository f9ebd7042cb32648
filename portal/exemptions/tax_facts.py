"""Property-tax facts: the CRIM's valuation of a parcel for a fiscal year (R-B1, R-B2,
R-B7, R-B11) and the core's inputs built from them.

The demo's facts (`load_demo`) are written by one INSERT ... SELECT over the parcels (no list
of parcels in memory): the CRIM's 1957-basis valuation is illustrated as a tenth of the
District's valuation of land and structure, marked `illustrative`.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import case, func, insert, literal, select

from portal import clock
from portal.accounts.errors import NotFound
from portal.core import property_tax
from portal.core.errors import CalcError, ParameterNotFound
from portal.db import UnitOfWork
from portal.models import Parcel, PropertyTaxFact, UTCDateTime

DEMO_SOURCE = "Demo: illustrative values (a tenth of the District's valuation), not the CRIM's"
DEMO_FACTOR = Decimal("0.1")
DEMO_DEBT = Decimal("318.40")


def facts_for(uow: UnitOfWork, parcel_id: int, fy_start: date) -> PropertyTaxFact:
    """The parcel's property-tax facts for the fiscal year; `NotFound` (code
    "no_property_tax_facts") when the CRIM has none on file."""
    row = uow.session.scalars(select(PropertyTaxFact).where(
        PropertyTaxFact.parcel_id == int(parcel_id),
        PropertyTaxFact.fiscal_year_start == fy_start)).first()
    if row is None:
        raise NotFound("no_property_tax_facts")
    return row


def has_facts(uow: UnitOfWork, parcel_id: int, fy_start: date) -> bool:
    """Are the CRIM's facts on file for the year, with a tax rate for their municipality
    (without both, no figure can be computed: the certification cannot be filed online)?"""
    municipality = uow.session.scalar(select(PropertyTaxFact.municipality).where(
        PropertyTaxFact.parcel_id == int(parcel_id),
        PropertyTaxFact.fiscal_year_start == fy_start))
    if municipality is None:
        return False
    try:
        property_tax.tax_rate(municipality, fy_start)
    except (CalcError, ParameterNotFound):
        return False
    return True


def load_demo(uow: UnitOfWork, fy_start: date, *, debt_parcel_ids: tuple[int, ...] = ()
              ) -> int:
    """The demo's property-tax facts for every private parcel for the fiscal year
    (illustrative), in one statement; the parcels in `debt_parcel_ids` owed property tax on
    the January 1 before it (R-B11). Returns the number of rows written."""
    factor = literal(DEMO_FACTOR)
    debt = (case((Parcel.id.in_(list(debt_parcel_ids)), literal(DEMO_DEBT)), else_=literal(0))
            if debt_parcel_ids else literal(0))
    src = (select(Parcel.id, literal(fy_start), Parcel.municipality, Parcel.zone,
                  Parcel.land_area_cuerdas, func.round(Parcel.land_valuation * factor, 2),
                  func.round(Parcel.structure_valuation * factor, 2), debt, literal(True),
                  literal(DEMO_SOURCE), literal(clock.now(), UTCDateTime()))
           .where(Parcel.owner_kind == "private"))
    cols = ["parcel_id", "fiscal_year_start", "municipality", "zone", "land_area_cuerdas",
            "land_valuation", "structure_valuation", "debt_on_january_1", "illustrative",
            "source", "created_at"]
    result = uow.session.execute(insert(PropertyTaxFact).from_select(cols, src))
    return int(result.rowcount or 0)
