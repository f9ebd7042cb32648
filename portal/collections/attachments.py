"""Property-tax attachment and auction (R-C1–R-C8, docs/rules/C-attachments-and-auctions.md;
docs/ATTACHMENTS.md).

Staff record, for a parcel:

- a debt to the **Treasury** with its notice of attachment (13 LPRA § 33262): the amounts the
  notice states (R-C1), the dunning agent's fee (R-C3), the notice date by personal delivery
  or certified mailing (R-C7) and the 30-day term with the earliest sale day (R-C2) — every
  figure from `portal.core.attachment` and `portal.core.deadlines`;
- a debt to the **CRIM** with an auction of the attached parcel (21 LPRA § 5105): the
  appraisal's inputs and the minimum of R-C4 from `portal.core.auction`; then the result
  (R-C6): adjudicated to the CRIM at the minimum when nobody bid, or sold at a price not
  below the minimum, with any shortfall still owed (R-C8: only after a sale to a third
  party);
- that a debt was paid in full.

Section C's scope is kept: R-C1–R-C3 are never applied to a debt owed to the CRIM, and the
auction of R-C4–R-C6 is the CRIM's (a Treasury debt has no auction here).

**R-C5**: the minimum is confidential between the CRIM and the debtor. `may_see_minimum` is
the one function that decides who reads it (staff, and the parcel's owner: the taxpayer
whose debt it is); `parcel_summary`, the only read, leaves the minimum (and every figure of
the auction and the notice) out for anyone else, so no page, PDF, email or API response
built from it can show it. Every change is audit-logged.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field
from datetime import date, time
from decimal import Decimal
from itertools import accumulate
from typing import Any, NamedTuple

from sqlalchemy import Date, Integer, Numeric, String, bindparam, select

from portal import clock
from portal.accounts import access, audit
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.accounts.json_rows import json_rows, read_json_rows, stored_date, stored_money
from portal.core import auction as core_auction
from portal.core.attachment import (
    Accrual,
    SaleStopDays,
    attachment_notice,
    dunning_fee,
    sale_stop_from,
)
from portal.core.deadlines import deadline
from portal.core.errors import ParameterNotFound
from portal.core.explain import N_, Trace
from portal.core.money import ZERO, cents, fits_money
from portal.db import UnitOfWork, prepared
from portal.models import (
    AttachmentAccrual,
    AttachmentNotice,
    Auction,
    AuctionResult,
    Parcel,
    TaxDebt,
)

#: Who may record debts, notices, auctions and results: every staff role but read-only
#: (docs/STAFF.md); every staff role sees them.
RECORD = (access.ADMINISTRATOR, access.REVIEWER, access.CASHIER)
#: The amounts of a debt, in the order a notice states them (R-C1).
DEBT_AMOUNTS = ("taxes", "surcharges", "interest", "penalties", "levies", "fines", "costs")
#: What a notice of attachment states besides the dunning fee (R-C1; no costs: R-C3's
#: custody costs are in the fee's total).
NOTICE_AMOUNTS = DEBT_AMOUNTS[:-1]
#: What the CRIM's debt for an auction lists (R-C4's credit).
AUCTION_AMOUNTS = ("taxes", "surcharges", "interest", "penalties", "costs")
#: Rows the staff's list shows at most.
PAGE = 50


def may_see_minimum(uow: UnitOfWork, user: Any, parcel_id: int,
                    relation: str | None = None) -> bool:
    """R-C5, 21 LPRA § 5105: the auction minimum (and the rest of section C's figures, which
    the portal shows to the taxpayer concerned and to staff) is for staff and the debtor —
    the parcel's owner — only: not a lessee, a lender, a delegate, another owner or the
    public. The one place that decides (`core.auction.may_see_minimum`). `relation`: the
    user's relation to the parcel when the caller has just read it (else read here)."""
    if user is None or getattr(user, "id", None) is None:
        return False
    staff = access.is_staff(user)
    if not staff and relation is None:
        relation = access.relation(uow, user, parcel_id)
    debtor = not staff and relation == "owner"
    return core_auction.may_see_minimum(staff, debtor)


