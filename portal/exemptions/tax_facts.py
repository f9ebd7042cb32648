"""Property-tax facts: the CRIM's valuation of a parcel for a fiscal year (R-B1, R-B2,
R-B7, R-B11) and the core's inputs built from them.

The demo's facts (`load_demo`) are written by one INSERT ... SELECT over the parcels (no list
of parcels in memory): the CRIM's 1957-basis valuation is illustrated as a tenth of the
District's valuation of land and structure, marked `illustrative`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import case, func, insert, literal, or_, select

from portal import clock
from portal.accounts.errors import NotFound
from portal.core import params, property_tax
from portal.core.errors import CalcError, ParameterNotFound
from portal.db import UnitOfWork
from portal.models import Parcel, PropertyTaxFact, TaxDebt, UTCDateTime

DEMO_SOURCE = "Demo: illustrative values (a tenth of the District's valuation), not the CRIM's"
DEMO_FACTOR = Decimal("0.1")
DEMO_DEBT = Decimal("318.40")
#: The CRIM's values a certification of a fiscal year reads (R-B1 its rates, R-B10 its bills
#: and their discount, R-B9 its filing date, R-B16 a plan's terms): adopted by the CRIM for
#: named years (`set_by = "crim"`), never carried over to a year it has not adopted them for.
CRIM_VALUES = ("property_tax_rate", "crim_billing_dates", "crim_prepayment_discount_rate",
               "certification_filing_deadline", "plan_max_payments", "plan_down_payment_rate")


@dataclasses.dataclass(frozen=True)
class Facts:
    """The CRIM's facts of a parcel for a fiscal year as the certification reads them: the
    `PropertyTaxFact` row's values, with `debt_on_january_1` the larger of the row's and the
    property-tax debts recorded on the parcel still unpaid that January 1 (R-B11: a debt
    the CRIM or the Treasury recorded, an auction pending, is a debt the owner must answer
    for, whatever the year's row says)."""

    parcel_id: int
    fiscal_year_start: date
    municipality: str
    zone: str
    land_area_cuerdas: Decimal
    land_valuation: Decimal
    structure_valuation: Decimal
    residential_valuation: Decimal | None
    debt_on_january_1: Decimal
    illustrative: bool
    source: str

    @property
    def valuation(self) -> Decimal:
        """The property's valuation, land and structures (R-B3: what a veteran's exemption is
        deducted from, so at most this)."""
        return self.land_valuation + self.structure_valuation


_FIELDS = tuple(f.name for f in dataclasses.fields(Facts))
_LAST_YEAR = re.compile(r"(\d{4})\s*-\s*(\d{2,4})")


def _last_fy_end(fiscal_years: str) -> int | None:
    """The calendar year in which the last fiscal year written ("2023-2024, 2024-2025")
    ends (its June 30), or None when none is written."""
    ends = []
    for first, second in _LAST_YEAR.findall(fiscal_years or ""):
        ends.append(int(second) if len(second) == 4 else int(first) // 100 * 100 + int(second))
    return max(ends) if ends else None


def recorded_debts(uow: UnitOfWork, parcel_ids: Iterable[int], fy_start: date
                   ) -> dict[int, Decimal]:
    """parcel -> the property tax recorded as owed on it (`TaxDebt`, the CRIM's or the
    Treasury's) for fiscal years that ended (June 30) before the January 1 the exemption
    is judged on (that of `fy_start`'s year, R-B11) and not paid before that day."""
    ids = sorted({int(p) for p in parcel_ids})
    if not ids:
        return {}
    january_1 = date(fy_start.year, 1, 1)
    rows = uow.session.execute(select(
        TaxDebt.parcel_id, TaxDebt.fiscal_years,
        TaxDebt.taxes + TaxDebt.surcharges + TaxDebt.interest + TaxDebt.penalties
        + TaxDebt.levies + TaxDebt.fines + TaxDebt.costs)
        .where(TaxDebt.parcel_id.in_(ids),
               or_(TaxDebt.paid_on.is_(None), TaxDebt.paid_on >= january_1))).all()
    out: dict[int, Decimal] = {}
    for pid, years, total in rows:
        end = _last_fy_end(years)
        if end is not None and end < january_1.year:
            out[pid] = out.get(pid, Decimal(0)) + Decimal(total)
    return out


def view(row: Any, recorded: Decimal | None) -> Facts:
    """The facts of `row` (a `PropertyTaxFact` or a row with its columns) with the debts
    recorded on the parcel (`recorded_debts`)."""
    values = {name: getattr(row, name) for name in _FIELDS}
    values["debt_on_january_1"] = max(Decimal(row.debt_on_january_1 or 0),
                                      Decimal(recorded or 0))
    return Facts(**values)


def facts_for(uow: UnitOfWork, parcel_id: int, fy_start: date) -> Facts:
    """The parcel's property-tax facts for the fiscal year (`Facts`: the CRIM's row and the
    debts recorded on the parcel); `NotFound` (code "no_property_tax_facts") when the CRIM
    has none on file."""
    row = uow.session.scalars(select(PropertyTaxFact).where(
        PropertyTaxFact.parcel_id == int(parcel_id),
        PropertyTaxFact.fiscal_year_start == fy_start)).first()
    if row is None:
        raise NotFound("no_property_tax_facts")
    return view(row, recorded_debts(uow, [row.parcel_id], fy_start).get(row.parcel_id))


def has_facts(uow: UnitOfWork, parcel_id: int, fy_start: date) -> bool:
    """Are the CRIM's facts on file for the year, with a tax rate for their municipality
    (without both, no figure can be computed: the certification cannot be filed online)?"""
    return rated(uow.session.scalar(select(PropertyTaxFact.municipality).where(
        PropertyTaxFact.parcel_id == int(parcel_id),
        PropertyTaxFact.fiscal_year_start == fy_start)), fy_start)


def crim_values_missing(fy_start: date) -> tuple[str, ...]:
    """The names of the CRIM's values (`CRIM_VALUES`) the parameter files hold for no fiscal
    year opening on `fy_start`: a year the CRIM has not adopted them for yet."""
    out = []
    for name in CRIM_VALUES:
        try:
            params.for_fiscal_year(name, fy_start)
        except ParameterNotFound:
            out.append(name)
    return tuple(out)


def rated(municipality: str | None, fy_start: date) -> bool:
    """`has_facts` of facts already read: their municipality (None: no facts) has a tax
    rate for the year, and the CRIM's other values of the year are on file."""
    if municipality is None or crim_values_missing(fy_start):
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
