"""The account page, /cuenta: one's email (changed only once the new address confirms it,
the old one told), telephone, language, password and two-step verification (their own pages,
`portal.web.people`), the sections other parts of the portal add (`MORE_SECTIONS`), and the
year's payments as CSV and PDF (`portal.documents.payment_history`).

Thin: validate, call a service (`portal.people.profile`, `portal.people.users`,
`portal.payments.receipts`), render. Nothing here takes a person's id from the request: every
route acts on the signed-in person (the email link on the person its signature names).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import (
    Response,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import refresh
from flask_login import current_user, login_required
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from werkzeug.routing import BuildError

from portal import clock, mail
from portal.accounts import notice_emails, throttle
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.documents import payment_history
from portal.i18n import LANGUAGES, current_language
from portal.payments import receipts
from portal.people import profile, users
from portal.signing import timed_serializer
from portal.web.accounts import bp
from portal.web.accounts.forms import EmailChangeForm, LanguageForm, PhoneForm
from portal.web.data import external_url, uow
from portal.web.extensions import shared_limit
from portal.web.forms import ActionForm
from portal.web.pdf_response import pdf_response
from portal.web.present import authority_phone


@dataclass(frozen=True)
class Section:
    """A link of the account page to a page another part of the portal adds."""

    endpoint: str
    label: object  # a lazy string
    hint: object


#: The account page's further sections, each shown only once its page exists in the app
#: (`url_map`): reminders, saved payment methods and paperless notices are added by their
#: own parts of the portal; the page needs no change when they land.
MORE_SECTIONS: list[Section] = [
    Section("reminders.settings", _l("Reminders"),
            _l("Emails before each installment's last timely day, and for other parcels.")),
    Section("payments.saved_methods", _l("Saved payment methods"),
            _l("Cards and bank accounts saved for autopay: see them or remove one.")),
    Section("accounts.paperless_page", _l("Paperless notices"),
            _l("Receive your notices and statements by email instead of paper.")),
]
#: The paths those pages are expected at, when their endpoint names differ.
MORE_PATHS = ("/cuenta/recordatorios", "/cuenta/metodos-de-pago", "/cuenta/sin-papel")

EMAIL_CHANGE = "change-email"

PHONE_ERRORS = {
    "phone_unreadable": _l("Write the telephone with digits only, like 787-555-0142."),
    "phone_length": _l("That number has too few or too many digits: write the 10 digits, "
                       "like 787-555-0142, or + and the country code for another country."),
    "phone_invalid": _l("That is not a telephone number in use: check the area code, like "
                        "787 or 939."),
}


def _more_sections() -> list[tuple[str, object, object]]:
    """(url, label, hint) of each section whose page exists: its endpoint, or a page at its
    path (`MORE_PATHS`), in the app's `url_map`."""
    paths = {rule.rule for rule in current_app.url_map.iter_rules()
             if "GET" in (rule.methods or ()) and not rule.arguments}
    shown = []
    for s, path in zip(MORE_SECTIONS, MORE_PATHS, strict=True):
        if s.endpoint in current_app.view_functions:
            try:
                shown.append((url_for(s.endpoint), s.label, s.hint))
                continue
            except BuildError:  # (a page that needs arguments is not linked here)
                pass
        if path in paths:
            shown.append((path, s.label, s.hint))
    return shown


def _serializer() -> URLSafeTimedSerializer:
    return timed_serializer(current_app.config["SECRET_KEY"], EMAIL_CHANGE)


def _page(email_form: EmailChangeForm | None = None, phone_form: PhoneForm | None = None,
          status: int = 200):  # noqa: ANN202
    email_form = email_form or EmailChangeForm(formdata=None)
    phone_form = phone_form or PhoneForm(formdata=None,
                                         phone=profile.format_phone(current_user.phone))
    language_form = LanguageForm(formdata=None, lang=current_user.language or "es")
    with uow() as w:
        years = receipts.payment_years(w, current_user)
        notices_on = notice_emails.emails_on(w, current_user)
    this_year = clock.today().year
    if this_year not in years:
        years = sorted({this_year, *years}, reverse=True)
    page_errors = bool(email_form.errors or phone_form.errors)
    return render_template(
        "accounts/account.html", email_form=email_form, phone_form=phone_form,
        language_form=language_form, phone_shown=profile.format_phone(current_user.phone),
        years=years, sections=_more_sections(), page_errors=page_errors,
        notices_on=notices_on, notices_form=ActionForm(formdata=None),
        pending=session.get("email_change_to")), status


@bp.get("/cuenta")
@login_required
def account():  # noqa: ANN201
    return _page()