def _money(name: str, value: Any) -> Decimal:
    if not isinstance(value, Decimal) or not value.is_finite() or value < 0 \
            or cents(value) != value or not fits_money(value) or value >= Decimal(10) ** 12:
        raise InvalidInput("invalid", field=name)
    return value


def _day(name: str, value: Any) -> date:
    if not isinstance(value, date) or value > clock.today():
        raise InvalidInput("future", field=name)
    return value


def _debt(uow: UnitOfWork, staff: Any, parcel_id: int, creditor: str, fiscal_years: str,
          amounts: dict[str, Decimal]) -> TaxDebt:
    parcel = uow.session.get(Parcel, access.parse_id(parcel_id))
    if parcel is None:
        raise NotFound()
    years = (fiscal_years or "").strip()
    if not years or len(years) > 120:
        raise InvalidInput("invalid", field="fiscal_years")
    values = {k: _money(k, amounts.get(k) or ZERO) for k in DEBT_AMOUNTS}
    if values["taxes"] <= 0:
        raise InvalidInput("invalid", field="taxes")
    debt = TaxDebt(parcel_id=parcel.id, creditor=creditor, fiscal_years=years,
                   created_by_id=staff.id, **values)
    uow.session.add(debt)
    uow.session.flush()
    audit.record(uow, staff, "tax_debt.recorded", debt, after=audit.snapshot(debt))
    return debt


def notice_figures(debt: Any, custody_costs: Decimal, notified_on: date) -> dict[str, Any]:
    """R-C1–R-C3 from the core: the dunning fee (with custody costs), the notice's total, the
    last day to pay in full and the earliest sale day (Puerto Rico's holidays roll the last
    day over; the Board's declared closures are the District's, not the Treasury's)."""
    notice = attachment_notice(debt.taxes, surcharges=debt.surcharges, interest=debt.interest,
                               penalties=debt.penalties, levies=debt.levies, fines=debt.fines,
                               custody_costs=custody_costs)
    return {"dunning_fee": notice.dunning_fee, "total": notice.total,
            "last_day": deadline("attachment_payment", notified_on),
            "earliest_sale_on": deadline("attachment_sale", notified_on)}


def record_notice(uow: UnitOfWork, staff: Any, parcel_id: int, *, fiscal_years: str,
                  amounts: dict[str, Decimal], notified_on: date, delivery: str,
                  certified_mail_number: str | None = None,
                  custody_costs: Decimal = ZERO) -> AttachmentNotice:
    """R-C1, R-C2, R-C3, R-C7: a Treasury debt on the parcel and its notice of attachment."""
    access.require_staff_role(staff, *RECORD)
    if delivery not in ("personal", "certified_mail"):
        raise InvalidInput("invalid", field="delivery")
    number = (certified_mail_number or "").strip() or None
    if delivery == "certified_mail" and number is None:
        raise InvalidInput("required", field="certified_mail_number")
    if number is not None and len(number) > 40:
        raise InvalidInput("invalid", field="certified_mail_number")
    notified_on = _day("notified_on", notified_on)
    custody = _money("custody_costs", custody_costs)
    debt = _debt(uow, staff, parcel_id, "treasury", fiscal_years, amounts)
    row = AttachmentNotice(debt_id=debt.id, parcel_id=debt.parcel_id, notified_on=notified_on,
                           delivery=delivery,
                           certified_mail_number=number if delivery == "certified_mail"
                           else None, custody_costs=custody, created_by_id=staff.id,
                           **notice_figures(debt, custody, notified_on))
    uow.session.add(row)
    uow.session.flush()
    audit.record(uow, staff, "attachment_notice.recorded", row, after=audit.snapshot(row))
    return row


