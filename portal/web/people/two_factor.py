"""Two-factor sign-in (TOTP and recovery codes), on the people blueprint.

After the password, a user with two-factor sign-in (and every staff user) is not signed in:
the session holds only who is pending the second step (`PENDING`: the user, the password's
fingerprint, where to go next, since when). `/cuenta/verificar` asks for the authenticator's
code or a recovery code, then signs in through `sign_in.finish_sign_in`, the password path's
own function, and marks the session verified (`staff_access.VERIFIED`). Staff without an
authenticator enrol first (`/cuenta/dos-pasos/activar`). Every other user may turn it on from
`/cuenta/dos-pasos`.

Staff pages need a verified session: `portal.web.staff_access` guards the staff routes
(`staff_second_factor`), and its check before every request sends a staff user whose session is
not verified (e.g. one made before the second step existed) to the second step, or to
enrolment.
"""

from __future__ import annotations

from typing import Any

import segno
from flask import abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import StringField, SubmitField
from wtforms.validators import InputRequired, Length

from portal import clock
from portal.accounts.errors import Conflict, NotFound
from portal.people import two_factor as service
from portal.people import users
from portal.web.data import uow
from portal.web.people import bp
from portal.web.people.sign_in import finish_sign_in
from portal.web.redirects import safe_next
from portal.web.staff_access import VERIFIED, is_verified

PENDING = "second_factor_pending"
#: How long the password step stays good for the second step.
PENDING_SECONDS = 600

_CODE_ATTRS = {"autocomplete": "one-time-code", "inputmode": "numeric", "maxlength": "7",
               "spellcheck": "false", "autocapitalize": "off"}


class CodeForm(FlaskForm):
    code = StringField(_l("Code from your authenticator app"), render_kw=_CODE_ATTRS,
                       validators=[InputRequired(message=_l("Enter the 6-digit code.")),
                                   Length(max=20)])
    submit = SubmitField(_l("Continue"))


class RecoveryForm(FlaskForm):
    recovery_code = StringField(
        _l("Recovery code"), render_kw={"autocomplete": "off", "spellcheck": "false",
                                        "autocapitalize": "off"},
        validators=[InputRequired(message=_l("Enter one of your recovery codes.")),
                    Length(max=40)])
    use_recovery = SubmitField(_l("Use the recovery code"))


class ChangeForm(FlaskForm):
    """Turning it off or getting new recovery codes: confirmed with a current code."""

    code = StringField(_l("Current code from your authenticator app (or a recovery code)"),
                       render_kw={"autocomplete": "one-time-code", "spellcheck": "false",
                                  "autocapitalize": "off"},
                       validators=[InputRequired(message=_l("Enter the 6-digit code.")),
                                   Length(max=40)])


# --- Who is at the second step --------------------------------------------------------------

def required(user: Any) -> bool:
    """Whether this sign-in goes through the second step (staff, or enrolled)."""
    return service.required(user)


def start(user: Any, next_url: str | None):  # noqa: ANN201
    """After the password: remember who is pending and go to the second step."""
    session.pop(VERIFIED, None)
    session[PENDING] = {"u": user.id, "f": users.password_fingerprint(user),
                        "n": next_url or "", "t": _now()}
    if service.is_enrolled(user):
        return redirect(url_for("people.verify"), 303)
    return redirect(url_for("people.two_factor_enrol"), 303)


def _now() -> int:
    return int(clock.now().timestamp())


def _pending_user():  # noqa: ANN202
    """The user who gave the right password and is pending the second step, else None."""
    data = session.get(PENDING)
    if not isinstance(data, dict):
        return None
    try:
        fresh = 0 <= _now() - int(data.get("t", 0)) <= PENDING_SECONDS
    except (TypeError, ValueError):
        fresh = False
    if not fresh:
        session.pop(PENDING, None)
        return None
    with uow() as w:
        user = users.load_user(w, data.get("u"))
    if user is None or not user.is_active \
            or users.password_fingerprint(user) != data.get("f"):
        session.pop(PENDING, None)
        return None
    return user


def _subject():  # noqa: ANN202
    """(user, signed_in): the signed-in user, else the pending one; (None, False) if none."""
    if current_user.is_authenticated:
        return current_user, True
    return _pending_user(), False


def _complete(user: Any, signed_in: bool):  # noqa: ANN001, ANN202
    """Sign in (or, already signed in, mark the session verified); the redirect."""
    if signed_in:
        target = safe_next(request.args.get("next"), url_for("accounts.dashboard"))
        session[VERIFIED] = user.id
        return redirect(target, 303)
    data = session.pop(PENDING, None) or {}
    response = finish_sign_in(user, data.get("n") or None)
    session[VERIFIED] = user.id
    return response


def _next_after(signed_in: bool) -> str:
    if signed_in:
        return safe_next(request.args.get("next"), url_for("accounts.dashboard"))
    return safe_next((session.get(PENDING) or {}).get("n") or None,
                     url_for("accounts.dashboard"))


