"""Autopay's pages: a parcel's autopay (enrol, choose the plan and the
method, cancel), saving a card or bank account (the provider's page, or the sandbox's),
one's saved methods (listed, removable), and the staff's list of enrolments and their
failures. Thin: read the form, call `portal.payments.autopay`, render.
"""

from __future__ import annotations

import logging

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from portal import clock, date_input
from portal.accounts.errors import Forbidden, InvalidInput, NotFound
from portal.core import autopay as core
from portal.core.explain import N_
from portal.i18n import current_language
from portal.payments.autopay import enrolments, methods
from portal.payments.gateway import GatewayError, SandboxGateway
from portal.web.data import database, external_url, uow
from portal.web.payments import bp
from portal.web.payments.gateways import gateway
from portal.web.staff_access import staff_second_factor

log = logging.getLogger(__name__)

#: The refusals of `enrolments.enrol`, in the payer's words.
ENROL_ERRORS = {
    "method_missing": N_("Choose a saved card or bank account, or add one."),
    "plan_missing": N_("Choose what to pay automatically."),
    "lump_sum_unavailable": N_("The lump sum with its discount can no longer be paid for this "
                               "year: choose each installment on its due date."),
    "lump_sum_day_missing": N_("Write the day to pay the lump sum."),
    "lump_sum_day_past": N_("The day to pay the lump sum cannot be before today."),
    "lump_sum_day_late": N_("The day to pay the lump sum cannot be after %(deadline)s, the "
                            "last day of its discount."),
}


def _enrol_error(exc: InvalidInput) -> str:
    from portal.i18n import date_long

    params = {k: date_long(v) if hasattr(v, "isoformat") else v
              for k, v in (exc.params or {}).items() if k != "field"}
    return _(ENROL_ERRORS.get(exc.code) or N_("Check what you chose."), **params)


def _page(parcel_id: int) -> enrolments.AutopayPage:
    try:
        with uow() as w:
            return enrolments.page(w, current_user, parcel_id, gateway().name)
    except NotFound:
        abort(404)


@bp.route("/propiedad/<id:parcel_id>/pago-automatico", methods=["GET", "POST"])
@login_required
def autopay(parcel_id: int):  # noqa: ANN201
    v = _page(parcel_id)
    errors: dict[str, str] = {}
    values = {"plan": request.form.get("plan", core.PLAN_INSTALLMENTS),
              "method": request.form.get("method", ""),
              "lump_sum_on": request.form.get("lump_sum_on", "")}
    if request.method == "POST":
        if not v.may_enrol:
            abort(403)
        lump_on = None
        if values["plan"] == core.PLAN_LUMP_SUM:
            try:
                lump_on = date_input.parse(values["lump_sum_on"], current_language())
            except date_input.DateInputError as exc:
                errors["lump_sum_on"] = exc.message()
        if not errors:
            try:
                with uow() as w:
                    w.info["ip"] = request.remote_addr
                    enrolments.enrol(w, current_user, parcel_id, method_id=values["method"],
                                     plan=values["plan"], lump_sum_on=lump_on,
                                     language=current_language())
            except InvalidInput as exc:
                errors[str(exc.params.get("field") or "plan")] = _enrol_error(exc)
            except Forbidden as exc:
                if exc.code == "already_enrolled":
                    flash(_("Autopay is already on for this parcel."), "info")
                    return redirect(url_for("payments.autopay", parcel_id=parcel_id), 303)
                abort(403)
            except NotFound:
                abort(404)
            else:
                flash(_("Autopay is on. You will get an email before each debit."), "success")
                return redirect(url_for("payments.autopay", parcel_id=parcel_id), 303)
    return render_template("payments/autopay.html", v=v, values=values, errors=errors,
                           sandbox=isinstance(gateway(), SandboxGateway)), \
        400 if errors else 200