def record_accrual(uow: UnitOfWork, staff: Any, notice_id: int, *, stated_on: date,
                   accrued: Decimal, per_day: Decimal = ZERO,
                   custody_costs: Decimal | None = None,
                   reference: str = "") -> AttachmentAccrual:
    """R-C7: what the Treasury states accrued on the notice's debt from the notice to
    `stated_on` (interest, surcharges and penalties), what each later day adds, and the
    custody costs to that day (blank: the notice's). Dated neither before the notice nor in
    the future; refused once the debt is paid in full. Append-only: a later statement
    supersedes an earlier one for the days after it (`core.attachment.accrued_to`)."""
    access.require_staff_role(staff, *RECORD)
    notice = uow.session.get(AttachmentNotice, access.parse_id(notice_id))
    if notice is None:
        raise NotFound()
    debt = uow.session.get(TaxDebt, notice.debt_id)
    if debt.paid_on is not None:
        raise Conflict("paid")
    stated_on = _day("stated_on", stated_on)
    if stated_on < notice.notified_on:
        raise InvalidInput("before_notice", field="stated_on")
    amount = _money("accrued", accrued)
    daily = _money("per_day", per_day if per_day is not None else ZERO)
    custody = (notice.custody_costs if custody_costs is None
               else _money("custody_costs", custody_costs))
    ref = (reference or "").strip()
    if len(ref) > 120:
        raise InvalidInput("invalid", field="reference")
    row = AttachmentAccrual(notice_id=notice.id, stated_on=stated_on, accrued=amount,
                            per_day=daily, custody_costs=custody, reference=ref,
                            created_by_id=staff.id)
    uow.session.add(row)
    uow.session.flush()
    audit.record(uow, staff, "attachment_accrual.recorded", row, after=audit.snapshot(row))
    return row


def minimum_of(debt: Any, real_value: Decimal, mortgage_amount: Decimal, *,
               property_debt: Decimal | None = None, auction_number: int = 1,
               appraised_on: date | None = None) -> core_auction.AuctionMinimum:
    """R-C4 from the core, on the debt's amounts; the floor is this parcel's own taxes,
    surcharges and interest (`property_debt`; by default the debt's, when the whole debt is
    this parcel's); R-C8: the CRIM's rate for auction `auction_number` in force on
    `appraised_on` (`core.auction.minimum_rate_for`; the statute's minimum without a day)."""
    rate = (core_auction.ONE if appraised_on is None
            else core_auction.minimum_rate_for(auction_number, appraised_on))
    return core_auction.auction_minimum(real_value, mortgage_amount, debt.taxes,
                                        debt.surcharges, debt.interest, debt.costs,
                                        penalties=debt.penalties, property_debt=property_debt,
                                        minimum_rate=rate, auction_number=auction_number)


def record_auction(uow: UnitOfWork, staff: Any, parcel_id: int, *, fiscal_years: str,
                   amounts: dict[str, Decimal], appraised_on: date, real_value: Decimal,
                   mortgage_amount: Decimal, auction_number: int = 1,
                   property_debt: Decimal | None = None) -> Auction:
    """R-C4, R-C8 (21 LPRA § 5105): a CRIM debt on the parcel and the auction of the attached
    parcel, with its minimum from the appraisal (the mortgages' balance at the appraisal
    date), at the rate the CRIM's regulation sets for the auction's number. `property_debt`:
    what this parcel itself owes in taxes, surcharges and interest when the debtor's debt
    (the amounts) covers other property too: the floor of R-C4, so a sale to a third party
    can leave a shortfall (R-C6, R-C8); it cannot exceed the debt's own taxes, surcharges
    and interest. Blank: the whole debt is this parcel's."""
    access.require_staff_role(staff, *RECORD)
    appraised_on = _day("appraised_on", appraised_on)
    value = _money("real_value", real_value)
    mortgage = _money("mortgage_amount", mortgage_amount)
    if not isinstance(auction_number, int) or not 1 <= auction_number <= 9:
        raise InvalidInput("invalid", field="auction_number")
    own = None if property_debt is None else _money("property_debt", property_debt)
    owed = sum((_money(k, amounts.get(k) or ZERO) for k in ("taxes", "surcharges", "interest")),
               ZERO)
    if own is not None and (own <= 0 or own > owed):
        raise InvalidInput("above_debt", field="property_debt")
    try:
        core_auction.minimum_rate_for(auction_number, appraised_on)
    except ParameterNotFound:
        raise InvalidInput("no_regulation", field="auction_number") from None
    debt = _debt(uow, staff, parcel_id, "crim", fiscal_years, amounts)
    m = minimum_of(debt, value, mortgage, property_debt=own, auction_number=auction_number,
                   appraised_on=appraised_on)
    row = Auction(debt_id=debt.id, parcel_id=debt.parcel_id, auction_number=auction_number,
                  appraised_on=appraised_on, real_value=value, mortgage_amount=mortgage,
                  equity=m.equity, credit=m.credit, floor=m.floor, minimum=m.minimum,
                  created_by_id=staff.id)
    uow.session.add(row)
    uow.session.flush()
    audit.record(uow, staff, "auction.recorded", row, after=audit.snapshot(row))
    return row


