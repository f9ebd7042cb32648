"""Staff: a roll's review between computing and publishing (J8): the total assessed against
the budget's total to assess, the counts, the exempt parcels and why (R-A2), the Board's
fixed amounts (R-A3), the largest shares and their histogram (an SVG with the same figures in
a table); for an amendment, the differences per parcel (R-A5), paged and as a CSV file.
Every staff role may read it; publishing stays on the roll's page (an administrator's).
The figures come from `portal/roll/review.py`; this module renders them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import NamedTuple

from flask import Response, abort, render_template, stream_with_context, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal import csv_text
from portal.accounts.errors import NotFound
from portal.core.money import from_cents_int
from portal.core.roll_review import EXEMPT_REASONS, NET_PARTS
from portal.i18n import formats, translate
from portal.i18n import money as fmt_money
from portal.i18n import number as fmt_number
from portal.roll import review as service
from portal.web.data import uow
from portal.web.locale import select_language
from portal.web.paging import page_count, page_number
from portal.web.present import full_address
from portal.web.roll import bp
from portal.web.staff_access import staff_required

PER_PAGE = 50


def signed(amount: Decimal) -> str:
    """A change: "+$1,000.00", "-$550.00", "$0.00"."""
    return ("+" if amount > 0 else "") + fmt_money(amount)


def edge(cents: int) -> str:
    """A bin's edge (cents) under the chart's axis, short: "$1,200" for whole dollars."""
    if cents % 100 == 0:
        return "$" + fmt_number(cents // 100)
    return fmt_money(from_cents_int(cents))


def reason_text(code: str) -> str:
    return translate(EXEMPT_REASONS.get(code, code))


#: A parcel id no parcel has: its page's link is built once a page, then each row's from it.
_PLACEHOLDER = 987654321


def parcel_links() -> Callable[[int], str]:
    """The link to a parcel's page by id: `url_for` once, then the id put in its place."""
    head, _, tail = url_for("accounts.parcel", parcel_id=_PLACEHOLDER).partition(
        str(_PLACEHOLDER))
    return lambda parcel_id: f"{head}{parcel_id}{tail}"


class ExemptRow(NamedTuple):
    url: str
    catastro: str
    address: str
    reason: str


def exempt_rows(exempt: list[service.ExemptParcel]) -> list[ExemptRow]:
    """The exempt parcels' rows as the review shows them: the link to the parcel, its
    address and why it is exempt, in the reader's words."""
    link = parcel_links()
    reasons: dict[str, str] = {}
    return [ExemptRow(link(p.parcel_id), p.catastro, full_address(p.address, p.municipality),
                      reasons.get(p.reason) or reasons.setdefault(p.reason,
                                                                  reason_text(p.reason)))
            for p in exempt]


class ShareRow(NamedTuple):
    url: str
    catastro: str
    units: str
    amount: str


class FixedRow(NamedTuple):
    url: str
    catastro: str
    amount: str
    line_amount: str | None  # None: the parcel has no line on the roll
    exempt: bool
    reason: str


class BinRow(NamedTuple):
    low: str
    high: str
    count: str


class BarRow(NamedTuple):
    x: int
    y: int
    width: int
    height: int
    text_y: int
    count_x: int
    low: str  # the bin's edges as under the axis (`edge`)
    high: str
    count: str


class Shown(NamedTuple):
    """The review's tables with their figures formatted once, in the reader's language."""

    top: list[ShareRow]
    fixed: list[FixedRow]
    bins: list[BinRow]
    bars: list[BarRow]


def shown(view: service.Review) -> Shown:
    f = formats()
    link = parcel_links()
    top = [ShareRow(link(s.parcel_id), s.catastro, f.number(s.benefit_units), f.money(s.amount))
           for s in view.top]
    fixed = [FixedRow(link(x.parcel_id), x.catastro, f.money(x.amount),
                      None if x.line_amount is None else f.money(x.line_amount), x.exempt,
                      x.reason)
             for x in view.fixed_amounts]
    bins = [BinRow(f.money(b.low), f.money(b.high), f.number(b.count)) for b in view.bins]
    bars = [] if view.chart is None else [
        BarRow(b.x, b.y, b.width, b.height, b.text_y, b.count_x, edge(b.low), edge(b.high),
               f.number(b.count)) for b in view.chart.bars]
    return Shown(top, fixed, bins, bars)


@bp.get("/personal/tasacion/<id:roll_id>/revision")
@staff_required
def roll_review(roll_id: int):  # noqa: ANN201
    page = page_number()
    try:
        with uow() as w:
            view = service.review(w, current_user, roll_id)
            exempt = service.exempt_page(w, current_user, roll_id, limit=PER_PAGE,
                                         offset=(page - 1) * PER_PAGE)
            changes = service.differences(w, current_user, roll_id, of=view) \
                if view.amendment else None
            w.session.expunge_all()
    except NotFound:
        abort(404)
    pages = page_count(view.exempt, page, PER_PAGE)
    return render_template("roll/roll_review.html", view=view, exempt=exempt_rows(exempt),
                           shown=shown(view), page=page,
                           pages=pages, changes=changes, reason_text=reason_text,
                           signed=signed, net_parts=NET_PARTS)


@bp.get("/personal/tasacion/<id:roll_id>/diferencias")
@staff_required
def roll_review_differences(roll_id: int):  # noqa: ANN201
    page = page_number()
    try:
        with uow() as w:
            view = service.review(w, current_user, roll_id)
            changes = service.differences(w, current_user, roll_id, of=view)
            if changes is None:
                raise NotFound()
            rows = service.differences_page(w, current_user, roll_id, limit=PER_PAGE,
                                            offset=(page - 1) * PER_PAGE, of=view)
            w.session.expunge_all()
    except NotFound:
        abort(404)
    pages = page_count(changes.changed, page, PER_PAGE)
    return render_template("roll/roll_review_differences.html", view=view, changes=changes,
                           rows=rows, page=page, pages=pages, signed=signed,
                           net_parts=NET_PARTS)


@bp.get("/personal/tasacion/<id:roll_id>/diferencias.csv")
@staff_required
def roll_review_differences_csv(roll_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            if service.differences(w, current_user, roll_id) is None:
                raise NotFound()
    except NotFound:
        abort(404)
    user = current_user._get_current_object()
    head = [_("Catastro number"), _("Previous amount"), _("New amount"), _("Increase"),
            _("Decrease")]

    def records() -> Iterator[list[str]]:
        with uow() as w:
            for d in service.all_differences(w, user, roll_id):
                # the change in two columns: a cell starting with "-" would be neutralised
                # as a formula (safe_cell), and each column then adds up to its total
                yield [d.catastro, "" if d.old is None else str(d.old), str(d.new),
                       str(d.change) if d.change > 0 else "",
                       str(-d.change) if d.change < 0 else ""]

    name = (f"diferencias-registro-{roll_id}.csv" if select_language() == "es"
            else f"roll-differences-{roll_id}.csv")
    return Response(stream_with_context(csv_text.csv_lines(head, records())),
                    mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
