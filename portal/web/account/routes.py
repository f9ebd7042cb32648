"""Home, language switch, dashboard, parcel page, statement PDF, claim and access grants.

Thin: validate, call a service, render. A parcel the user may not see is a 404 (the access
policy in the services decides; nothing here fetches by id alone).
"""

from __future__ import annotations

from datetime import date, timedelta
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required

from portal import clock
from portal.i18n import LANGUAGES, current_language
from portal.web.account.forms import ClaimForm, GrantForm
from portal.web.data import uow
from portal.web.extensions import limiter

bp = Blueprint("account", __name__)

PAYOFF_DEFAULT_DAYS = 10
PAYOFF_MAX_DAYS = 90


def safe_next(target: str | None, default: str) -> str:
    """Only a path on this site (no scheme, no host, no '//' or backslash tricks)."""
    if not target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") \
            or "\\" in target:
        return default
    return target


@bp.get("/")
def home():  # noqa: ANN201
    return render_template("account/home.html")


@bp.post("/idioma")
def language():  # noqa: ANN201
    """The language switch: remembered in the session and, when signed in, on the user."""
    lang = request.form.get("lang")
    if lang in LANGUAGES:
        session["lang"] = lang
        if current_user.is_authenticated:
            from portal.services import accounts
            with uow() as w:
                accounts.set_language(w, current_user.id, lang)
    return redirect(safe_next(request.form.get("next"), url_for("account.home")), 303)


@bp.get("/mis-propiedades")
@login_required
def dashboard():  # noqa: ANN201
    from portal.web.account import views
    today = clock.today()
    rows = views.dashboard_rows(current_user, today)
    return render_template("account/dashboard.html", rows=rows, today=today)


def _through(today: date) -> tuple[date, str | None, str | None]:
    """The payoff date asked for (?through=YYYY-MM-DD), or the default; with an error text."""
    raw = request.args.get("through")
    default = today + timedelta(days=PAYOFF_DEFAULT_DAYS)
    if not raw:
        return default, None, None
    try:
        asked = date.fromisoformat(raw)
    except ValueError:
        return default, raw[:10], _("Write the date as YYYY-MM-DD, for example %(example)s.",
                                    example=default.isoformat())
    if asked < today or asked > today + timedelta(days=PAYOFF_MAX_DAYS):
        return default, raw[:10], _("Choose a date from today to %(days)d days from now.",
                                    days=PAYOFF_MAX_DAYS)
    return asked, None, None


@bp.get("/propiedad/<int:parcel_id>")
@login_required
def parcel(parcel_id: int):  # noqa: ANN201
    from portal.web.account import views
    today = clock.today()
    through, requested, error = _through(today)
    v = views.parcel_view(current_user, parcel_id, today, through)
    if v is None:
        abort(404)
    v.payoff.requested, v.payoff.error = requested, error
    v.payoff.latest = today + timedelta(days=PAYOFF_MAX_DAYS)
    back_url, back_label = views.back_link(current_user)
    return render_template("account/parcel.html", v=v, grant_form=GrantForm(),
                           pdf_url=url_for("account.statement_pdf", parcel_id=parcel_id,
                                           through=through.isoformat()),
                           back_url=back_url, back_label=back_label)


@bp.get("/propiedad/<int:parcel_id>/estado-de-cuenta.pdf")
@login_required
def statement_pdf(parcel_id: int):  # noqa: ANN201
    from portal.web.account import views
    today = clock.today()
    through, _requested, _error = _through(today)
    v = views.parcel_view(current_user, parcel_id, today, through)
    if v is None:
        abort(404)
    data = views.statement_pdf(v, current_language())
    resp = make_response(data)
    resp.headers["Content-Type"] = "application/pdf"
    name = ("estado-de-cuenta" if current_language() == "es" else "statement") + \
        f"-{v.parcel.catastro}-{today.isoformat()}.pdf"
    resp.headers["Content-Disposition"] = f'inline; filename="{name}"'
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("/propiedad/reclamar", methods=["GET", "POST"])
@login_required
@limiter.limit(lambda: current_app.config["RATELIMIT_CLAIM"], methods=["POST"],
               key_func=lambda: f"claim:{current_user.get_id()}")
def claim():  # noqa: ANN201
    from portal.services import parcels
    form = ClaimForm()
    if form.validate_on_submit():
        try:
            with uow() as w:
                w.info["ip"] = request.remote_addr
                parcel_id = parcels.claim(w, current_user.id, form.catastro.data,
                                          form.code.data)
        except parcels.ClaimError as exc:
            form.code.errors.append(_claim_message(exc))
        else:
            flash(_("The parcel was added to your account."), "success")
            return redirect(url_for("account.parcel", parcel_id=parcel_id), 303)
    return render_template("account/claim.html", form=form)


def _claim_message(exc: Exception) -> str:
    if getattr(exc, "reason", "") == "too_many":
        return _("Too many wrong codes for this parcel. Wait an hour or call the Authority.")
    if getattr(exc, "reason", "") == "already":
        return _("This parcel is already in your account.")
    return _("The catastro number and the access code do not match. Check both on your "
             "notice and try again.")


@bp.post("/propiedad/<int:parcel_id>/acceso")
@login_required
def grant(parcel_id: int):  # noqa: ANN201
    from portal.services import parcels
    from portal.web.account import views
    form = GrantForm()
    if not form.validate_on_submit():
        today = clock.today()
        v = views.parcel_view(current_user, parcel_id, today,
                              today + timedelta(days=PAYOFF_DEFAULT_DAYS))
        if v is None or not v.can_grant:
            abort(404)
        v.payoff.requested, v.payoff.error = None, None
        v.payoff.latest = today + timedelta(days=PAYOFF_MAX_DAYS)
        back_url, back_label = views.back_link(current_user)
        return render_template("account/parcel.html", v=v, grant_form=form,
                               pdf_url=url_for("account.statement_pdf", parcel_id=parcel_id),
                               back_url=back_url, back_label=back_label), 400
    try:
        with uow() as w:
            parcels.grant(w, current_user.id, parcel_id, form.email.data)
    except parcels.NotFound:
        abort(404)
    flash(_("%(email)s can now see this parcel once signed in with that email.",
            email=form.email.data), "success")
    return redirect(url_for("account.parcel", parcel_id=parcel_id) + "#access", 303)


@bp.post("/propiedad/<int:parcel_id>/acceso/<int:link_id>/quitar")
@login_required
def revoke(parcel_id: int, link_id: int):  # noqa: ANN201
    from portal.services import parcels
    try:
        with uow() as w:
            parcels.revoke(w, current_user.id, parcel_id, link_id)
    except parcels.NotFound:
        abort(404)
    flash(_("Access removed."), "success")
    return redirect(url_for("account.parcel", parcel_id=parcel_id) + "#access", 303)
