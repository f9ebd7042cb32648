"""Property-tax attachment and auction (R-C1–R-C8) and the lessee's deposit order (R-A14):
the staff's pages under /personal/embargos (the list of debts, a parcel's debts with their
notices, auctions and results, and its deposit orders, each with its form) and the parcel
page's section for the debtor (templates/accounts/parcel.html, read by the
parcel page's view model through `attachments.summary_for`).
Thin: validate with WTForms, call `portal.collections.attachments` / `deposit_orders`, render.
The figures are the core's, read through the service; R-C5 is the service's
(`may_see_minimum`): a page never decides it."""

from __future__ import annotations

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required

from portal import clock
from portal.accounts import access
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.collections import attachments, deposit_orders
from portal.documents import attachment_notice
from portal.documents.attachment_notice import summary_view
from portal.i18n import current_language, formats
from portal.web.collections import bp
from portal.web.collections.attachments_forms import (
    AccrualForm,
    AuctionForm,
    DepositOrderForm,
    FindForm,
    LiftForm,
    NoticeForm,
    PaidForm,
    ResultForm,
)
from portal.web.data import uow
from portal.web.form_errors import form_errors
from portal.web.pdf_response import pdf_response
from portal.web.staff_access import staff_required

STAFF = "/personal/embargos"

CONFLICTS = {
    "already_recorded": _l("The result of this auction is already recorded."),
    "paid": _l("This debt is already recorded as paid in full."),
    "not_authority": _l("A deposit order is for a parcel the Authority owns and leases "
                        "(R-A14)."),
    "no_lease": _l("This parcel has no lease in force on the date of the order."),
    "order_in_force": _l("The lease already has a deposit order in force: lift it first."),
    "already_lifted": _l("This order is already lifted."),
}
#: A refusal of the service for a field, in the staff's words.
FIELD_ERRORS = {
    "future": _l("The date cannot be a day to come."),
    "required": _l("Write the certified-mail number of a notice served by mail."),
    "below_minimum": _l("A sale may not be below the auction minimum (R-C4)."),
    "before_appraisal": _l("The auction is held after the appraisal."),
    "before_order": _l("The order ends on or after the day it was ordered."),
    "before_notice": _l("What accrued since the notice runs to a day on or after the "
                        "notice date (R-C7)."),
    "invalid": _l("This value is not valid."),
    "above_debt": _l("Write what this parcel owes in taxes, surcharges and interest: more "
                     "than 0.00 and not more than the debt's own taxes, surcharges and "
                     "interest (R-C4)."),
    "no_regulation": _l("The CRIM's regulation sets no minimum for this auction number on "
                        "the appraisal date (R-C8)."),
}


@bp.get(STAFF, endpoint="attachments_index")
@staff_required
def index():  # noqa: ANN201
    find = FindForm(request.args)
    if request.args.get("catastro") is not None and find.validate():
        with uow() as w:
            pid = attachments.find_parcel(w, current_user, find.catastro.data)
        if pid is not None:
            return redirect(url_for("collections.attachments_parcel", parcel_id=pid), 303)
        find.catastro.errors = [_("No parcel has that catastro number.")]
    after = request.args.get("despues", type=int, default=0) or 0
    if not 0 < after <= access.MAX_ID:  # an odd "older than" is the first page
        after = 0
    with uow() as w:
        rows = attachments.recent(w, current_user, after=after)
    more = rows[-1][0].id if len(rows) >= attachments.PAGE else None
    status = 200 if not find.errors else 400
    return render_template("collections/attachments/index.html", rows=rows, find=find, more=more,
                           errors=form_errors(find)), status


