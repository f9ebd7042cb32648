"""The lender's organisation (J7): its users and roles, invitations by email, removal, and
API tokens (an administrator's; shown once). Thin: validate, call
`portal.lenders.tokens`, render."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from portal import clock, mail
from portal.accounts.errors import Conflict, Forbidden, NotFound
from portal.i18n import current_language
from portal.lenders import tokens as org
from portal.people import two_factor
from portal.web.data import external_url, uow
from portal.web.lenders import bp
from portal.web.lenders.forms import InviteForm, TokenForm
from portal.web.staff_access import is_verified


def _role_label(role: str) -> str:
    return _("Administrator") if role == "administrator" else _("Clerk")


def _page(invite_form: InviteForm | None = None, token_form: TokenForm | None = None,
          secret: str | None = None, status: int = 200):  # noqa: ANN202
    if not current_user.is_lender:
        abort(404)
    now = clock.now()
    with uow() as w:
        o = org.organisation(w, current_user)
        people, pending, tokens, name, role = o.members, o.invitations, o.tokens, o.name, o.role
        token_rows = [{"id": t.id, "name": t.name, "prefix": t.prefix, "scope": t.scope,
                       "status": org.status(t, now), "created": clock.legal_date(t.created_at),
                       "expires": clock.legal_date(t.expires_at),
                       "last_used": (clock.legal_date(t.last_used_at)
                                     if t.last_used_at is not None else None)}
                      for t in tokens]
        invites = [{"id": i.id, "email": i.email, "role": i.role,
                    "expires": clock.legal_date(i.expires_at)} for i in pending]
    errors = [(f"#{f.id}", e) for form in (invite_form, token_form) if form is not None
              for f in form for e in f.errors]
    return render_template("lenders/organisation.html", lender_name=name, role=role,
                           people=people, invites=invites, tokens=token_rows,
                           invite_form=invite_form or InviteForm(formdata=None),
                           token_form=token_form or TokenForm(formdata=None), secret=secret,
                           role_label=_role_label, errors=errors, me=current_user.email), status


@bp.get("/organizacion")
@login_required
def organisation():  # noqa: ANN201
    return _page()


def _lender_id() -> int:
    if not current_user.is_lender:
        abort(404)
    with uow() as w:
        lender, _role = org.lender_of(w, current_user)
        return lender.id


def _refused(exc: Exception):  # noqa: ANN202
    if isinstance(exc, NotFound):
        abort(404)
    if isinstance(exc, Forbidden):
        abort(403)
    flash(_("An organisation keeps at least one administrator."), "error")
    return redirect(url_for("lenders.organisation"), 303)


@bp.post("/organizacion/invitar")
@login_required
def invite():  # noqa: ANN201
    lender_id = _lender_id()
    form = InviteForm()
    if not form.validate_on_submit():
        return _page(invite_form=form, status=400)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            inv, secret = org.invite(w, current_user, lender_id, form.email.data, form.role.data)
            email, lender_name = inv.email, org.lender_of(w, current_user)[0].party.name
            mail.send(w, email, "lender_invited", current_language(), config=current_app.config,
                      lender=lender_name,
                      link=external_url("lenders.invitation", secret=secret))
    except (NotFound, Forbidden) as exc:
        return _refused(exc)
    flash(_("The invitation was sent to %(email)s.", email=email), "success")
    return redirect(url_for("lenders.organisation"), 303)


def _act(change: Any, done: str, *args: Any):  # noqa: ANN202
    """Run the service's `change(uow, user, lender_id, *args)` for the user's lender; on
    success say `done` and go back to the organisation's page."""
    lender_id = _lender_id()
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            change(w, current_user, lender_id, *args)
    except (NotFound, Forbidden, Conflict) as exc:
        return _refused(exc)
    except _SecondStepNeeded:
        return _second_step_redirect()
    flash(done, "success")
    return redirect(url_for("lenders.organisation"), 303)


@bp.post("/organizacion/invitacion/<id:invitation_id>/retirar")
@login_required
def withdraw(invitation_id: int):  # noqa: ANN201
    return _act(org.withdraw, _("The invitation was withdrawn."), invitation_id)


@bp.post("/organizacion/usuario/<id:member_id>/quitar")
@login_required
def remove(member_id: int):  # noqa: ANN201
    return _act(org.remove_member,
                _("The user no longer works for your organisation on the portal."), member_id)


@bp.post("/organizacion/usuario/<id:member_id>/rol")
@login_required
def set_role(member_id: int):  # noqa: ANN201
    role = request.form.get("role", "")
    if role not in org.ROLES:
        if not current_user.is_lender:
            abort(404)
        abort(400)
    return _act(org.set_role, _("The role was changed."), member_id, role)


@bp.route("/invitacion/<secret>", methods=["GET", "POST"])
@login_required
def invitation(secret: str):  # noqa: ANN201
    """The invited person, signed in with the invited email, accepts (POST)."""
    if len(secret) > 100:
        abort(404)
    try:
        with uow() as w:
            if request.method == "POST":
                w.info["ip"] = request.remote_addr
                org.accept(w, current_user, secret)
            else:
                inv, name = org.invitation(w, current_user, secret)
                role = inv.role
    except NotFound:
        abort(404)
    if request.method == "POST":
        flash(_("You now work for this lender on the portal."), "success")
        return redirect(url_for("lenders.loans"), 303)
    return render_template("lenders/invitation.html", lender_name=name, role=_role_label(role),
                           secret=secret)


class _SecondStepNeeded(Exception):
    """Raised inside the unit of work: it rolls back, nothing is kept."""


def _with_second_step(change: Any) -> Any:
    """The token service `change`, kept only when the session passed the second step: API
    tokens hold the bank's power over its loans, so who manages them has two-step sign-in
    on and used it (docs/SECURITY.md). Asked after the service's own checks (a clerk: 403,
    another bank's token: 404)."""
    def run(*args: Any) -> Any:
        result = change(*args)
        if not is_verified():
            raise _SecondStepNeeded()
        return result
    return run


def _second_step_redirect():  # noqa: ANN202
    flash(_("To create or revoke API tokens, turn on two-step verification and sign in "
            "with it."), "warning")
    if not two_factor.is_enrolled(current_user):
        return redirect(url_for("people.two_factor_enrol"), 303)
    return redirect(url_for("people.sign_in"), 303)


@bp.post("/organizacion/tokens")
@login_required
def create_token():  # noqa: ANN201
    lender_id = _lender_id()
    form = TokenForm()
    if not form.validate_on_submit():
        return _page(token_form=form, status=400)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            _tok, secret = _with_second_step(org.create_token)(
                w, current_user, lender_id, form.name.data, form.scope.data,
                int(form.days.data))
    except (NotFound, Forbidden) as exc:
        return _refused(exc)
    except _SecondStepNeeded:
        return _second_step_redirect()
    # Shown once, on this answer only (not in a redirect's flash: it would sit in the session).
    return _page(secret=secret)


@bp.post("/organizacion/tokens/<id:token_id>/revocar")
@login_required
def revoke_token(token_id: int):  # noqa: ANN201
    return _act(_with_second_step(org.revoke_token),
                _("The token was revoked: it is refused from now on."), token_id)