@bp.post("/propiedad/<id:parcel_id>/pago-automatico/cancelar")
@login_required
def autopay_cancel(parcel_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            enrolments.cancel(w, current_user, parcel_id)
    except NotFound:
        abort(404)
    except Forbidden:
        abort(403)
    flash(_("Autopay is cancelled: nothing more will be debited."), "success")
    return redirect(url_for("payments.autopay", parcel_id=parcel_id), 303)


def _start_setup(parcel_id: int | None):  # noqa: ANN202
    try:
        url = methods.start_setup(
            database(), current_user, gateway=gateway(), language=current_language(),
            success_url=lambda n: external_url("payments.setup_return", setup_id=n),
            cancel_url=lambda n: external_url("payments.autopay", parcel_id=parcel_id)
            if parcel_id else external_url("payments.saved_methods"),
            parcel_id=parcel_id)
    except GatewayError:
        flash(_("The payment provider could not be reached. Nothing was saved; try again "
                "in a few minutes."), "error")
        return redirect(url_for("payments.autopay", parcel_id=parcel_id) if parcel_id
                        else url_for("payments.saved_methods"), 303)
    return redirect(url, 303)


@bp.post("/propiedad/<id:parcel_id>/pago-automatico/metodo")
@login_required
def autopay_add_method(parcel_id: int):  # noqa: ANN201
    v = _page(parcel_id)
    if not v.may_enrol:
        abort(403)
    return _start_setup(parcel_id)


@bp.get("/pagos/metodo/<id:setup_id>/listo")
@login_required
def setup_return(setup_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            saved = methods.finish_setup(w, current_user, setup_id, gateway=gateway())
            parcel_id = methods.setup_parcel(w, current_user, setup_id)
    except (NotFound, Forbidden):
        abort(404)
    except GatewayError:
        flash(_("The payment provider could not be reached; come back to this page in a few "
                "minutes."), "error")
        saved, parcel_id = None, None
    if saved is not None:
        flash(_("Payment method saved."), "success")
    else:
        flash(_("No payment method was saved."), "info")
    if parcel_id:
        return redirect(url_for("payments.autopay", parcel_id=parcel_id), 303)
    return redirect(url_for("payments.saved_methods"), 303)


@bp.route("/pagos/prueba/metodo/<setup_id>", methods=["GET", "POST"])
@login_required
def sandbox_setup(setup_id: str):  # noqa: ANN201
    """Test mode: the payer saves a test card or bank account (the sandbox's SetupIntent),
    only the payer who started it."""
    gw = gateway()
    if not isinstance(gw, SandboxGateway):
        abort(404)
    record = gw.setup_store.get(setup_id)
    if record is None or not record.reference.isdigit():
        abort(404)
    try:
        with uow() as w:
            methods.setup_parcel(w, current_user, int(record.reference))
    except NotFound:
        abort(404)
    if request.method == "POST":
        outcome = request.form.get("outcome", "")
        if outcome == "cancel":
            return redirect(record.cancel_url, 303)
        try:
            gw.complete_setup(setup_id, outcome)
        except GatewayError:
            abort(400)
        return redirect(record.success_url, 303)
    return render_template("payments/sandbox_setup.html", record=record)


@bp.route("/cuenta/metodos-de-pago", methods=["GET", "POST"])
@login_required
def saved_methods():  # noqa: ANN201
    if request.method == "POST":
        if current_user.is_staff:  # staff take payments at the office, never save a method
            abort(403)
        return _start_setup(None)
    with uow() as w:
        rows = methods.listed(w, current_user)
    return render_template("payments/saved_methods.html", rows=rows)


@bp.post("/cuenta/metodos-de-pago/<id:method_id>/quitar")
@login_required
def remove_method(method_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            ended = methods.remove(w, current_user, method_id, gateway=gateway())
    except NotFound:
        abort(404)
    except GatewayError:
        flash(_("The payment provider could not be reached. Nothing was removed; try again "
                "in a few minutes."), "error")
        return redirect(url_for("payments.saved_methods"), 303)
    flash(_("Payment method removed.") + (" " + _("Autopay that used it has ended.")
                                           if ended else ""), "success")
    return redirect(url_for("payments.saved_methods"), 303)


@bp.get("/personal/pago-automatico")
@login_required
@staff_second_factor
def autopay_staff():  # noqa: ANN201
    try:
        with uow() as w:
            rows = enrolments.staff_overview(w, current_user)
    except Forbidden:
        abort(403)
    return render_template("payments/autopay_staff.html", rows=rows, today=clock.today())