def record_result(uow: UnitOfWork, staff: Any, auction_id: int, *, held_on: date, bids: int,
                  price: Decimal | None = None) -> AuctionResult:
    """R-C6: with no bid the CRIM adjudicates the parcel to itself at the minimum; with bids,
    the sale price (not below the minimum, R-C4) and the shortfall of taxes, surcharges and
    interest it leaves (R-C8: collectible only after a sale to a third party)."""
    access.require_staff_role(staff, *RECORD)
    auction = uow.session.get(Auction, access.parse_id(auction_id))
    if auction is None:
        raise NotFound()
    if uow.session.scalar(select(AuctionResult.id).where(
            AuctionResult.auction_id == auction.id)) is not None:
        raise Conflict("already_recorded")
    debt = uow.session.get(TaxDebt, auction.debt_id)
    if debt.paid_on is not None:
        raise Conflict("paid")
    held_on = _day("held_on", held_on)
    if held_on < auction.appraised_on:
        raise InvalidInput("before_appraisal", field="held_on")
    if not isinstance(bids, int) or not 0 <= bids <= 10_000:
        raise InvalidInput("invalid", field="bids")
    adjudicated = core_auction.adjudicate_to_crim(bids, auction.minimum)
    if adjudicated is not None:
        outcome, paid, shortfall = "adjudicated_to_crim", adjudicated, ZERO
    else:
        paid = _money("price", price if price is not None else Decimal(-1))
        if paid < auction.minimum:
            raise InvalidInput("below_minimum", field="price")
        outcome = "sold"
        shortfall = core_auction.shortfall_after_sale(paid, debt.taxes, debt.surcharges,
                                                      debt.interest)
    row = AuctionResult(auction_id=auction.id, held_on=held_on, outcome=outcome, bids=bids,
                        price=paid, shortfall=shortfall, created_by_id=staff.id)
    uow.session.add(row)
    uow.session.flush()
    audit.record(uow, staff, "auction.result_recorded", row, after=audit.snapshot(row))
    return row


def mark_paid(uow: UnitOfWork, staff: Any, debt_id: int, paid_on: date) -> TaxDebt:
    """The debt was paid in full on `paid_on` (R-C7, 13 LPRA § 33262(b), (e), (j): paying
    stops the sale); recorded once."""
    access.require_staff_role(staff, *RECORD)
    debt = uow.session.get(TaxDebt, access.parse_id(debt_id))
    if debt is None:
        raise NotFound()
    if debt.paid_on is not None:
        raise Conflict("paid")
    paid_on = _day("paid_on", paid_on)
    before = audit.snapshot(debt)
    debt.paid_on = paid_on
    uow.session.flush()
    audit.record(uow, staff, "tax_debt.paid", debt, before=before, after=audit.snapshot(debt))
    return debt


# --- Reading: the one read, filtered by R-C5 ---------------------------------------------


@dataclass
class NoticeView:
    notice: AttachmentNotice
    taxes: Decimal
    figures: list[tuple[str, Decimal]]  # (R-C1 item, amount), the items the notice states
    why_fee: Trace
    why_term: Trace
    accruals: list[AttachmentAccrual] = field(default_factory=list)
    stop: SaleStopDays | None = None  # R-C7 paid today and on the last day; None once paid


