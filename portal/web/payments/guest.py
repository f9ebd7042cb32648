"""Paying without an account, on the payments blueprint.

- `/pagar-sin-cuenta`: the catastro number and the access code on the notice (throttled as
  the claim form: the same per-address limit, `RATELIMIT_CLAIM`, and the service's counter
  of wrong codes);
- `/pagar-sin-cuenta/enlace/<token>`: the signed link of the notice's and the statement's QR
  code;
- either opens a guest session (`payments.guest.GuestPass`, kept in the server-side
  session) for that one parcel, for `guest.SESSION_MINUTES`: the pay page shows only what
  can be paid and the offer's figures, the review, the checkout (the same gateway and path
  as a signed-in payer's), and the receipt on screen (and by email, to the address given).
  Nothing else of the account: no other page opens with it.

Thin: read the form, call `portal.payments.guest`, render the pay pages' templates.
"""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

from email_validator import EmailNotValidError, validate_email
from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from wtforms import StringField, SubmitField
from wtforms.validators import InputRequired, Length, Regexp

from portal import clock
from portal.accounts.errors import ClaimRateLimited, ClaimRefused, NotFound
from portal.core import offer as core_offer
from portal.core import payment_states as states
from portal.core.money import parse_money
from portal.i18n import current_language, formats
from portal.payments import fulfilment, guest, receipts
from portal.payments.gateway import GatewayError, SandboxGateway
from portal.payments.service import OthersPaying
from portal.web.data import database, uow
from portal.web.extensions import shared_limit
from portal.web.payments import bp, emails, present
from portal.web.payments import routes as pay_pages
from portal.web.payments.gateways import gateway
from portal.web.payments.guest_session import current_pass, forget, guest_checkout, keep
from portal.web.present import authority_phone

log = logging.getLogger(__name__)

class GuestCodeForm(FlaskForm):
    catastro = StringField(_l("Catastro number"), validators=[
        InputRequired(message=_l("Enter the catastro number.")),
        Length(max=32, message=_l("The catastro number is at most 32 characters.")),
        Regexp(r"^[0-9 \-.]+$", message=_l("Use only digits and dashes, like 040-012-345-67."))])
    code = StringField(_l("Access code"), validators=[
        InputRequired(message=_l("Enter the access code.")),
        Length(max=40, message=_l("The access code is at most 40 characters."))])
    submit = SubmitField(_l("Continue to pay"))


# --- the guest's session -------------------------------------------------------------------

def _required() -> guest.GuestPass:
    """The guest pass, or the page that says the guest session ended (403: it opens
    nothing)."""
    found = current_pass()
    if found is None:
        abort(_ended())
    return found


def _ended():  # noqa: ANN202
    return current_app.make_response((render_template("payments/guest_ended.html"), 403))


@bp.app_context_processor
def guest_words() -> dict[str, Any]:
    return {"guest_minutes": guest.SESSION_MINUTES}


def _open(p: guest.GuestPass):  # noqa: ANN202
    forget()
    keep(p)
    return redirect(url_for("payments.guest_choose"), 303)


