"""The Board's parameters by fiscal year as staff record them (R-A7, R-A8, R-A11, R-A17's
`demand_minimum`, J8), and
the days the Board declares closed (docs/rules/README.md, "Closed days"); what is in force is
read through `portal.accounts.in_force`.

Storage is append-only (`BoardParameterValue`): a change is a new row, and a parameter's
value for a fiscal year is its latest row in effect (by effective date, then by id). Only a
value the Board or the Authority adopts may be recorded: a rate they set, or a statute's
default the statute leaves to them (the grace day, the installments, the late fee's base, the
lump-sum deadline: `adoptable_by` in the files); a value only the law sets is shown read-only
with its clause. A recorded value is in force from its effective day: every statement computed
from then on reads it for the whole fiscal year, as with the rates. The number of
installments cannot change once the year's installments are written (`roll_written`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts import access, audit, in_force
from portal.accounts.errors import InvalidInput
from portal.core import params
from portal.core.params import (
    AdoptedValueError,
    ClosedDay,
    fiscal_year_label,
    fiscal_year_of_label,
    fiscal_year_start,
)
from portal.db import UnitOfWork
from portal.models import Assessment, AssessmentRoll, BoardParameterValue, FiscalYear, User
from portal.models.board_parameters import CLOSED_DAY
from portal.roll import roll

#: The parameters a statement or a deadline reads, in the order the page lists them.
LISTED = ("grace_day", "late_fee_rate", "late_fee_base", "interest_rate",
          "lump_sum_discount_rate", "lump_sum_deadline", "installment_count",
          "demand_minimum")
MAX_RESOLUTION = 40
MAX_REASON = 200
MAX_CLOSED_SPAN = 31  # days one declaration may close at once

_ROWS = select(BoardParameterValue).order_by(BoardParameterValue.id)


def editable() -> tuple[str, ...]:
    """The listed parameters staff may record a value for (the Board's or the Authority's)."""
    return tuple(n for n in LISTED if params.parameter(n).adopter in params.EDITABLE_BY)


def roll_written(uow: UnitOfWork, fy_start: date) -> bool:
    """R-A4, R-A5: whether the installments of the fiscal year opening on `fy_start` are
    written: a roll of the year is published (`roll.rolls`), or one is being published (an
    assessment of the year exists). Their number is fixed from then on: an amendment changes
    amounts, never the count."""
    fy = uow.session.scalar(select(FiscalYear).where(FiscalYear.starts_on == fy_start))
    if fy is None:
        return False
    if any(r.status == "published" for r in roll.rolls(uow, fy)):
        return True
    return uow.session.scalar(select(Assessment.id).join(
        AssessmentRoll, AssessmentRoll.id == Assessment.roll_id).where(
        AssessmentRoll.fiscal_year_id == fy.id).limit(1)) is not None



@dataclass
class Change:
    """One recorded row as the page shows it: value, effective date, resolution, who, when."""

    value: Any  # in the parameter's type (a Decimal for a rate); a closed day's ISO day
    effective_on: date
    resolution_number: str
    resolution_date: date
    by: str
    at: datetime
    in_force: bool = False
    pending: bool = False  # takes effect after today
    reason_es: str = ""
    reason_en: str = ""


@dataclass
class ParameterView:
    name: str
    rule: str
    set_by: str
    type: str
    editable: bool
    value: Any = None
    reference: str = ""
    error: str = ""
    changes: list[Change] = field(default_factory=list)
    adoptable_by: str | None = None  # the body that may replace the statute's default
    default: Any = None  # the statute's value (`adoptable_by`), with its clause
    default_reference: str = ""
    count_fixed: bool = False  # installment_count: the year's installments are written


@dataclass
class ClosedView:
    day: ClosedDay
    change: Change | None = None  # None: from the files


@dataclass
class YearView:
    label: str
    starts_on: date
    parameters: list[ParameterView]
    closed: list[ClosedView]


def _who(uow: UnitOfWork, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    rows = uow.session.execute(select(User.id, User.email).where(User.id.in_(sorted(ids))))
    return {uid: email for uid, email in rows}


def fiscal_years(today: date | None = None) -> list[date]:
    """The fiscal years the page offers: the current one, the next, and the two before."""
    first = fiscal_year_start(today or clock.today())
    return [date(first.year + k, 7, 1) for k in (1, 0, -1, -2)]


def year_view(uow: UnitOfWork, staff: Any, fy_start: date) -> YearView:
    """The parameters of one fiscal year as in force today, each with its reference and the
    recorded changes (who, when), and the days declared closed within the year."""
    access.require_staff(staff)
    label = fiscal_year_label(fy_start)
    ps = in_force.parameter_set(uow)
    rows = list(uow.session.scalars(_ROWS.where(BoardParameterValue.fiscal_year == label)))
    who = _who(uow, {r.created_by_id for r in rows if r.created_by_id is not None})
    today = clock.today()
    editable_names = editable()
    out = []
    for name in LISTED:
        p = ps.parameter(name)
        v = ParameterView(name, p.rule, p.set_by, p.type, name in editable_names,
                          adoptable_by=p.adoptable_by)
        try:
            dv = p.for_fiscal_year(fy_start)
        except params.ParameterNotFound:
            v.error = "none"
        else:
            v.value, v.reference = dv.value, dv.reference
        if p.adoptable_by is not None:
            default = params.parameter(name).at(fy_start)
            v.default, v.default_reference = default.value, default.reference
        if name == "installment_count":
            v.count_fixed = roll_written(uow, fy_start)
        mine = [r for r in rows if r.name == name]
        current = _latest(mine, today)
        v.changes = [_change(r, who, r is current, p.type, today) for r in reversed(mine)]
        out.append(v)
    end = date(fy_start.year + 1, 6, 30)
    recorded = {date.fromisoformat(r.value): r for r in rows if r.name == CLOSED_DAY}
    closed = [ClosedView(c, _change(recorded[c.day], who, True, "date", today)
                         if c.day in recorded else None)
              for c in ps.closed_days() if fy_start <= c.day <= end]
    return YearView(label, fy_start, out, closed)


def _in_force(r: Any, today: date) -> bool:
    """A recorded value is in force from its effective day, or already when it takes effect
    by its fiscal year's first day (`ParameterSet.with_values`: next year's rates)."""
    return r.effective_on <= today or (
        r.name != CLOSED_DAY and r.effective_on <= fiscal_year_of_label(r.fiscal_year))


def _latest(rows: list[Any], today: date) -> Any:
    best = None
    for r in rows:
        if _in_force(r, today) and (best is None or r.effective_on >= best.effective_on):
            best = r
    return best


def _change(r: Any, who: dict[int, str], current: bool, kind: str, today: date) -> Change:
    value: Any = r.value
    if kind == "decimal":
        value = Decimal(r.value)
    elif kind == "int":
        value = int(r.value)
    return Change(value, r.effective_on, r.resolution_number, r.resolution_date,
                  who.get(r.created_by_id, ""), r.created_at, current,
                  not _in_force(r, today), r.reason_es, r.reason_en)


# --- writing ------------------------------------------------------------------------------

def _resolution(number: str, resolved_on: date | None) -> str:
    number = (number or "").strip()
    if not number:
        raise InvalidInput("required", field="resolution_number")
    if len(number) > MAX_RESOLUTION:
        raise InvalidInput("too_long", field="resolution_number", most=MAX_RESOLUTION)
    if resolved_on is None:
        raise InvalidInput("required", field="resolution_date")
    if resolved_on > clock.today():
        raise InvalidInput("future", field="resolution_date")
    return number


def adopt(uow: UnitOfWork, staff: Any, fy_start: date, name: str, text: str,
          effective_on: date | None, resolution_number: str, resolution_date: date | None
          ) -> BoardParameterValue:
    """R-A4, R-A6, R-A7, R-A8, R-A11: record the value the Board (or the Authority) adopted
    for `name` in the fiscal year opening on `fy_start`: typed and within its bounds
    (`params.parse_adopted`), effective on a day no earlier than the resolution and no later
    than the year's last day; the number of installments only while the year's are not
    written (`roll_written`). A new row (the old ones stay); audit-logged with the value it
    replaces. `InvalidInput` naming the field otherwise; nothing is written then."""
    access.require_staff_role(staff, *access.MANAGE)
    fy_start = fiscal_year_of_label(fiscal_year_label(fy_start))
    if name not in editable():
        raise InvalidInput("not_editable", field="name")
    try:
        value = params.parse_adopted(name, text, fy_start)
    except AdoptedValueError as exc:
        raise InvalidInput(exc.code, field="value", **{k: str(v) for k, v in
                                                       exc.params.items()}) from None
    if name == "installment_count" and roll_written(uow, fy_start):
        raise InvalidInput("roll_published", field="value")
    number = _resolution(resolution_number, resolution_date)
    if effective_on is None:
        raise InvalidInput("required", field="effective_on")
    assert resolution_date is not None
    if effective_on < resolution_date:
        raise InvalidInput("before_resolution", field="effective_on")
    if effective_on > date(fy_start.year + 1, 6, 30):
        raise InvalidInput("after_year", field="effective_on")
    try:
        before = in_force.parameter_set(uow).for_fiscal_year(name, fy_start)
    except params.ParameterNotFound:
        before = None
    row = BoardParameterValue(fiscal_year=fiscal_year_label(fy_start), name=name,
                              value=str(value), effective_on=effective_on,
                              resolution_number=number, resolution_date=resolution_date,
                              created_by_id=getattr(staff, "id", None))
    uow.session.add(row)
    uow.session.flush()
    in_force.forget(uow)
    audit.record(uow, staff, "board_parameter.adopted", row,
                 before={"value": before} if before is not None else None,
                 after=audit.snapshot(row))
    return row


def declare_closed(uow: UnitOfWork, staff: Any, first: date | None, last: date | None,
                   reason_es: str, reason_en: str, resolution_number: str,
                   resolution_date: date | None) -> list[BoardParameterValue]:
    """docs/rules/README.md, Conventions: record the days `first` to `last` (one day when `last` is
    None) the Board declared closed, with its reason in both languages and its resolution.
    In force at once: a last day to act on one of them moves to the next working day on the
    next request. Audit-logged, one record per day; a day already declared is refused."""
    access.require_staff_role(staff, *access.MANAGE)
    if first is None:
        raise InvalidInput("required", field="first_day")
    last = last or first
    if last < first:
        raise InvalidInput("before_first", field="last_day")
    if (last - first).days >= MAX_CLOSED_SPAN:
        raise InvalidInput("too_many_days", field="last_day", most=MAX_CLOSED_SPAN)
    reasons = {}
    for key, text in (("reason_es", reason_es), ("reason_en", reason_en)):
        text = (text or "").strip()
        if not text:
            raise InvalidInput("required", field=key)
        if len(text) > MAX_REASON:
            raise InvalidInput("too_long", field=key, most=MAX_REASON)
        reasons[key] = text
    number = _resolution(resolution_number, resolution_date)
    taken = in_force.parameter_set(uow).closed_dates()
    days = [date.fromordinal(d) for d in range(first.toordinal(), last.toordinal() + 1)]
    if any(d in taken for d in days):
        raise InvalidInput("already_closed", field="first_day",
                           day=next(d for d in days if d in taken).isoformat())
    today = clock.today()
    rows = []
    for d in days:
        row = BoardParameterValue(
            fiscal_year=fiscal_year_label(fiscal_year_start(d)), name=CLOSED_DAY,
            value=d.isoformat(), effective_on=today, resolution_number=number,
            resolution_date=resolution_date, created_by_id=getattr(staff, "id", None),
            **reasons)
        uow.session.add(row)
        rows.append(row)
    uow.session.flush()
    in_force.forget(uow)
    for row in rows:
        audit.record(uow, staff, "board_parameter.closed_day", row, after=audit.snapshot(row))
    return rows