@dataclass
class AuctionView:
    auction: Auction
    minimum: core_auction.AuctionMinimum
    result: AuctionResult | None = None


@dataclass
class DebtView:
    debt: TaxDebt
    notice: NoticeView | None = None
    auctions: list[AuctionView] = field(default_factory=list)


@dataclass
class ParcelAttachments:
    parcel_id: int
    relation: str
    debts: list[DebtView]
    today: date


#: R-C2, R-C7: how the term is counted (the dates are the core's `deadlines`).
TERM = N_("Notified on {notified} (the day of personal delivery or of certified "
          "mailing): 30 days to pay in full, the last day rolled over to the next working day: "
          "{last}. A sale may take place from {sale}, without further notice.")


def _term_trace(n: AttachmentNotice) -> Trace:
    t = Trace()
    t.add("R-C2", TERM, notified=n.notified_on, last=n.last_day, sale=n.earliest_sale_on)
    return t


def stop_figures(debt: Any, notice: Any, accruals: list[Any], on: date) -> SaleStopDays:
    """R-C7 from the core: the amount that stops the sale paid on `on` and on the last day,
    over the notice's debt, its custody costs and the Treasury's statements recorded
    (`accruals`, in the order recorded)."""
    stated = attachment_notice(debt.taxes, surcharges=debt.surcharges, interest=debt.interest,
                               penalties=debt.penalties, levies=debt.levies, fines=debt.fines)
    return sale_stop_from(stated, notice.notified_on, on,
                          [Accrual(a.stated_on, a.accrued, a.per_day, a.custody_costs)
                           for a in accruals], notice.custody_costs)


def _stored_minimum(debt: TaxDebt, a: Auction) -> core_auction.AuctionMinimum:
    """The auction's minimum as recorded, with its explanation from the core: the floor
    recorded (this parcel's own debt) and the rate of its number on its appraisal day."""
    try:
        return minimum_of(debt, a.real_value, a.mortgage_amount, property_debt=a.floor,
                          auction_number=a.auction_number, appraised_on=a.appraised_on)
    except ParameterNotFound:  # the rate table no longer lists it: the statute's minimum
        return minimum_of(debt, a.real_value, a.mortgage_amount, property_debt=a.floor)


def parcel_summary(uow: UnitOfWork, user: Any, parcel_id: int) -> ParcelAttachments | None:
    """The parcel's debts with their notices and auctions, for staff and the debtor only
    (R-C5: None for anyone else, even one who may see the parcel; `NotFound` when the user
    may not see the parcel at all). The figures are the core's."""
    _parcel, relation = access.get_parcel_and_relation(uow, user, parcel_id, rows=True)
    if not may_see_minimum(uow, user, _parcel.id, relation):
        return None
    return summary_for(uow, _parcel.id, relation)


class AccrualRecord(NamedTuple):
    """An `AttachmentAccrual`'s columns the pages read, read with the debts (`summary_for`)."""

    id: int
    notice_id: int
    stated_on: date
    accrued: Decimal
    per_day: Decimal
    custody_costs: Decimal
    reference: str


def _accruals_json() -> Any:
    """SQL (a scalar subquery, correlated to the notice of `debts_json`' row): the notice's
    accruals as JSON (`_accruals`)."""
    ac = AttachmentAccrual.__table__
    return (select(json_rows(ac.c.id, ac.c.stated_on, ac.c.accrued, ac.c.per_day,
                             ac.c.custody_costs, ac.c.reference))
            .where(ac.c.notice_id == AttachmentNotice.__table__.c.id).scalar_subquery())


def _accruals(notice_id: int, found: str | list | None) -> list[AccrualRecord]:
    """`_accruals_json`'s value (its JSON text, or the array itself where the database
    nested it as JSON) as records, in the order recorded (day, then id)."""
    rows = found if isinstance(found, list) else read_json_rows(found)
    return sorted((AccrualRecord(aid, notice_id, stored_date(day), stored_money(accrued),
                                 stored_money(per_day), stored_money(custody), reference)
                   for aid, day, accrued, per_day, custody, reference in rows),
                  key=lambda x: (x.stated_on, x.id))