@bp.route("/pagar-sin-cuenta", methods=["GET", "POST"])
@shared_limit("RATELIMIT_CLAIM", key=lambda: f"guest:{request.remote_addr}")
def guest_start():  # noqa: ANN201
    form = GuestCodeForm()
    status = 200
    if form.validate_on_submit():
        try:
            with uow() as w:
                w.info["ip"] = request.remote_addr
                opened = guest.open_by_code(w, form.catastro.data, form.code.data)
        except ClaimRateLimited as exc:
            minutes = max(1, (int(exc.params.get("retry_after", 3600)) + 59) // 60)
            form.code.errors.append(ngettext(
                "Too many wrong codes. Try again in %(num)d minute, or call the Authority at "
                "%(phone)s.",
                "Too many wrong codes. Try again in %(num)d minutes, or call the Authority at "
                "%(phone)s.", minutes, phone=authority_phone()))
            status = 429
        except ClaimRefused:
            form.code.errors.append(_("The catastro number and the access code do not match. "
                                      "Check both on your notice and try again."))
            status = 400
        else:
            return _open(opened)
    elif request.method == "POST":
        status = 400
    return render_template("payments/guest_start.html", form=form), status


@bp.get("/pagar-sin-cuenta/enlace/<token>")
def guest_link(token: str):  # noqa: ANN201
    try:
        with uow() as w:
            opened = guest.read_pay_link(w, token, current_app.config["SECRET_KEY"])
    except ClaimRefused:
        log.info("payments: a guest pay link refused (changed, expired or another key)")
        form = GuestCodeForm(formdata=None)
        return render_template("payments/guest_start.html", form=form, bad_link=True), 400
    return _open(opened)


@bp.post("/pagar-sin-cuenta/salir")
def guest_end():  # noqa: ANN201
    forget()
    flash(_("You left the payment page. Nothing of this parcel stays open in this browser."),
          "info")
    return redirect(url_for("payments.guest_start"), 303)


# --- choose, review, pay -------------------------------------------------------------------

def _accounts(p: guest.GuestPass) -> list[Any]:
    try:
        with uow() as w:
            return guest.accounts(w, p, clock.today())
    except NotFound:
        abort(_ended())


def _payer_values(form: Any) -> tuple[dict[str, str], dict[str, str]]:
    """The payer's email (required: the receipt goes there) and name, and their errors."""
    values = {"email": (form.get("payer_email") or "").strip()[:254],
              "name": (form.get("payer_name") or "").strip()}
    errors: dict[str, str] = {}
    if not values["email"]:
        errors["payer_email"] = _("Enter the email the receipt is sent to.")
    else:
        try:
            values["email"] = validate_email(values["email"],
                                             check_deliverability=False).normalized
        except EmailNotValidError:
            errors["payer_email"] = _("Enter an email like nombre@ejemplo.com.")
    if len(values["name"]) > 200:
        errors["payer_name"] = _("The name is at most 200 characters.")
    return values, errors


def _choose_page(p, accounts, values=None, errors=None, offers=None, payer=None,  # noqa: ANN001, ANN202
                 payer_errors=None, status=200):
    if payer_errors and not errors:
        errors = {"_": _("Please correct the fields marked below.")}
    f = formats()
    return render_template(
        "payments/choose.html",
        accounts=[pay_pages._account_view(a, values, errors, f) for a in accounts],
        values=values or {}, errors=errors or {}, payoff_offers=offers or {},
        today=clock.today(), unfinished=[], lender_marks=[], guest=True,
        payer=payer or {"email": "", "name": ""}, payer_errors=payer_errors or {},
        review_url=url_for("payments.guest_review")), status


@bp.get("/pagar-sin-cuenta/pagar")
def guest_choose():  # noqa: ANN201
    p = _required()
    return _choose_page(p, _accounts(p))


def _read(p: guest.GuestPass):  # noqa: ANN202
    """(accounts, priced or None, the page to answer instead, chosen values, payer)."""
    accounts = _accounts(p)
    choices, errors, values = pay_pages.read_choices(request.form, accounts)
    payer, payer_errors = _payer_values(request.form)
    if errors or payer_errors:
        return accounts, None, _choose_page(p, accounts, values, errors, payer=payer,
                                            payer_errors=payer_errors, status=400), values, payer
    priced, errors, offers = pay_pages._price(accounts, choices)
    if priced is None:
        return accounts, None, _choose_page(p, accounts, values, errors, offers, payer=payer,
                                            status=400), values, payer
    return accounts, priced, None, values, payer


def _review_page(accounts, priced: core_offer.Priced, values, payer, notice=None,  # noqa: ANN001, ANN202
                 status=200, others=False, confirm_error=None):
    parts = []
    for part in priced.parts:
        account = next(a for a in accounts if a.key == part.account)
        parts.append({
            "key": part.account, "catastro": account.parcel.catastro,
            "fiscal_year": account.fiscal_year.label,
            "kind": present.kind_label(part.kind, part.through), "amount": part.amount,
            "lines": present.preview_lines(part), "had_arrears": account.offer.has_arrears,
            "arrears": account.offer.arrears, "leaves_arrears": part.leaves_arrears,
            "leaves_due_now": part.leaves_due_now, "leaves_payoff": part.after.payoff,
            "discount": sum((ln.amount for ln in part.application.lines
                             if ln.kind == "discount"), Decimal("0.00")),
            "lump_deadline": account.offer.lump_sum.deadline})
    chosen = {k: v for k, v in values.items() if v["choice"] not in ("", "none")}
    return render_template(
        "payments/review.html", parts=parts, total=priced.total, values=chosen, notice=notice,
        today=clock.today(), others=[_("Another payment of this parcel was started in the "
                                       "last day and is not finished.")] if others else [],
        confirm_error=confirm_error, lender_error=None, lender_marks=[], guest=True,
        payer=payer, confirm_url=url_for("payments.guest_confirm"),
        choose_url=url_for("payments.guest_choose")), status


@bp.route("/pagar-sin-cuenta/revisar", methods=["GET", "POST"])
def guest_review():  # noqa: ANN201
    p = _required()
    if request.method == "GET":
        return redirect(url_for("payments.guest_choose"), 303)
    accounts, priced, page, values, payer = _read(p)
    if priced is None:
        return page
    return _review_page(accounts, priced, values, payer)


@bp.route("/pagar-sin-cuenta/confirmar", methods=["GET", "POST"])
def guest_confirm():  # noqa: ANN201
    p = _required()
    if request.method == "GET":
        return redirect(url_for("payments.guest_choose"), 303)
    accounts, priced, page, values, payer = _read(p)
    if priced is None:
        return page
    try:
        expected = parse_money(request.form.get("expected_total", ""))
    except ValueError:
        expected = None
    if expected != priced.total:
        return _review_page(accounts, priced, values, payer, present.error_text("changed"), 409)
    description = _("District benefit assessment, parcel %(catastro)s",
                    catastro=accounts[0].parcel.catastro)
    try:
        started = guest.start_checkout(
            database(), p, guest.GuestPayer(payer["email"], payer["name"], p.key), priced,
            language=current_language(), gateway=gateway(), description=description,
            ip=request.remote_addr, pay_anyway=request.form.get("pay_anyway") == "yes",
            success_url=lambda cid: url_for("payments.guest_success", checkout_id=cid,
                                            _external=True),
            cancel_url=lambda cid: url_for("payments.guest_cancel", checkout_id=cid,
                                           _external=True))
    except OthersPaying:
        return _review_page(accounts, priced, values, payer, status=409, others=True,
                            confirm_error=_("Someone else is already paying this. To pay it "
                                            "too, check the box below."))
    except GatewayError as exc:
        return _review_page(accounts, priced, values, payer, present.gateway_error(exc.kind),
                            503)
    except NotFound:
        abort(_ended())
    keep(p.renewed())  # the checkout's return finds the session open
    return redirect(started.url, 303)


# --- back from the checkout, the receipt ---------------------------------------------------

def _mine(checkout_id: int) -> Any:
    chk = guest_checkout(checkout_id)
    if chk is None:
        abort(404)
    return chk


@bp.get("/pagar-sin-cuenta/pagos/<id:checkout_id>/exito")
def guest_success(checkout_id: int):  # noqa: ANN201
    chk = _mine(checkout_id)
    if chk.status in states.OPEN and chk.provider_session_id:
        try:
            with uow() as w:
                w.info["ip"] = request.remote_addr
                outcome = fulfilment.fulfil(w, chk.id, gateway=gateway())
            if outcome.kind == "posted":
                emails.send_receipt(chk.id)
        except GatewayError:
            log.warning("payments: guest checkout %s: provider unreachable on return", chk.id)
        except fulfilment.Mismatch:
            abort(400)
    return redirect(url_for("payments.guest_receipt", checkout_id=chk.id), 303)


@bp.get("/pagar-sin-cuenta/pagos/<id:checkout_id>/cancelado")
def guest_cancel(checkout_id: int):  # noqa: ANN201
    chk = _mine(checkout_id)
    return render_template("payments/cancelled.html", chk=chk,
                           resume=chk.checkout_url if chk.status in states.OPEN else None,
                           choose_url=url_for("payments.guest_choose"))


def _receipt(checkout_id: int) -> present.ReceiptView:
    _mine(checkout_id)
    with uow() as w:
        chk = guest.checkout(w, current_pass(), checkout_id)
        return present.receipt_view(receipts.build(w, chk))


@bp.get("/pagar-sin-cuenta/pagos/<id:checkout_id>/recibo")
def guest_receipt(checkout_id: int):  # noqa: ANN201
    v = _receipt(checkout_id)
    chk = v.receipt.checkout
    sandbox_bank = (chk.provider == "sandbox" and chk.status == states.PROCESSING
                    and isinstance(gateway(), SandboxGateway))
    return render_template("payments/receipt.html", v=v, chk=chk, sandbox_bank=sandbox_bank,
                           guest=True, guest_email=chk.payer_email,
                           choose_url=url_for("payments.guest_choose"),
                           pdf_url=url_for("payments.guest_receipt_pdf", checkout_id=chk.id))


@bp.get("/pagar-sin-cuenta/pagos/<id:checkout_id>/recibo.pdf")
def guest_receipt_pdf(checkout_id: int):  # noqa: ANN201
    v = _receipt(checkout_id)
    if not v.receipt.checkout.receipt_number:
        abort(404)
    return pay_pages._pdf_response(v)