def _page(parcel_id: int, status: int = 200, errors=None,  # noqa: ANN001
          **forms):  # noqa: ANN003, ANN202
    f = formats()
    today = clock.today()
    with uow() as w:
        try:
            parcel = access.get_parcel(w, current_user, parcel_id)
            s = attachments.parcel_summary(w, current_user, parcel.id)
            orders = deposit_orders.orders(w, current_user, parcel.id)
            lease = deposit_orders.lease_in_force(w, parcel.id, today)
        except NotFound:
            abort(404)
        v = summary_view(s, f)
        info = {"id": parcel.id, "catastro": parcel.catastro, "address": parcel.address,
                "municipality": parcel.municipality, "owner_kind": parcel.owner_kind}
    defaults = {
        "notice": NoticeForm(formdata=None, data={"notified_on": today,
                                                  "delivery": "certified_mail"}),
        "auction": AuctionForm(prefix="s", formdata=None, data={"appraised_on": today,
                                                    "auction_number": 1}),
        "deposit": DepositOrderForm(formdata=None, data={"ordered_on": today}),
    }
    # One form per open object, each with its own prefix (unique ids on the page).
    results = {a.id: ResultForm(prefix=f"a{a.id}", formdata=None, data={"held_on": today})
               for d in v.debts for a in d.auctions}
    paid = {d.id: PaidForm(prefix=f"d{d.id}", formdata=None, data={"paid_on": today})
            for d in v.debts}
    lifts = {o.id: LiftForm(prefix=f"o{o.id}", formdata=None, data={"lifted_on": today})
             for o in orders}
    accruals = {d.notice.id: AccrualForm(prefix=f"n{d.notice.id}", formdata=None,
                                         data={"stated_on": today})
                for d in v.debts if d.notice}
    for key, form in forms.items():
        if key in defaults:
            defaults[key] = form
        elif key == "result":
            results[form.object_id] = form
        elif key == "paid":
            paid[form.object_id] = form
        elif key == "lift":
            lifts[form.object_id] = form
        elif key == "accrual":
            accruals[form.object_id] = form
    return render_template("collections/attachments/parcel.html", p=info, att=v, orders=orders,
                           lease=lease, errors=errors or [], results=results, paid=paid,
                           lifts=lifts, accruals=accruals, **defaults), status


@bp.get(f"{STAFF}/propiedad/<id:parcel_id>", endpoint="attachments_parcel")
@staff_required
def parcel(parcel_id: int):  # noqa: ANN201
    return _page(parcel_id)


def _amounts(form, names) -> dict:  # noqa: ANN001
    return {n: getattr(form, n).data for n in names if getattr(form, n).data is not None}


def _service_error(form, exc: InvalidInput) -> None:  # noqa: ANN001
    name = exc.params.get("field")
    target = getattr(form, name, None) if name else None
    message = str(FIELD_ERRORS.get(exc.code, FIELD_ERRORS["invalid"]))
    if target is None:
        target = form.submit
    target.errors = [message]


def _refused(back: str, exc: Exception):  # noqa: ANN202
    if isinstance(exc, NotFound):
        abort(404)
    if isinstance(exc, Forbidden):
        abort(403)
    flash(str(CONFLICTS.get(exc.code, _("This cannot be recorded now."))), "error")
    return redirect(back, 303)


def _done(parcel_id: int, message: str, anchor: str = ""):  # noqa: ANN202
    flash(message, "success")
    return redirect(url_for("collections.attachments_parcel", parcel_id=parcel_id) + anchor, 303)


def _submit(parcel_id: int, form, key: str, change, message: str,  # noqa: ANN001
            anchor=""):  # noqa: ANN001, ANN202
    """Validate `form`, make `change(w)` in one transaction and go back to the parcel's page
    with `message` (`anchor`: a fragment, or a function of the change's result); else the
    page again with the form's errors (400: the service's refusal on its field), nothing
    changed."""
    if form.validate():
        try:
            with uow() as w:
                result = change(w)
            return _done(parcel_id, message, anchor(result) if callable(anchor) else anchor)
        except InvalidInput as exc:
            _service_error(form, exc)
        except (NotFound, Forbidden, Conflict) as exc:
            return _refused(url_for("collections.attachments_parcel", parcel_id=parcel_id), exc)
    return _page(parcel_id, 400, form_errors(form), **{key: form})


def _debt_anchor(row) -> str:  # noqa: ANN001
    return f"#debt-{row.debt_id}"


@bp.post(f"{STAFF}/propiedad/<id:parcel_id>/aviso", endpoint="attachments_record_notice")
@staff_required
def record_notice(parcel_id: int):  # noqa: ANN201
    form = NoticeForm()
    return _submit(parcel_id, form, "notice", lambda w: attachments.record_notice(
        w, current_user, parcel_id, fiscal_years=form.fiscal_years.data,
        amounts=_amounts(form, attachments.NOTICE_AMOUNTS),
        notified_on=form.notified_on.data, delivery=form.delivery.data,
        certified_mail_number=form.certified_mail_number.data,
        custody_costs=form.custody_costs.data or attachments.ZERO),
        _("The notice of attachment is recorded."), _debt_anchor)


@bp.post(f"{STAFF}/propiedad/<id:parcel_id>/subasta", endpoint="attachments_record_auction")
@staff_required
def record_auction(parcel_id: int):  # noqa: ANN201
    form = AuctionForm(prefix="s")  # "s-": its fields' ids differ from the notice's
    return _submit(parcel_id, form, "auction", lambda w: attachments.record_auction(
        w, current_user, parcel_id, fiscal_years=form.fiscal_years.data,
        amounts=_amounts(form, attachments.AUCTION_AMOUNTS),
        appraised_on=form.appraised_on.data, real_value=form.real_value.data,
        mortgage_amount=form.mortgage_amount.data, auction_number=form.auction_number.data,
        property_debt=form.property_debt.data),
        _("The auction and its minimum are recorded."), _debt_anchor)


