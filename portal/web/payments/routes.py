"""The payments blueprint: choose what to pay, review, go to the checkout, come back; the
webhook; the sandbox's checkout (test mode); receipts (page, PDF, email) and history; staff's
office payments and credit refunds.

Thin: read the form, call `portal.payments`, render. Every amount is computed on the server
by the core: the browser posts choices (and an amount it typed, validated against the
server's limits), never a price.
"""

from __future__ import annotations

import logging
from datetime import date
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from flask import (
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required
from markupsafe import Markup, escape

from portal import clock
from portal.accounts import access
from portal.accounts.errors import Forbidden, InvalidInput, NotFound, ServiceError
from portal.core import offer as core_offer
from portal.core import payment_states as states
from portal.core.explain import N_
from portal.core.money import parse_money
from portal.core.offer import ChoiceError
from portal.documents import receipt as receipt_docs
from portal.i18n import LOCALES, current_language, format_address, formats
from portal.payments import fulfilment, receipts, service
from portal.payments.gateway import GatewayError, SandboxGateway
from portal.payments.webhooks import handle_webhook, process_event, sandbox_event
from portal.web import fragments
from portal.web.data import database, uow
from portal.web.extensions import csrf
from portal.web.lenders.marks import account_marks
from portal.web.payments import bp, emails, guest_session, present
from portal.web.payments.amounts import parse_amount
from portal.web.payments.gateways import gateway
from portal.web.pdf_response import pdf_response
from portal.web.request_context import as_provider
from portal.web.request_context import register as register_request_context
from portal.web.staff_access import staff_second_factor

log = logging.getLogger(__name__)

register_request_context(bp)  # the audit log's actor and address, for every request


# --- choose, review, pay -------------------------------------------------------------------

def _accounts(parcel_id: int | None = None) -> list[service.PayableAccount]:
    with uow() as w:
        return service.payable_accounts(w, current_user, clock.today(), parcel_id)


def _locale() -> str:
    return LOCALES.get(current_language(), "es_PR")


def read_choices(form: Any, accounts: list[service.PayableAccount]
                 ) -> tuple[list[core_offer.Choice], dict[str, str], dict[str, dict[str, str]]]:
    """The choices posted, the errors per account key, and what was typed (to show it
    again). Keys the user may not pay are refused and logged."""
    known = {a.key for a in accounts}
    choices: list[core_offer.Choice] = []
    errors: dict[str, str] = {}
    values: dict[str, dict[str, str]] = {}
    for name in form:
        if name.startswith("choice-") and name[7:] not in known \
                and form.get(name) not in ("", "none"):
            log.warning("payments: user %s posted an account not theirs: %s",
                        current_user.get_id(), name[7:])
            errors["_"] = present.error_text("not_yours")
    for a in accounts:
        kind = form.get(f"choice-{a.key}", "none")
        through = form.get(f"through-{a.key}", "")
        if kind.startswith("through-"):
            # Each "installments through N" is its own radio button: the choice is one click.
            kind, through = "installments", kind[len("through-"):]
        typed = {"choice": kind, "through": through, "amount": form.get(f"amount-{a.key}", "")}
        values[a.key] = typed
        try:
            if typed["amount"].strip() and kind != "amount":
                # An amount typed without choosing "Another amount" (the radio stayed on
                # what is due now): ask, rather than charge something else than was typed.
                raise ChoiceError("duplicate_account", a.key)
            if through.strip() and kind != "installments":
                # An installment named (an old form's list) while another option is chosen:
                # ask, rather than silently pay something else.
                raise ChoiceError("duplicate_account", a.key)
            if kind in ("", "none"):
                continue
            if kind == "installments":
                try:
                    through = int(typed["through"])
                except ValueError:
                    raise ChoiceError("unknown_installment", a.key) from None
                choices.append(core_offer.Choice(a.key, kind, through=through))
            elif kind == "amount":
                amount = parse_amount(typed["amount"], _locale())
                choices.append(core_offer.Choice(a.key, kind, amount=amount))
            elif kind in ("due_now", "lump_sum", "stop_claim"):
                choices.append(core_offer.Choice(a.key, kind))
            else:
                raise ChoiceError("unknown_kind", a.key)
        except ChoiceError as exc:
            errors[a.key] = present.error_text(exc.code, exc.params)
            log.info("payments: choice refused for %s: %s", a.key, exc.code)
    return choices, errors, values


def _price(accounts: list[service.PayableAccount], choices: list[core_offer.Choice]
           ) -> tuple[core_offer.Priced | None, dict[str, str], dict[str, Decimal]]:
    offers = {a.key: a.offer for a in accounts}
    try:
        return core_offer.price_all(offers, choices), {}, {}
    except ChoiceError as exc:
        log.info("payments: pricing refused (%s) for user %s", exc.code, current_user.get_id())
        key = exc.account or "_"
        offer = {key: exc.params["payoff"]} if exc.code == "too_much" else {}
        return None, {key: present.error_text(exc.code, exc.params)}, offer


def _choose_facts(w: Any, accounts: list[service.PayableAccount]) -> dict[str, Any]:
    """What the choose page shows beside the accounts, read in the page's unit of work: the
    user's payments started and not finished, and what a lender said it will pay (J7)."""
    unfinished = [{"amount": c.amount, "url": c.checkout_url,
                   "date": clock.legal_date(c.created_at)}
                  for c in service.open_checkouts(w, current_user)]
    return {"unfinished": unfinished,
            "lender_marks": account_marks([a.key for a in accounts], w)}


def _choose_page(accounts, values=None, errors=None, offers=None, status=200,  # noqa: ANN001, ANN202
                 shown=None):  # noqa: ANN001
    if shown is None:
        with uow() as w:
            shown = _choose_facts(w, accounts)
    f = formats()
    return render_template("payments/choose.html",
                           accounts=[_account_view(a, values, errors, f) for a in accounts],
                           values=values or {}, errors=errors or {},
                           payoff_offers=offers or {}, today=clock.today(), **shown), status


#: An installment the pay page offers to pay through (its number and due date).
THROUGH = N_("through No. %(number)s (due %(date)s)")


#: One "installments through No. N" radio button of the choose page (what its template's
#: loop wrote, the same markup to the byte): {key}, {n}, {checked}, {invalid}, {amount},
#: {text}; the texts are escaped by `_installment_radios`.
_THROUGH_RADIO = (
    '\n    <div class="usa-radio">\n      <input class="usa-radio__input" id="inst-{key}-{n}" '
    'type="radio" name="choice-{key}" value="through-{n}"{checked} '
    'aria-describedby="inst-head-{key}"{invalid}>\n      <label class="usa-radio__label" '
    'for="inst-{key}-{n}"><strong class="portal-money">{amount}</strong> · {text}</label>\n'
    '    </div>\n    ')


def _installment_radios(key: str, installments: list, through: str | None,
                        invalid: bool) -> Markup:
    """The account's "installments through No. N" radio buttons, written here rather than
    by a loop of the template: an account owes up to a year's installments, and the
    template's output per field of each (its key four times, its number three) was about a
    quarter of the page's rendering. `through`: the number posted back (checked again)."""
    key, aria = escape(key), ' aria-invalid="true"' if invalid else ""
    return Markup("".join(_THROUGH_RADIO.format(
        key=key, n=i.number, checked=" checked" if through == str(i.number) else "",
        invalid=aria, amount=escape(i.amount_text), text=escape(i.text))
        for i in installments))


def _deadline(f: Any, day: date | None, today: date) -> Markup | None:
    """A deadline as the pages write it (`fragments.deadline`: its date and how far it is
    from today), worded by the view: a call from the template each was much of its time."""
    return None if day is None else fragments.deadline(day, today, f)


def _account_view(a: service.PayableAccount, values: dict | None = None,
                  errors: dict | None = None, f: Any = None) -> SimpleNamespace:
    """An account as the choose page shows it, with what was posted (`values`) and refused
    (`errors`) when the page comes back with errors. Objects, not dicts: the template reads
    a few hundred fields a page, and Jinja tries an attribute before a key (a dict's field
    costs a failed attribute lookup first). `f`: the page's `formats()`."""
    o, st = a.offer, a.offer.statement
    lump = o.lump_sum
    nd, due_by = o.next_due, o.due_now_by
    f = f or formats()
    through = f.tr.gettext(THROUGH)
    money, date_long = f.money, f.date_long
    installments = [SimpleNamespace(number=i.number, amount_text=money(i.amount_through),
                                    text=through % {"number": i.number,
                                                    "date": date_long(i.due_date)})
                    for i in o.installments]
    posted = (values or {}).get(a.key, {})
    today = clock.today()  # as the template's `today`
    return SimpleNamespace(
        key=a.key, parcel_id=a.parcel.id, catastro=a.parcel.catastro,
        address=format_address(a.parcel.address, a.parcel.municipality),
        fiscal_year=a.fiscal_year.label, due_now=o.due_now, payoff=o.payoff,
        arrears=o.arrears, has_arrears=o.has_arrears, interest=st.interest,
        late_fees=st.late_fees, costs=st.costs,
        delinquent_principal=st.delinquent_principal, credit=st.credit,
        installments=installments,
        installment_radios=_installment_radios(
            a.key, installments,
            posted.get("through") if posted.get("choice") == "installments" else None,
            bool((errors or {}).get(a.key))),
        next=(SimpleNamespace(amount=nd.owed, due=nd.due_date, last=nd.last_timely_day,
                              count=nd.count,
                              due_shown=_deadline(f, nd.due_date, today),
                              last_shown=_deadline(f, nd.last_timely_day, today))
              if nd is not None else None),
        due_by=due_by, due_by_shown=_deadline(f, due_by, today), due_count=o.due_now_count,
        stop=(SimpleNamespace(amount=o.stop.today, last_day=o.stop.last_day,
                              by_last_day=o.stop.by_last_day,
                              last_day_shown=_deadline(f, o.stop.last_day, today))
              if o.stop is not None and o.stop.stage == "demand_window" else None),
        lump=SimpleNamespace(
            eligible=lump.eligible, amount=lump.amount, discount=lump.discount,
            deadline=lump.deadline, deadline_shown=_deadline(f, lump.deadline, today),
            gone=None if lump.eligible else present.lump_gone(
                lump.reason, lump.deadline, lump.discount, lump.granted_on)),
    )


@bp.get("/pagar")
@login_required
def choose():  # noqa: ANN201
    parcel_id = request.args.get("parcela", type=int)
    with uow() as w:  # the page's one unit of work
        accounts = service.payable_accounts(w, current_user, clock.today(), parcel_id,
                                            rows=True)
        shown = _choose_facts(w, accounts)
    if parcel_id is not None and not accounts:
        abort(404)
    return _choose_page(accounts, shown=shown)


def _review_page(accounts, priced, values, notice=None, status=200, *,  # noqa: ANN001, ANN202
                 others=None, confirm_error=None, lender_error=None):
    """The review; `others`: someone else's payments of the same accounts not finished
    (read here when not given): the page says who and when, and asks to confirm; so too
    for what a lender said it will pay (J7, `account_marks`)."""
    if others is None:
        with uow() as w:
            others = service.others_paying(w, current_user, [p.account for p in priced.parts])
    parts = []
    for p in priced.parts:
        account = next(a for a in accounts if a.key == p.account)
        parts.append({
            "key": p.account, "catastro": account.parcel.catastro,
            "fiscal_year": account.fiscal_year.label, "kind": present.kind_label(p.kind,
                                                                                 p.through),
            "amount": p.amount, "lines": present.preview_lines(p),
            "had_arrears": account.offer.has_arrears, "arrears": account.offer.arrears,
            "leaves_arrears": p.leaves_arrears, "leaves_due_now": p.leaves_due_now,
            "leaves_payoff": p.after.payoff, "discount": sum(
                (ln.amount for ln in p.application.lines if ln.kind == "discount"),
                Decimal("0.00")),
            "lump_deadline": account.offer.lump_sum.deadline,
        })
    catastro = {a.key: a.parcel.catastro for a in accounts}
    return render_template("payments/review.html", parts=parts, total=priced.total,
                           values=values, notice=notice, today=clock.today(),
                           others=present.others_paying(others, catastro),
                           confirm_error=confirm_error, lender_error=lender_error,
                           lender_marks=account_marks([p.account for p in priced.parts])), status


def _back_to_choices():  # noqa: ANN202
    """The review and the confirmation answer the choose form; reached by a plain GET (the
    language switch, a bookmark, a reload) they go back to the choices instead of a 405."""
    return redirect(url_for("payments.choose"), 303)


@bp.route("/pagar/revisar", methods=["GET", "POST"])
@login_required
def review():  # noqa: ANN201
    if request.method == "GET":
        return _back_to_choices()
    accounts = _accounts()
    choices, errors, values = read_choices(request.form, accounts)
    if errors:
        return _choose_page(accounts, values, errors, status=400)
    priced, errors, offers = _price(accounts, choices)
    if priced is None:
        return _choose_page(accounts, values, errors, offers, status=400)
    return _review_page(accounts, priced, {k: v for k, v in values.items()
                                           if v["choice"] not in ("", "none")})


@bp.route("/pagar/confirmar", methods=["GET", "POST"])
@login_required
def confirm():  # noqa: ANN201
    if request.method == "GET":
        return _back_to_choices()
    accounts = _accounts()
    choices, errors, values = read_choices(request.form, accounts)
    chosen = {k: v for k, v in values.items() if v["choice"] not in ("", "none")}
    if errors:
        return _choose_page(accounts, values, errors, status=400)
    priced, errors, offers = _price(accounts, choices)
    if priced is None:
        return _choose_page(accounts, values, errors, offers, status=400)
    try:  # the total the payer reviewed, as the review page wrote it (plain, finite)
        expected = parse_money(request.form.get("expected_total", ""))
    except ValueError:
        expected = None
    if expected != priced.total:
        return _review_page(accounts, priced, chosen, present.error_text("changed"), 409)
    if request.form.get("lender_ok") != "yes" and account_marks(
            [p.account for p in priced.parts]):
        return _review_page(accounts, priced, chosen, status=409, lender_error=_(
            "Your bank said it will pay this. To pay it yourself, check the box below."))
    parcels = sorted({p.label for p in priced.parts})
    description = _("District benefit assessment, parcel %(catastro)s",
                    catastro=", ".join(parcels))
    try:
        started = service.start_checkout(
            database(), user=current_user, priced=priced, language=current_language(),
            gateway=gateway(), description=description, ip=request.remote_addr,
            pay_anyway=request.form.get("pay_anyway") == "yes",
            success_url=lambda cid: url_for("payments.success", checkout_id=cid,
                                            _external=True),
            cancel_url=lambda cid: url_for("payments.cancel", checkout_id=cid,
                                           _external=True))
    except service.OthersPaying as exc:
        log.info("payments: user %s asked to confirm: %d other payment(s) open",
                 current_user.get_id(), len(exc.others))
        return _review_page(accounts, priced, chosen, status=409, others=exc.others,
                            confirm_error=_("Someone else is already paying this. To pay it "
                                            "too, check the box below."))
    except GatewayError as exc:
        return _review_page(accounts, priced, chosen, present.gateway_error(exc.kind), 503)
    return redirect(started.url, 303)


# --- back from the checkout ----------------------------------------------------------------

def _visible(checkout_id: int):  # noqa: ANN202
    try:
        with uow() as w:
            return receipts.visible_checkout(w, current_user, checkout_id)
    except NotFound:
        abort(404)


@bp.get("/pagos/<id:checkout_id>/exito")
@login_required
def success(checkout_id: int):  # noqa: ANN201
    """The payer is back: settle it now (the same fulfil as the webhook), then the receipt."""
    chk = _visible(checkout_id)
    if chk.status in states.OPEN and chk.provider_session_id:
        try:
            with uow() as w:
                w.info["ip"] = request.remote_addr
                outcome = fulfilment.fulfil(w, chk.id, gateway=gateway())
            if outcome.kind == "posted":
                emails.send_receipt(chk.id)
        except GatewayError:
            log.warning("payments: checkout %s: provider unreachable on return", chk.id)
        except fulfilment.Mismatch:
            abort(400)
    chk = _visible(checkout_id)
    messages = {
        states.SUCCEEDED: (_("Thank you: your payment was received."), "success"),
        states.PROCESSING: (_("Thank you: your bank is processing the payment."), "success"),
        states.FAILED: (_("The payment did not go through. Nothing was charged."), "error"),
        states.EXPIRED: (_("The payment page expired. Nothing was charged."), "warning"),
    }
    text, category = messages.get(chk.status, (
        _("We are confirming your payment with the payment service. This page will show it "
          "as soon as it is confirmed."), "info"))
    flash(text, category)
    return redirect(url_for("payments.receipt", checkout_id=chk.id), 303)


@bp.get("/pagos/<id:checkout_id>/cancelado")
@login_required
def cancel(checkout_id: int):  # noqa: ANN201
    chk = _visible(checkout_id)
    return render_template("payments/cancelled.html", chk=chk,
                           resume=chk.checkout_url if chk.status in states.OPEN else None)


# --- the webhook ---------------------------------------------------------------------------

@bp.post("/pagos/webhook/stripe")
@csrf.exempt
def webhook():  # noqa: ANN201
    gw = gateway()
    if isinstance(gw, SandboxGateway):
        abort(404)
    with as_provider():
        status, text = handle_webhook(database(), gw, request.get_data(cache=False),
                                      request.headers.get("Stripe-Signature"),
                                      notify=emails.notify)
    resp = make_response(text, status)
    resp.mimetype = "text/plain"
    return resp


# --- the sandbox (test mode) ---------------------------------------------------------------

def _sandbox(session_id: str):  # noqa: ANN202
    """The test checkout's session and its checkout, for the user who started it only: 404
    for anyone who may not see the checkout, 403 for anyone else who may (a delegate, a
    lender, another payer, staff): seeing a payment is not paying it."""
    gw = gateway()
    if not isinstance(gw, SandboxGateway):
        abort(404)
    record = gw.store.get(session_id)
    if record is None or not record.payment_id.isdigit():
        abort(404)
    if not current_user.is_authenticated:
        # A guest (paying without an account) answers for the checkouts its session started;
        # anyone else signs in first, as for any signed-in page.
        chk = guest_session.guest_checkout(int(record.payment_id))
        if chk is None:
            abort(current_app.login_manager.unauthorized())
    else:
        chk = _visible(int(record.payment_id))
    if chk.provider != "sandbox" or chk.provider_session_id != record.id:
        abort(404)
    if current_user.is_authenticated and not access.is_payer_of(current_user, chk):
        log.warning("payments: user %s acted on checkout %s, not theirs",
                    current_user.get_id(), chk.id)
        abort(403)
    return gw, record, chk


def _receipt_url(chk) -> str:  # noqa: ANN001
    """The payment's receipt page: the guest's own for a checkout without a user."""
    if chk.user_id is None and not current_user.is_authenticated:
        return url_for("payments.guest_receipt", checkout_id=chk.id)
    return url_for("payments.receipt", checkout_id=chk.id)


@bp.route("/pagos/prueba/<session_id>", methods=["GET", "POST"])
def sandbox(session_id: str):  # noqa: ANN201
    gw, record, chk = _sandbox(session_id)
    if request.method == "POST":
        outcome = request.form.get("outcome", "")
        if outcome == "cancel":
            return redirect(record.cancel_url, 303)
        try:
            _, kind = gw.complete(session_id, outcome)
        except GatewayError:
            abort(400)
        if kind:
            status, _text = process_event(database(), gw, sandbox_event(kind, session_id),
                                          notify=emails.notify)
            if status != 200:
                abort(status)
        return redirect(record.success_url, 303)
    return render_template("payments/sandbox.html", record=record, chk=chk,
                           parcels=_parcels_of(chk), receipt_url=_receipt_url(chk),
                           record_lang="en" if record.locale.startswith("en") else "es")


@bp.post("/pagos/prueba/<session_id>/banco")
def sandbox_bank(session_id: str):  # noqa: ANN201
    """Test mode: the bank answers (a debit settles or fails), as Stripe would days later."""
    gw, record, chk = _sandbox(session_id)
    ok = request.form.get("result") == "settle"
    _, kind = gw.settle(session_id, ok)
    if kind:
        process_event(database(), gw, sandbox_event(kind, session_id), notify=emails.notify)
    return redirect(_receipt_url(chk), 303)


def _parcels_of(chk) -> list[str]:  # noqa: ANN001 - a checkout _sandbox let through
    with uow() as w:
        chk = w.session.merge(chk, load=False)
        return [p["catastro"] for p in present.receipt_view(receipts.build(w, chk)).parts]


# --- receipts and history ------------------------------------------------------------------

def _receipt(checkout_id: int) -> present.ReceiptView:
    try:
        with uow() as w:
            chk = receipts.visible_checkout(w, current_user, checkout_id)
            return present.receipt_view(receipts.build(w, chk))
    except NotFound:
        abort(404)


def _payment_receipt(payment_id: int) -> present.ReceiptView | int:
    """A payment's own receipt (one recorded without a checkout), or its checkout's id."""
    try:
        with uow() as w:
            found = receipts.payment_receipt(w, current_user, payment_id)
            return found if isinstance(found, int) else present.receipt_view(found)
    except NotFound:
        abort(404)


def _pdf_response(v: present.ReceiptView):  # noqa: ANN202
    lang = current_language()
    return pdf_response(receipt_docs.receipt_pdf(v, lang),
                        receipt_docs.filename(v.number, lang))


@bp.get("/pagos/<id:checkout_id>/recibo")
@login_required
def receipt(checkout_id: int):  # noqa: ANN201
    v = _receipt(checkout_id)
    chk = v.receipt.checkout
    sandbox_bank = (chk.provider == "sandbox" and chk.status == states.PROCESSING
                    and isinstance(gateway(), SandboxGateway)
                    and access.is_payer_of(current_user, chk))
    return render_template("payments/receipt.html", v=v, chk=chk, sandbox_bank=sandbox_bank,
                           pdf_url=url_for("payments.receipt_pdf", checkout_id=chk.id))


@bp.get("/pagos/<id:checkout_id>/recibo.pdf")
@login_required
def receipt_pdf(checkout_id: int):  # noqa: ANN201
    v = _receipt(checkout_id)
    if not v.receipt.checkout.receipt_number:
        abort(404)
    return _pdf_response(v)


@bp.get("/pagos/pago/<id:payment_id>/recibo")
@login_required
def payment_receipt(payment_id: int):  # noqa: ANN201
    v = _payment_receipt(payment_id)
    if isinstance(v, int):
        return redirect(url_for("payments.receipt", checkout_id=v), 303)
    return render_template("payments/receipt.html", v=v, chk=v.receipt.checkout,
                           sandbox_bank=False,
                           pdf_url=url_for("payments.payment_receipt_pdf",
                                           payment_id=payment_id))


@bp.get("/pagos/pago/<id:payment_id>/recibo.pdf")
@login_required
def payment_receipt_pdf(payment_id: int):  # noqa: ANN201
    v = _payment_receipt(payment_id)
    if isinstance(v, int):
        return redirect(url_for("payments.receipt_pdf", checkout_id=v), 303)
    return _pdf_response(v)


@bp.get("/propiedad/<id:parcel_id>/pagos")
@login_required
def history(parcel_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            parcel, rows = receipts.history(w, current_user, parcel_id)
    except NotFound:
        abort(404)
    items = []
    for r in rows:
        shown = r.shown
        items.append({
            "url": (url_for("payments.receipt", checkout_id=r.checkout.id) if r.checkout
                    else url_for("payments.payment_receipt", payment_id=r.payment.id)),
            "date": r.legal_date, "created": clock.legal_date(r.payment.created_at),
            "number": shown.receipt_number, "amount": r.payment.amount,
            "kind": present.kind_label(r.payment.purpose, r.through),
            "status": present.status_label(shown.status),
            "status_css": present.STATUS_CSS.get(shown.status, "upcoming"),
            "method": present.method_label(shown)})
    return render_template("payments/history.html", parcel=parcel, items=items)


# --- staff: office payments and credit refunds ----------------------------------------------

def _staff_accounts(parcel_id: int) -> list[service.PayableAccount]:
    if not access.is_staff(current_user):
        abort(404)
    with uow() as w:
        try:
            parcel = access.get_parcel(w, current_user, parcel_id)
        except NotFound:
            abort(404)
        return service.account_offers(w, [(parcel, "staff")], clock.today(),
                                      include_settled=True)


OFFICE_ERRORS = {
    "payer_name_missing": N_("Write the name of the person who paid."),
    "method": N_("Choose cash or check."),
    "check_number": N_("Write the check number."),
    "payer_name_long": N_("The name is at most 200 characters."),
    "reference_long": N_("The check number or reference is at most 60 characters."),
}


@bp.route("/personal/pagos/oficina/<id:parcel_id>", methods=["GET", "POST"])
@login_required
@staff_second_factor
def office(parcel_id: int):  # noqa: ANN201
    accounts = _staff_accounts(parcel_id)
    if not accounts:
        abort(404)
    values = {"account": request.form.get("account", accounts[-1].key),
              "amount": request.form.get("amount", ""), "method": request.form.get("method",
                                                                                   "cash"),
              "reference": request.form.get("reference", ""),
              "payer_name": request.form.get("payer_name", "")}
    errors: dict[str, str] = {}
    if request.method == "POST":
        account = next((a for a in accounts if a.key == values["account"]), None)
        if account is None:
            errors["account"] = present.error_text("not_yours")
        amount = None
        try:
            amount = parse_amount(values["amount"], _locale())
        except ChoiceError as exc:
            errors["amount"] = present.error_text(exc.code, exc.params, staff=True)
        if values["method"] not in ("cash", "check"):
            log.warning("payments: office payment with method %r by staff %s",
                        values["method"][:20], current_user.get_id())
        problems = {}
        if account is not None and amount is None:  # the other fields' reasons, at once
            problems = service.office_payment_errors(
                account.offer.payoff, account.key, None, values["method"],
                payer_name=values["payer_name"], reference=values["reference"])
        elif account is not None:
            try:
                with uow() as w:
                    w.info["ip"] = request.remote_addr
                    chk = service.post_office_payment(
                        w, current_user, account.parcel_id, account.fiscal_year_id, amount,
                        values["method"], payer_name=values["payer_name"],
                        reference=values["reference"], language=current_language())
                    chk_id = chk.id
            except service.OfficePaymentRefused as exc:
                problems = exc.params["errors"]
            except (Forbidden, NotFound):
                abort(404)
            else:
                flash(_("The payment was recorded and applied."), "success")
                return redirect(url_for("payments.receipt", checkout_id=chk_id), 303)
        for field, (code, params) in problems.items():
            text = OFFICE_ERRORS.get(code)
            errors.setdefault(field, present.t(text) if text
                              else present.error_text(code, params, staff=True))
    return render_template("payments/office.html", accounts=[_account_view(a) for a in accounts],
                           parcel_id=parcel_id, values=values, errors=errors,
                           lengths=service.OFFICE_LENGTHS), \
        400 if errors else 200


@bp.route("/personal/pagos/reembolso/<id:parcel_id>", methods=["GET", "POST"])
@login_required
@staff_second_factor
def refund(parcel_id: int):  # noqa: ANN201
    accounts = [a for a in _staff_accounts(parcel_id) if a.offer.statement.credit > 0]
    values = {"account": request.form.get("account", accounts[0].key if accounts else ""),
              "amount": request.form.get("amount", ""), "note": request.form.get("note", "")}
    errors: dict[str, str] = {}
    if request.method == "POST":
        account = next((a for a in accounts if a.key == values["account"]), None)
        if account is None:
            abort(404)
        try:
            amount = parse_amount(values["amount"], _locale())
            if amount <= 0:
                raise ChoiceError("zero")
        except ChoiceError as exc:
            errors["amount"] = present.error_text(exc.code, exc.params)
        if not errors:
            try:
                done = service.refund_credit(database(), current_user, account.parcel_id,
                                             account.fiscal_year_id, amount,
                                             gateway=gateway(), note=values["note"],
                                             ip=request.remote_addr)
            except InvalidInput as exc:
                if exc.code == "more_than_credit":
                    errors["amount"] = _("That is more than the credit (%(credit)s).",
                                         credit=present.money(exc.params["credit"]))
                else:
                    errors["amount"] = present.error_text("zero")
            except GatewayError as exc:
                errors["amount"] = present.gateway_error(exc.kind)
            except ServiceError:
                errors["amount"] = _("This credit cannot be refunded online: it came from "
                                     "a payment still processing, or from another payment "
                                     "service. Refund it by check from the office.")
            else:
                if done.short:
                    flash(_("Only %(given)s of the %(asked)s was refunded: the payment service "
                            "did not accept the rest, which stays as credit. Try the rest "
                            "again later.", given=present.money(done.amount),
                            asked=present.money(done.asked)), "warning")
                else:
                    flash(_("The credit was refunded."), "success")
                return redirect(url_for("accounts.parcel", parcel_id=parcel_id), 303)
    return render_template("payments/refund.html", accounts=[_account_view(a) for a in accounts],
                           parcel_id=parcel_id, values=values, errors=errors), \
        400 if errors else 200


@bp.app_context_processor
def payments_links() -> dict[str, Any]:
    """For the parcel page's payments section (templates/accounts/parcel.html)."""
    return {"payments_enabled": True}
