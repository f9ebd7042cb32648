"""Sign-up (with email confirmation), sign-in, sign-out, password change and reset, under
/cuenta. A sign-in with the right password ends in `sign_in.finish_sign_in`, or goes through
the second step first (`two_factor`)."""

from __future__ import annotations

from flask import (
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
from flask_login import current_user, login_required, logout_user

from portal import mail
from portal.accounts import throttle
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.i18n import LANGUAGES, current_language
from portal.people import users
from portal.web import session_store
from portal.web.data import external_url, uow
from portal.web.extensions import shared_limit
from portal.web.people import bp, tokens, two_factor
from portal.web.people.forms import (
    ChangePasswordForm,
    ForgotForm,
    ResendForm,
    ResetForm,
    SignInForm,
    SignUpForm,
)
from portal.web.people.sign_in import finish_sign_in


def _send_confirmation(w, user) -> None:  # noqa: ANN001
    token = tokens.make_confirm(user.id, user.email)
    mail.send(w, user.email, "confirm", user.language or current_language(), name=user.name,
              config=current_app.config, link=external_url("people.confirm", token=token))


@bp.route("/cuenta/registro", methods=["GET", "POST"])
@shared_limit("RATELIMIT_SIGNIN")
def sign_up():  # noqa: ANN201
    form = SignUpForm()
    if form.validate_on_submit():
        try:
            with uow() as w:
                user = users.register(w, email=form.email.data, password=form.password.data,
                                      name=form.name.data, language=current_language())
                _send_confirmation(w, user)
        except Conflict:
            # Already registered: the same answer and the same work (the password was
            # hashed, an email goes out), but the email says so (no account enumeration).
            with uow() as w:
                known = users.find_by_email(w, form.email.data)
                mail.send(w, known.email, "already_registered",
                          known.language or current_language(), name=known.name,
                          config=current_app.config, link=external_url("people.sign_in"),
                          forgot=external_url("people.forgot"))
        # The same answer whether or not the email was already registered (no enumeration).
        return redirect(url_for("people.check_email"), 303)
    return render_template("people/sign_up.html", form=form)


@bp.get("/cuenta/revise-su-correo")
def check_email():  # noqa: ANN201
    return render_template("people/check_email.html", form=ResendForm())


@bp.route("/cuenta/reenviar", methods=["GET", "POST"])
@shared_limit("RATELIMIT_SIGNIN")
def resend():  # noqa: ANN201
    if request.method == "GET":  # e.g. the language switch on the form shown with errors
        return redirect(url_for("people.check_email"), 303)
    form = ResendForm()
    if form.validate_on_submit():
        with uow() as w:
            user = users.find_by_email(w, form.email.data)
            # The same answer and the same work whether or not the email has an account (no
            # enumeration by words or by time): one email goes out on every path.
            if user is None:
                tokens.make_confirm(0, "")
                mail.send(w, users.normalise_email(form.email.data), "confirm_unknown",
                          current_language(), config=current_app.config,
                          link=external_url("people.sign_up"))
            elif not user.email_confirmed:
                _send_confirmation(w, user)
            else:
                tokens.make_confirm(user.id, user.email)
                mail.send(w, user.email, "already_registered",
                          user.language or current_language(), name=user.name,
                          config=current_app.config, link=external_url("people.sign_in"),
                          forgot=external_url("people.forgot"))
        return redirect(url_for("people.check_email", sent=1), 303)
    return render_template("people/check_email.html", form=form), 400


@bp.get("/cuenta/confirmar/<token>")
def confirm(token: str):  # noqa: ANN201
    data = tokens.read_confirm(token)
    if data is None:
        flash(_("That confirmation link is not valid or has expired. Ask for a new one below."),
              "error")
        return redirect(url_for("people.check_email"))
    try:
        with uow() as w:
            user = users.load_user(w, data["u"])
            if user is not None and user.email == data["e"]:
                users.confirm_email(w, user.id)
            else:
                user = None
    except NotFound:
        user = None
    if user is None:
        flash(_("That confirmation link is not valid or has expired. Ask for a new one below."),
              "error")
        return redirect(url_for("people.check_email"))
    flash(_("Your email is confirmed. You can sign in now."), "success")
    return redirect(url_for("people.sign_in"))


@bp.route("/cuenta/entrar", methods=["GET", "POST"])
def sign_in():  # noqa: ANN201
    if current_user.is_authenticated:
        return redirect(url_for("accounts.dashboard"))
    form = SignInForm()
    if request.method == "POST" and request.args.get("lang") in LANGUAGES:
        # The form was read in its link's language (`?lang=`): the latest explicit choice,
        # which finish_sign_in makes the preference (as the language switch's).
        session["lang"], session["lang_switched"] = request.args["lang"], True
    if form.validate_on_submit():
        try:
            with uow() as w:
                user = users.authenticate(w, form.email.data, form.password.data,
                                          address=request.remote_addr)
        except throttle.Throttled as exc:
            minutes = max(1, (int(exc.params.get("retry_after", 900)) + 59) // 60)
            form.password.errors.append(ngettext(
                "Too many wrong passwords. Try again in %(num)d minute, or choose a new "
                "password with \u201cForgot your password?\u201d",
                "Too many wrong passwords. Try again in %(num)d minutes, or choose a new "
                "password with \u201cForgot your password?\u201d", minutes))
            return render_template("people/sign_in.html", form=form), 429
        if user is None:
            form.password.errors.append(_("The email or the password is not correct."))
        elif not user.email_confirmed:
            flash(_("Confirm your email first: we sent you a link. You can ask for a new one "
                    "here."), "warning")
            return redirect(url_for("people.check_email"))
        elif two_factor.required(user):
            return two_factor.start(user, request.args.get("next"))
        else:
            return finish_sign_in(user, request.args.get("next"))
    return render_template("people/sign_in.html", form=form)


@bp.post("/cuenta/salir")
@login_required
def sign_out():  # noqa: ANN201
    """Signs the user out everywhere: every session of theirs ends, this browser's too."""
    user_id = current_user.id
    logout_user()
    with uow() as w:
        users.end_sessions(w, user_id)
    session_store.restart()
    flash(_("You have signed out."), "info")
    return redirect(url_for("accounts.home"), 303)


@bp.post("/cuenta/salir-de-otros-dispositivos")
@login_required
def sign_out_others():  # noqa: ANN201
    """Ends every other session of the user; this browser stays signed in."""
    with uow() as w:
        users.end_sessions(w, current_user.id, except_sid=session_store.current_sid())
    flash(_("You were signed out on every other device."), "success")
    return redirect(url_for("accounts.dashboard"), 303)


@bp.route("/cuenta/contrasena", methods=["GET", "POST"])
@login_required
def change_password():  # noqa: ANN201
    """A new password, with the current one; every other session of the user ends."""
    form = ChangePasswordForm()
    form.person = (current_user.email, current_user.name or "")
    if form.validate_on_submit():
        try:
            with uow() as w:
                users.change_password(w, current_user.id, form.current.data,
                                      form.password.data, address=request.remote_addr)
                users.end_sessions(w, current_user.id, except_sid=session_store.current_sid())
        except throttle.Throttled:
            form.current.errors.append(_("Too many wrong passwords. Try again later, or "
                                         "choose a new password with \u201cForgot your "
                                         "password?\u201d"))
            return render_template("people/change_password.html", form=form), 429
        except InvalidInput:
            form.current.errors.append(_("That is not your current password."))
        else:
            flash(_("Your password was changed. Other devices were signed out."), "success")
            return redirect(url_for("accounts.account"), 303)  # where its link is
    return render_template("people/change_password.html", form=form)


@bp.route("/cuenta/olvide", methods=["GET", "POST"])
@shared_limit("RATELIMIT_SIGNIN")
def forgot():  # noqa: ANN201
    form = ForgotForm()
    if form.validate_on_submit():
        with uow() as w:
            user = users.find_by_email(w, form.email.data)
            # The same work whether or not the email has an account (no enumeration by
            # time): a token is made and an email is queued; without an account it says so.
            if user is not None:
                token = tokens.make_reset(user.id, users.password_fingerprint(user))
                mail.send(w, user.email, "reset", user.language or current_language(),
                          name=user.name, config=current_app.config,
                          link=external_url("people.reset", token=token))
            else:
                tokens.make_reset(0, "0" * 16)
                mail.send(w, users.normalise_email(form.email.data), "reset_unknown",
                          current_language(), config=current_app.config,
                          link=external_url("people.sign_up"))
        flash(_("If that email has an account, we sent it a link to choose a new password."),
              "info")
        return redirect(url_for("people.sign_in"), 303)
    return render_template("people/forgot.html", form=form)


@bp.route("/cuenta/nueva-contrasena/<token>", methods=["GET", "POST"])
def reset(token: str):  # noqa: ANN201
    data = tokens.read_reset(token)
    user = None
    if data is not None:
        with uow() as w:
            user = users.load_user(w, data["u"])
        if user is None or users.password_fingerprint(user) != data.get("f"):
            user = None
    if user is None:
        flash(_("That link is not valid or has expired. Ask for a new one."), "error")
        return redirect(url_for("people.forgot"))
    form = ResetForm()
    form.person = (user.email, user.name or "")
    if form.validate_on_submit():
        with uow() as w:
            users.set_password(w, user.id, form.password.data)
            users.end_sessions(w, user.id)  # a new password ends every session of the user
        if current_user.is_authenticated:
            logout_user()
        session_store.restart()
        flash(_("Your password was changed. Sign in with the new one."), "success")
        return redirect(url_for("people.sign_in"), 303)
    return render_template("people/reset.html", form=form, token=token)