def _parcel_of(kind: str, object_id: int) -> int:
    try:
        with uow() as w:
            if kind == "order":
                return deposit_orders.parcel_of(w, current_user, object_id)
            return attachments.parcel_of(w, current_user, kind, object_id)
    except (NotFound, Forbidden):
        abort(404)


def _object_form(form_class, prefix: str, object_id: int):  # noqa: ANN001, ANN202
    """A form of one object on the parcel's page (its own prefix: unique ids there)."""
    form = form_class(prefix=f"{prefix}{object_id}")
    form.object_id = object_id
    return form


@bp.post(f"{STAFF}/subasta/<id:auction_id>/resultado", endpoint="attachments_record_result")
@staff_required
def record_result(auction_id: int):  # noqa: ANN201
    pid = _parcel_of("auction", auction_id)
    form = _object_form(ResultForm, "a", auction_id)
    return _submit(pid, form, "result", lambda w: attachments.record_result(
        w, current_user, auction_id, held_on=form.held_on.data, bids=form.bids.data,
        price=form.price.data), _("The auction's result is recorded."))


@bp.post(f"{STAFF}/deuda/<id:debt_id>/pagada", endpoint="attachments_record_paid")
@staff_required
def record_paid(debt_id: int):  # noqa: ANN201
    pid = _parcel_of("debt", debt_id)
    form = _object_form(PaidForm, "d", debt_id)
    return _submit(pid, form, "paid", lambda w: attachments.mark_paid(
        w, current_user, debt_id, form.paid_on.data),
        _("The debt is recorded as paid in full."))


@bp.post(f"{STAFF}/aviso/<id:notice_id>/acumulado", endpoint="attachments_record_accrual")
@staff_required
def record_accrual(notice_id: int):  # noqa: ANN201
    pid = _parcel_of("notice", notice_id)
    form = _object_form(AccrualForm, "n", notice_id)
    return _submit(pid, form, "accrual", lambda w: attachments.record_accrual(
        w, current_user, notice_id, stated_on=form.stated_on.data, accrued=form.accrued.data,
        per_day=form.per_day.data, custody_costs=form.custody_costs.data,
        reference=form.reference.data or ""),
        _("What accrued since the notice is recorded."), _notice_anchor)


def _notice_anchor(row) -> str:  # noqa: ANN001
    return f"#notice-{row.notice_id}-stop"


@bp.post(f"{STAFF}/propiedad/<id:parcel_id>/orden-deposito",
         endpoint="attachments_record_deposit_order")
@staff_required
def record_deposit_order(parcel_id: int):  # noqa: ANN201
    form = DepositOrderForm()
    return _submit(parcel_id, form, "deposit", lambda w: deposit_orders.record(
        w, current_user, parcel_id, court=form.court.data, case_number=form.case_number.data,
        ordered_on=form.ordered_on.data, notes=form.notes.data or ""),
        _("The deposit order is recorded."), "#deposit")


@bp.post(f"{STAFF}/orden-deposito/<id:order_id>/levantar",
         endpoint="attachments_lift_deposit_order")
@staff_required
def lift_deposit_order(order_id: int):  # noqa: ANN201
    pid = _parcel_of("order", order_id)
    form = _object_form(LiftForm, "o", order_id)
    return _submit(pid, form, "lift", lambda w: deposit_orders.lift(
        w, current_user, order_id, form.lifted_on.data),
        _("The deposit order is lifted."), "#deposit")


@bp.get("/propiedad/<id:parcel_id>/embargos/<id:debt_id>.pdf", endpoint="attachments_notice_pdf")
@login_required
def notice_pdf(parcel_id: int, debt_id: int):  # noqa: ANN201
    """The notice of attachment as recorded (R-C1–R-C3, R-C7), the reader's language first:
    for staff and the debtor (R-C5, the service decides); 404 for anyone else."""
    lang = current_language()
    with uow() as w:
        try:
            s = attachments.parcel_summary(w, current_user, parcel_id)
            parcel = access.get_parcel(w, current_user, parcel_id)
        except NotFound:
            abort(404)
        if s is None:
            abort(404)
        data = attachment_notice.notice_pdf(s, debt_id, parcel, lang)
    if data is None:
        abort(404)
    return pdf_response(data, attachment_notice.filename(debt_id, lang))