@bp.post("/cuenta/correo")
@login_required
@shared_limit("RATELIMIT_SIGNIN", key=lambda: f"email-change:{current_user.get_id()}")
def account_email():  # noqa: ANN201
    """A new email: the password first; then a signed link to the new address (or, when
    another account has it, an email there saying so: the same answer on this page)."""
    form = EmailChangeForm()
    if not form.validate_on_submit():
        return _page(email_form=form, status=400)
    try:
        with uow() as w:
            users.check_password(w, current_user.id, form.email_password.data,
                                 address=request.remote_addr)
            try:
                target = profile.email_change_target(w, current_user.id, form.new_email.data)
            except Conflict:
                target = users.normalise_email(form.new_email.data)
                mail.send(w, target, "email_change_taken", current_language(),
                          config=current_app.config, link=external_url("people.sign_in"))
            else:
                token = _serializer().dumps({"u": current_user.id, "o": current_user.email,
                                             "n": target})
                mail.send(w, target, "email_change", current_language(),
                          name=current_user.name, config=current_app.config,
                          link=external_url("accounts.account_email_confirm", token=token))
    except throttle.Throttled:
        form.email_password.errors.append(_("Too many wrong passwords. Try again later."))
        return _page(email_form=form, status=429)
    except InvalidInput as exc:
        if exc.code == "wrong_password":
            form.email_password.errors.append(_("That is not your current password."))
        elif exc.code == "same_email":
            form.new_email.errors.append(_("That is already your account's email."))
        else:
            form.new_email.errors.append(_("Enter an email like nombre@ejemplo.com."))
        return _page(email_form=form, status=400)
    session["email_change_to"] = target
    flash(_("We sent a link to %(email)s. Your email changes when you open it; until then you "
            "sign in with %(current)s.", email=target, current=current_user.email), "success")
    return redirect(url_for("accounts.account"), 303)


@bp.get("/cuenta/correo/confirmar/<token>")
def account_email_confirm(token: str):  # noqa: ANN201
    """The link sent to the new address: the account's email becomes it, and the old address
    is told. Works once, for 3 days; from any browser (the signature names the account)."""
    try:
        data = _serializer().loads(token, max_age=current_app.config["EMAIL_TOKEN_MAX_AGE"])
    except (SignatureExpired, BadSignature):
        data = None
    if not isinstance(data, dict) or not {"u", "o", "n"} <= set(data):
        flash(_("That link is not valid or has expired. Ask for a new one on your account "
                "page."), "error")
        return redirect(url_for("accounts.account"), 303)
    try:
        with uow() as w:
            user = profile.change_email(w, data["u"], data["o"], data["n"])
            mail.send(w, data["o"], "email_changed", user.language or current_language(),
                      name=user.name, email=user.email, phone=authority_phone(),
                      config=current_app.config)
    except NotFound:
        flash(_("That link is not valid or has expired. Ask for a new one on your account "
                "page."), "error")
        return redirect(url_for("accounts.account"), 303)
    except Conflict:
        flash(_("That email now belongs to another account: nothing was changed."), "error")
        return redirect(url_for("accounts.account"), 303)
    session.pop("email_change_to", None)
    if current_user.is_authenticated and current_user.id == user.id:
        current_user.email = user.email
    flash(_("Your email is now %(email)s. Sign in with it from now on.", email=user.email),
          "success")
    return redirect(url_for("accounts.account"), 303)


@bp.post("/cuenta/telefono")
@login_required
def account_phone():  # noqa: ANN201
    form = PhoneForm()
    if not form.validate_on_submit():
        return _page(phone_form=form, status=400)
    try:
        with uow() as w:
            user = profile.set_phone(w, current_user.id, form.phone.data)
    except InvalidInput as exc:
        form.phone.errors.append(str(PHONE_ERRORS.get(exc.code, PHONE_ERRORS["phone_invalid"])))
        return _page(phone_form=form, status=400)
    current_user.phone = user.phone
    flash(_("Your telephone was saved.") if user.phone else
          _("Your telephone was removed."), "success")
    return redirect(url_for("accounts.account"), 303)


@bp.post("/cuenta/idioma")
@login_required
def account_language():  # noqa: ANN201
    form = LanguageForm()
    if not form.validate_on_submit() or form.lang.data not in LANGUAGES:
        abort(400)
    with uow() as w:
        users.set_language(w, current_user.id, form.lang.data)
    current_user.language = session["lang"] = form.lang.data
    g.pop("_lang", None)  # the message below in the language just chosen (portal.web.locale)
    refresh()
    flash(_("The language was saved: the portal and its emails will speak to you in it."),
          "success")
    return redirect(url_for("accounts.account"), 303)


def _year_view(year: int) -> payment_history.YearView:
    if not 2000 <= year <= clock.today().year:
        abort(404)
    with uow() as w:
        h = receipts.year_history(w, current_user, year)
        return payment_history.year_view(h, current_user.name or "", current_user.email)


@bp.get("/cuenta/pagos-<int:year>.csv")
@login_required
def account_payments_csv(year: int):  # noqa: ANN201
    v = _year_view(year)
    lang = current_language()
    return Response(
        "".join(payment_history.year_csv(v)), mimetype="text/csv",
        headers={"Content-Disposition":
                 f'attachment; filename="{payment_history.filename(year, lang, "csv")}"',
                 "Cache-Control": "no-store"})


@bp.get("/cuenta/pagos-<int:year>.pdf")
@login_required
def account_payments_pdf(year: int):  # noqa: ANN201
    v = _year_view(year)
    lang = current_language()
    return pdf_response(payment_history.year_pdf(v, lang),
                        payment_history.filename(year, lang, "pdf"))