#: `summary_for`'s rows are read as plain read-only records of the four tables' columns,
#: named as the models' attributes (loading them as objects was most of the parcel page's
#: cost of its attachment box): a debt, its notice, an auction and its result. Who recorded
#: a row and when (`_Recorded`) is the audit's, not the pages': not read.
_D, _N, _A, _R = (m.__table__ for m in (TaxDebt, AttachmentNotice, Auction, AuctionResult))
_COLUMNS = tuple([c for c in t.c if c.key not in ("created_by_id", "created_at")]
                 for t in (_D, _N, _A, _R))
_RECORDS = tuple(namedtuple(f"{m.__name__}Record", [c.key for c in cols])  # type: ignore[misc]
                 for m, cols in zip((TaxDebt, AttachmentNotice, Auction, AuctionResult),
                                    _COLUMNS))


def _reader(column: Any) -> Any:
    """How a column's JSON value is read back with the column's type."""
    if isinstance(column.type, Numeric):
        return stored_money
    if isinstance(column.type, Date):
        return stored_date
    if isinstance(column.type, (Integer, String)):
        return None  # as JSON gives it
    raise TypeError(f"{column}: no JSON reader for {column.type!r}")


#: Per record: its columns' readers (None: as it is) and where its values end in a row.
_READERS = tuple(tuple(_reader(c) for c in cols) for cols in _COLUMNS)
_ENDS = tuple(accumulate(len(cols) for cols in _COLUMNS))


def debts_json(pid: Any) -> Any:
    """SQL (a scalar subquery): the parcel `pid`'s debts as JSON text, a row per auction of
    a debt (a notice and a result are one per debt and per auction), each row the columns of
    the debt, its notice, the auction and its result (`_COLUMNS`, NULLs for an outer-joined
    table without a row) and the notice's accruals (`_accruals_json`). The parcel page
    reads it as a column of its boxes' statement (`web.accounts.page_boxes`);
    `summary_from_json` reads it back."""
    return (select(json_rows(*(c for cols in _COLUMNS for c in cols), _accruals_json()))
            .select_from(_D)
            .outerjoin(_N, _N.c.debt_id == _D.c.id)
            .outerjoin(_A, _A.c.debt_id == _D.c.id)
            .outerjoin(_R, _R.c.auction_id == _A.c.id)
            .where(_D.c.parcel_id == pid).scalar_subquery())


_DEBTS = prepared(select(debts_json(bindparam("pid"))), "parcel-debts")


def _records(row: list[Any]) -> list[Any]:
    """A `debts_json` row as its records (None for a table without a row) and the
    accruals' JSON (the value after them)."""
    out, start = [], 0
    for record, readers, end in zip(_RECORDS, _READERS, _ENDS):
        part = row[start:end]
        out.append(None if part[0] is None else record._make(
            [v if r is None or v is None else r(v) for r, v in zip(readers, part)]))
        start = end
    out.append(row[start])
    return out


def _in_order(records: list[Any]) -> tuple[int, int, int]:
    """Debts by id, each one's auctions by number (then id)."""
    a = records[2]
    return (records[0].id, a.auction_number, a.id) if a is not None else \
        (records[0].id, 0, 0)


def summary_for(uow: UnitOfWork, parcel_id: int, relation: str) -> ParcelAttachments:
    """`parcel_summary` for a parcel the caller has read through `accounts.access` and for
    a reader `may_see_minimum` allows: the debts with their notices (with their accruals),
    auctions and results in one statement (`debts_json`)."""
    # Run on the unit of work's connection (no ORM session's work).
    found = uow.connection().execute(_DEBTS, {"pid": int(parcel_id)}).scalar()
    return summary_from_json(found, parcel_id, relation)