def _refused(outcome: service.Outcome) -> str:
    if outcome.retry_after:
        minutes = max(1, (outcome.retry_after + 59) // 60)
        return ngettext("Too many wrong codes. Try again in %(num)d minute.",
                        "Too many wrong codes. Try again in %(num)d minutes.", minutes)
    return ngettext("That code is not right. You have %(num)d more try before a pause.",
                    "That code is not right. You have %(num)d more tries before a pause.",
                    outcome.left)


# --- The second step ----------------------------------------------------------------------

@bp.route("/cuenta/verificar", methods=["GET", "POST"])
def verify():  # noqa: ANN201
    user, signed_in = _subject()
    if user is None:
        return redirect(url_for("people.sign_in"))
    if signed_in and is_verified():
        return redirect(url_for("accounts.dashboard"))
    if not service.is_enrolled(user):
        return redirect(url_for("people.two_factor_enrol", next=request.args.get("next")))
    form, recovery = CodeForm(), RecoveryForm()
    status = 200
    if request.method == "POST":
        using_recovery = "recovery_code" in request.form
        chosen = recovery if using_recovery else form
        if chosen.validate_on_submit():
            with uow() as w:
                if using_recovery:
                    outcome = service.verify(w, user.id,
                                             recovery_code=recovery.recovery_code.data)
                else:
                    outcome = service.verify(w, user.id, code=form.code.data)
            if outcome.ok:
                return _complete(user, signed_in)
            chosen_field = recovery.recovery_code if using_recovery else form.code
            chosen_field.errors = [*chosen_field.errors, _refused(outcome)]
            status = 429 if outcome.retry_after else 200
    return render_template("people/two_factor_verify.html", form=form, recovery=recovery,
                           email=user.email), status


def qr_svg(uri: str) -> Markup:
    """The enrolment URI as an inline SVG QR code (no image file, no JavaScript)."""
    svg = segno.make(uri, error="m").svg_inline(scale=5, border=4, dark="#000",
                                                light="#fff", svgclass="portal-qr")
    return Markup(svg.replace("<svg ", '<svg role="img" aria-labelledby="qr-caption" ', 1))


@bp.route("/cuenta/dos-pasos/activar", methods=["GET", "POST"])
def two_factor_enrol():  # noqa: ANN201
    user, signed_in = _subject()
    if user is None:
        return redirect(url_for("people.sign_in"))
    if service.is_enrolled(user):
        return redirect(url_for("people.two_factor" if signed_in else "people.verify"))
    form = CodeForm()
    with uow() as w:
        enrolment = service.begin_enrolment(w, user.id)
    status = 200
    if form.validate_on_submit():
        with uow() as w:
            outcome = service.confirm_enrolment(w, user.id, form.code.data)
        if outcome.ok:
            after = _next_after(signed_in)
            if not signed_in:
                after = _complete(user, False).location
            else:
                session[VERIFIED] = user.id
            return render_template("people/two_factor_codes.html", codes=outcome.codes,
                                   after=after, enrolled=True)
        form.code.errors = [*form.code.errors, _refused(outcome)]
        status = 429 if outcome.retry_after else 200
    return render_template("people/two_factor_enrol.html", form=form, qr=qr_svg(enrolment.uri),
                           secret=_grouped(enrolment.secret), email=user.email,
                           pending=not signed_in), status


def _grouped(secret: str) -> str:
    return " ".join(secret[i:i + 4] for i in range(0, len(secret), 4))


# --- One's own second factor --------------------------------------------------------------

def _manage_page(change: ChangeForm | None = None, failed: str | None = None,
                 status: int = 200):  # noqa: ANN202
    with uow() as w:
        left = service.recovery_codes_left(w, current_user.id)
    return render_template("people/two_factor_manage.html",
                           enrolled=service.is_enrolled(current_user),
                           since=current_user.totp_enabled_at, left=left,
                           codes_form=change if failed == "codes" else ChangeForm(prefix="codes"),
                           off_form=change if failed == "off" else ChangeForm(prefix="off")
                           ), status


@bp.get("/cuenta/dos-pasos")
@login_required
def two_factor():  # noqa: ANN201
    return _manage_page()


def _change(kind: str):  # noqa: ANN202
    form = ChangeForm(prefix=kind)
    if not service.is_enrolled(current_user):
        return redirect(url_for("people.two_factor"), 303)
    if not form.validate_on_submit():
        return _manage_page(form, kind, 400)
    try:
        with uow() as w:
            if kind == "codes":
                outcome = service.regenerate_recovery_codes(w, current_user.id, form.code.data)
            else:
                outcome = service.disable(w, current_user.id, form.code.data)
    except (Conflict, NotFound):
        abort(404)
    if not outcome.ok:
        form.code.errors = [*form.code.errors, _refused(outcome)]
        return _manage_page(form, kind, 429 if outcome.retry_after else 400)
    if kind == "codes":
        return render_template("people/two_factor_codes.html", codes=outcome.codes,
                               after=url_for("people.two_factor"), enrolled=False)
    session.pop(VERIFIED, None)
    flash(_("Two-step verification is off."), "info")
    return redirect(url_for("people.two_factor"), 303)


@bp.post("/cuenta/dos-pasos/codigos")
@login_required
def two_factor_codes():  # noqa: ANN201
    return _change("codes")


@bp.post("/cuenta/dos-pasos/desactivar")
@login_required
def two_factor_disable():  # noqa: ANN201
    return _change("off")
