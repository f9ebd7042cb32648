"""Home, language switch, dashboard, parcel page, statement PDF (`portal.documents.statement`),
claim and access grants.

Thin: validate, call a service, render. A parcel the user may not see is a 404 (the access
policy in the services decides; nothing here fetches by id alone).
"""

from __future__ import annotations

from flask import (
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required

from portal import clock, mail
from portal.accounts import access, parcels, policy
from portal.accounts.errors import (
    ClaimRateLimited,
    ClaimRefused,
    Forbidden,
    InvalidInput,
    NotFound,
    ServiceError,
)
from portal.core.explain import N_
from portal.documents import statement
from portal.i18n import LANGUAGES, current_language, formats, use_language
from portal.people import users
from portal.web.accounts import bp, views
from portal.web.accounts.forms import ClaimForm, GrantForm, RevokeEmailForm
from portal.web.data import external_url, uow
from portal.web.extensions import shared_limit
from portal.web.pdf_response import pdf_response
from portal.web.present import authority_phone
from portal.web.redirects import safe_next


@bp.get("/")
def home():  # noqa: ANN201
    return render_template("accounts/home.html")


@bp.post("/idioma")
def language():  # noqa: ANN201
    """The language switch: remembered in the session and, when signed in, on the user."""
    lang = request.form.get("lang")
    if lang in LANGUAGES:
        session["lang"] = lang
        if not current_user.is_authenticated:
            session["lang_switched"] = True  # becomes the preference at sign-in
        else:
            with uow() as w:
                users.set_language(w, current_user.id, lang)
            current_user.language = lang
    return redirect(safe_next(request.form.get("next"), url_for("accounts.home")), 303)


@bp.get("/mis-propiedades")
@login_required
def dashboard():  # noqa: ANN201
    today = clock.today()
    # The request's language chosen once for the page: its rows ask it a few hundred times.
    with use_language(current_language()):
        v = views.dashboard_page(current_user, today)
        views.remember_lessee(any(r.relation == "lessee" for r in v.rows))
        return render_template("accounts/dashboard.html", rows=v.rows, today=today,
                               loans_apart=v.loans_apart, reminders_notice=v.reminders_notice,
                               ex_pending=v.exemption_pending)


@bp.get("/propiedad/<id:parcel_id>")
@login_required
def parcel(parcel_id: int):  # noqa: ANN201
    # The request's language chosen once for the page: its view and template ask it ~80 times.
    # The user itself, not Flask-Login's proxy: the view reads it a few dozen times.
    user = current_user._get_current_object()
    with use_language(current_language()) as lang:
        v = views.parcel_page(user, parcel_id, clock.today())
        if v is None:
            abort(404)
        if v.relation == "lessee":
            views.remember_lessee(True)
        back_url, back_label = views.back_link(user)
        return render_template("accounts/parcel.html", v=v, b=v.boxes, f=formats(),
                               pdf_url=url_for("accounts.statement_pdf",
                                               parcel_id=v.parcel.id, lang=lang),
                               back_url=back_url, back_label=back_label)


@bp.get("/propiedad/<id:parcel_id>/acceso")
@login_required
def access_page(parcel_id: int):  # noqa: ANN201
    return _access_page(parcel_id, GrantForm())


def _access_page(parcel_id: int, form: GrantForm, status: int = 200):  # noqa: ANN202
    found = views.access_view(current_user, parcel_id)
    if found is None:
        abort(404)
    parcel, grants = found
    with uow() as w:
        may_manage = policy.can_manage(w, current_user, parcel.id)
    return render_template("accounts/access.html", parcel=parcel, grants=grants, form=form,
                           may_manage=may_manage, staff=access.is_staff(current_user)), status


@bp.get("/propiedad/<id:parcel_id>/estado-de-cuenta.pdf")
@login_required
def statement_pdf(parcel_id: int):  # noqa: ANN201
    today = clock.today()
    v = views.parcel_view(current_user, parcel_id, today)
    if v is None:
        abort(404)
    lang = current_language()
    link = external_url("payments.guest_link", token=statement.pay_token(
        v.parcel.id, current_app.config["SECRET_KEY"]))
    return pdf_response(statement.statement_pdf(v, lang, link),
                        statement.filename(v.parcel.catastro, today, lang))


@bp.route("/propiedad/reclamar", methods=["GET", "POST"])
@login_required
@shared_limit("RATELIMIT_CLAIM", key=lambda: f"user:{current_user.get_id()}")
def claim():  # noqa: ANN201
    form = ClaimForm()
    if form.validate_on_submit():
        try:
            with uow() as w:
                w.info["ip"] = request.remote_addr
                parcel = parcels.claim(w, current_user, form.catastro.data, form.code.data)
        except ClaimRateLimited as exc:
            minutes = max(1, (int(exc.params.get("retry_after", 3600)) + 59) // 60)
            form.code.errors.append(ngettext(
                "Too many wrong codes. Try again in %(num)d minute, or call the Authority at "
                "%(phone)s.",
                "Too many wrong codes. Try again in %(num)d minutes, or call the Authority at "
                "%(phone)s.", minutes, phone=authority_phone()))
        except ClaimRefused:
            form.code.errors.append(_("The catastro number and the access code do not match. "
                                      "Check both on your notice and try again."))
        else:
            flash(_("The parcel was added to your account."), "success")
            return redirect(url_for("accounts.parcel", parcel_id=parcel.id), 303)
    return render_template("accounts/claim.html", form=form)


GRANT_ERRORS = {
    "cannot_grant_self": N_("That is your own email: write the other person's email."),
    "already_linked": N_("That person can already see this parcel."),
}
REASON_REQUIRED = N_("Say why you are changing who can see this parcel (the owners are told).")


def _may_manage_or_abort(parcel_id: int) -> None:
    """Before reading a form that changes who sees the parcel (`policy.MANAGE_ACCESS`): 404
    when the user may not see it, 403 for staff who see it without the right."""
    with uow() as w:
        try:
            parcel = access.get_parcel(w, current_user, parcel_id)
        except NotFound:
            abort(404)
        if not policy.can_manage(w, current_user, parcel.id):
            abort(403 if access.is_staff(current_user) else 404)


def _tell_owners(w, parcel_id: int, granted: bool, email: str,  # noqa: ANN001
                 reason: str) -> None:
    """Staff changed who sees the parcel: each owner is told, with the reason (queued in the
    unit of work of the change)."""
    if not access.is_staff(current_user):
        return
    parcel = access.get_parcel(w, current_user, parcel_id)
    for o in policy.owners(w, parcel.id):
        mail.send(w, o.email, "access_changed_by_staff", o.language, config=current_app.config,
                  catastro=parcel.catastro, granted=granted, email=email, reason=reason,
                  phone=authority_phone(),
                  link=external_url("accounts.access_page", parcel_id=parcel_id))


@bp.post("/propiedad/<id:parcel_id>/acceso")
@login_required
@shared_limit("RATELIMIT_SIGNIN", key=lambda: f"grant:{current_user.get_id()}")
def grant(parcel_id: int):  # noqa: ANN201
    _may_manage_or_abort(parcel_id)
    form = GrantForm()
    if form.validate_on_submit():
        try:
            with uow() as w:
                link = parcels.grant(w, current_user, parcel_id, form.email.data,
                                     may_pay=bool(form.may_pay.data),
                                     reason=form.reason.data or "")
                parcel = access.get_parcel(w, current_user, parcel_id)
                grantee = users.load_user(w, link.user_id) if link is not None else None
                # The same words, and an email either way, whether or not an account uses
                # that email (no account enumeration): without one, the email invites them.
                owner = current_user.name or current_user.email
                if grantee is not None:
                    mail.send(w, grantee.email, "granted", grantee.language,
                              config=current_app.config, catastro=parcel.catastro,
                              owner=owner,
                              link=external_url("accounts.parcel", parcel_id=parcel.id))
                else:
                    mail.send(w, users.normalise_email(form.email.data), "invited",
                              current_language(), config=current_app.config,
                              catastro=parcel.catastro, owner=owner,
                              link=external_url("people.sign_up"))
                _tell_owners(w, parcel_id, True, users.normalise_email(form.email.data),
                             form.reason.data or "")
        except (NotFound, Forbidden):
            abort(404)
        except ServiceError as exc:
            if exc.code == "reason_required":
                form.reason.errors.append(_(REASON_REQUIRED))
            else:
                form.email.errors.append(_(GRANT_ERRORS.get(exc.code,
                                                            GRANT_ERRORS["already_linked"])))
        else:
            flash(_("We sent %(email)s an email. If an account uses that email, the person can "
                    "now see this parcel; if not, the email asks them to create one, and they "
                    "will see it once they confirm their email.",
                    email=users.normalise_email(form.email.data)), "success")
            return redirect(url_for("accounts.access_page", parcel_id=parcel_id), 303)
    return _access_page(parcel_id, form, 400)


@bp.post("/propiedad/<id:parcel_id>/acceso/quitar")
@login_required
def revoke_email(parcel_id: int):  # noqa: ANN201
    """End the access given to an email: a person's link or an invitation, alike."""
    _may_manage_or_abort(parcel_id)
    form = RevokeEmailForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        with uow() as w:
            parcels.revoke_email(w, current_user, parcel_id, form.email.data,
                                 reason=form.reason.data or "")
            _tell_owners(w, parcel_id, False, users.normalise_email(form.email.data),
                         form.reason.data or "")
    except (NotFound, Forbidden):
        abort(404)
    except InvalidInput:
        flash(_(REASON_REQUIRED), "error")
        return redirect(url_for("accounts.access_page", parcel_id=parcel_id), 303)
    flash(_("Access removed."), "success")
    return redirect(url_for("accounts.access_page", parcel_id=parcel_id), 303)


@bp.post("/propiedad/<id:parcel_id>/acceso/<id:link_id>/quitar")
@login_required
def revoke(parcel_id: int, link_id: int):  # noqa: ANN201
    _may_manage_or_abort(parcel_id)
    reason = request.form.get("reason", "")
    try:
        with uow() as w:
            link = parcels.revoke(w, current_user, parcel_id, link_id, reason=reason)
            email = users.load_user(w, link.user_id).email
            _tell_owners(w, parcel_id, False, email, reason)
    except (NotFound, Forbidden):
        abort(404)
    except InvalidInput:
        flash(_(REASON_REQUIRED), "error")
        return redirect(url_for("accounts.access_page", parcel_id=parcel_id), 303)
    flash(_("Access removed."), "success")
    return redirect(url_for("accounts.access_page", parcel_id=parcel_id), 303)