def summary_from_json(found: str | None, parcel_id: int, relation: str
                      ) -> ParcelAttachments:
    """`summary_for` from the value of `debts_json` read by the caller (the parcel page, as
    a column of its boxes' statement). The figures are the core's, as of today."""
    today = clock.today()
    views: dict[int, DebtView] = {}
    for d, n, a, result, accrued in sorted(map(_records, read_json_rows(found)),
                                           key=_in_order):
        dv = views.get(d.id)
        if dv is None:
            dv = views[d.id] = DebtView(d)
            if n is not None:
                fee = dunning_fee(d.taxes, n.custody_costs)
                items = [(k, getattr(d, k)) for k in NOTICE_AMOUNTS
                         if getattr(d, k) or k == "taxes"]
                mine = _accruals(n.id, accrued)
                dv.notice = NoticeView(n, d.taxes, items, fee.trace, _term_trace(n), mine,
                                       None if d.paid_on else stop_figures(d, n, mine, today))
        if a is not None:
            dv.auctions.append(AuctionView(a, _stored_minimum(d, a), result))
    return ParcelAttachments(int(parcel_id), relation, list(views.values()), today)


def recent(uow: UnitOfWork, staff: Any, *, after: int = 0, limit: int = PAGE
           ) -> list[tuple[TaxDebt, str]]:
    """The staff's list: debts by id (newest first from `after`), with the parcel's catastro
    number (one page, never every row)."""
    access.require_staff(staff)
    stmt = (select(TaxDebt, Parcel.catastro).join(Parcel, Parcel.id == TaxDebt.parcel_id)
            .order_by(TaxDebt.id.desc()).limit(limit))
    if after:
        stmt = stmt.where(TaxDebt.id < after)
    return [(d, c) for d, c in uow.session.execute(stmt).all()]


def find_parcel(uow: UnitOfWork, staff: Any, catastro: str) -> int | None:
    access.require_staff(staff)
    return uow.session.scalar(select(Parcel.id).where(Parcel.catastro == catastro.strip()))


def load_demo(uow: UnitOfWork, staff: Any, parcel_id: int, *,
              notified_on: date = date(2026, 11, 16), appraised_on: date = date(2026, 11, 2)
              ) -> None:
    """The demo District's parcel with property-tax debts (illustrative figures): a Treasury
    debt whose notice of attachment was mailed on `notified_on` (its 30 days run from it,
    R-C2) and a CRIM debt whose first auction was appraised on `appraised_on` (minimum R-C4);
    the demo passes two and four weeks before the day it is loaded. The auction only when the
    CRIM's regulation (its minimum rates) covers its day: none for a year the files do not."""
    with clock.fixed(clock.pr_instant(notified_on, time(11, 0))):
        record_notice(uow, staff, parcel_id, fiscal_years="2023-2024, 2024-2025",
                      amounts={"taxes": Decimal("2840.00"), "surcharges": Decimal("142.00"),
                               "interest": Decimal("311.65"), "penalties": Decimal("50.00")},
                      notified_on=notified_on, delivery="certified_mail",
                      certified_mail_number="9407 1118 9876 5432 4004 92",
                      custody_costs=Decimal("35.00"))
    try:
        core_auction.minimum_rate_for(1, appraised_on)
    except ParameterNotFound:
        return
    with clock.fixed(clock.pr_instant(appraised_on, time(15, 0))):
        record_auction(uow, staff, parcel_id, fiscal_years="2022-2023",
                       amounts={"taxes": Decimal("3120.40"), "surcharges": Decimal("156.02"),
                                "interest": Decimal("498.77"), "penalties": Decimal("75.00"),
                                "costs": Decimal("120.00")},
                       appraised_on=appraised_on, real_value=Decimal("185000.00"),
                       mortgage_amount=Decimal("162450.18"))


def parcel_of(uow: UnitOfWork, staff: Any, kind: str, object_id: int) -> int:
    """The parcel of a debt ("debt"), an auction ("auction") or a notice ("notice"), for
    staff (`NotFound`)."""
    access.require_staff(staff)
    model = {"debt": TaxDebt, "auction": Auction, "notice": AttachmentNotice}[kind]
    row = uow.session.get(model, access.parse_id(object_id))
    if row is None:
        raise NotFound()
    return row.parcel_id
