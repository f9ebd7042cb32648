"""A loan's page, its acquisition of a new structure (R-B10 iii, R-B21: the 30-day notice
deadline, rolled) and its intents to pay (J7: what the lender says it will pay, so that the
owner does not pay it twice). Thin: validate, call `portal.lenders.acquisitions` and
`portal.lenders.intents`, render."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from wtforms import SubmitField

from portal import clock
from portal.accounts.errors import InvalidInput, NotFound
from portal.lenders import acquisitions, intents, portfolio
from portal.payments import service as payments
from portal.web.collections.forms import iso_date_field
from portal.web.data import uow
from portal.web.forms import word_labels
from portal.web.lenders import bp
from portal.web.lenders.marks import item_label


class AcquisitionForm(FlaskForm):
    acquired_on = iso_date_field(_l("Date of the acquisition (the deed)"))
    submit = SubmitField(_l("Report the acquisition"))


ACQUISITION_ERRORS = {
    "future": _l("The date cannot be later than today."),
    "before_law": _l("The date cannot be before the law that governs this notice took "
                     "effect (30 August 1991)."),
}


def _lender_only() -> None:
    if not current_user.is_lender:
        abort(404)


def loan_page(loan_id: int, *, acq_form: AcquisitionForm | None = None,
              errors: list[tuple[str | None, str]] | None = None, status: int = 200
              ):  # noqa: ANN201
    """The loan's page: its figures, what to pay or retain (R-B10), its acquisitions with
    their notice deadlines and what the lender said it will pay."""
    _lender_only()
    today = clock.today()
    fy = portfolio.fiscal_year_start(today)
    try:
        with uow() as w:
            # The loan read once (the access check), and passed down.
            row, ref = portfolio.loan_and_ref(w, current_user, loan_id, today=today)
            retention = portfolio.retentions(w, [row.parcel_id], fy)[row.parcel_id]
            reported = (acquisitions.for_loans(w, [ref.id], today).get(ref.id, [])
                        if row.acquired_on is not None else [])  # (the latest's date: none)
            opts = intents.options_for(w, ref, today, kept=retention)
            paying = _owner_paying(w, opts)
    except NotFound:
        abort(404)
    marked = opts.marked_keys()
    acq_form = word_labels(acq_form or AcquisitionForm(formdata=None))
    return render_template(
        "lenders/loan.html", row=row, retention=retention, today=today,
        fy_label=f"{fy.year}-{fy.year + 1}", acquisitions=reported,
        acq_form=acq_form, errors=errors or [],
        items=[i for i in opts.items if i.key not in marked],
        intents=[i for i in opts.marked if i.withdrawn_at is None],
        withdrawn=[i for i in opts.marked if i.withdrawn_at is not None],
        paid_numbers=opts.paid_numbers, owner_paying=paying, item_label=item_label,
        legal_date=clock.legal_date), status


def _owner_paying(w: Any, opts: intents.Options) -> list[Any]:
    """Someone else's payment of the loan's District account not finished (the owner's,
    usually): the lender is told, and may not mark it (the guard against paying twice)."""
    if opts.fiscal_year is None:
        return []
    return payments.others_paying(
        w, current_user, [payments.account_key(opts.loan.parcel_id, opts.fiscal_year.id)])


@bp.post("/prestamos/<id:loan_id>/adquisicion")
@login_required
def report_acquisition(loan_id: int):  # noqa: ANN201
    """R-B10 (iii), R-B21: the lender reports the acquisition of a new structure."""
    _lender_only()
    form = AcquisitionForm()
    if not form.validate_on_submit():
        return loan_page(loan_id, acq_form=form, errors=_field_errors(form), status=400)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            ref = acquisitions.find_loan(w, current_user, loan_id=loan_id)
            acquisitions.report(w, current_user, ref.loan_number,
                                       acquired_on=form.acquired_on.data)
    except NotFound:
        abort(404)
    except InvalidInput as exc:
        form.acquired_on.errors = [str(ACQUISITION_ERRORS.get(exc.code,
                                                              ACQUISITION_ERRORS["future"]))]
        return loan_page(loan_id, acq_form=form, errors=_field_errors(form), status=400)
    flash(_("The acquisition was recorded. Notify the CRIM by the last day shown."), "success")
    return redirect(url_for("lenders.loan", loan_id=loan_id) + "#acquisitions", 303)


def _field_errors(form: FlaskForm) -> list[tuple[str | None, str]]:
    from portal.web.form_errors import form_errors
    return form_errors(form)


@bp.post("/prestamos/<id:loan_id>/pagaremos")
@login_required
def mark_intents(loan_id: int):  # noqa: ANN201
    """J7: mark the CRIM bills and District installments the lender will pay."""
    _lender_only()
    form = FlaskForm()
    if not form.validate_on_submit():
        return loan_page(loan_id, errors=[(None, _("The form expired: send it again."))],
                         status=400)
    keys = request.form.getlist("item")
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            opts = intents.options(w, current_user, loan_id)
            if _owner_paying(w, opts) and any(not k.startswith("crim-") for k in keys):
                message = _("Someone else is already paying the District's account of this "
                            "parcel. Wait until that payment ends before marking its "
                            "installments.")
                return loan_page(loan_id, errors=[("#intent-items", message)], status=409)
            intents.mark(w, current_user, loan_id, keys)
    except NotFound:
        abort(404)
    except InvalidInput as exc:
        message = (_("Choose at least one item to pay.") if exc.code == "empty" else
                   _("Some of the items chosen can no longer be paid (already paid, or "
                     "nothing due). Look at the list again."))
        return loan_page(loan_id, errors=[("#intent-items", message)], status=400)
    flash(_("Saved: the owner will see that you will pay these."), "success")
    return redirect(url_for("lenders.loan", loan_id=loan_id) + "#intents", 303)


@bp.post("/prestamos/<id:loan_id>/pagaremos/<id:intent_id>/retirar")
@login_required
def withdraw_intent(loan_id: int, intent_id: int):  # noqa: ANN201
    """J7: withdraw an intent to pay (kept, marked withdrawn)."""
    _lender_only()
    form = FlaskForm()
    if not form.validate_on_submit():
        return loan_page(loan_id, errors=[(None, _("The form expired: send it again."))],
                         status=400)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            intents.withdraw(w, current_user, loan_id, intent_id)
    except NotFound:
        abort(404)
    flash(_("Withdrawn: the owner no longer sees that you will pay it."), "success")
    return redirect(url_for("lenders.loan", loan_id=loan_id) + "#intents", 303)
