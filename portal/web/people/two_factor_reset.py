"""Staff: turn off another person's two-factor sign-in (a lost phone and lost recovery codes),
after checking who they are. The service (`two_factor.reset_by_staff`) ends the person's
sessions and keeps the reason in the audit record; the person is told by email."""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import BooleanField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length

from portal import mail
from portal.accounts.errors import Conflict, Forbidden, NotFound
from portal.people import two_factor
from portal.web.accounts import views
from portal.web.data import uow
from portal.web.people import bp
from portal.web.present import authority_phone
from portal.web.staff_access import staff_required


class ResetTwoFactorForm(FlaskForm):
    reason = TextAreaField(_l("How you checked who the person is"), validators=[
        InputRequired(message=_l("Say how you checked who the person is.")),
        Length(max=two_factor.MAX_REASON,
               message=_l("Write at most %(max)d characters.", max=two_factor.MAX_REASON))])
    checked = BooleanField(
        _l("I checked this person's identity, and they lost both their authenticator and "
           "their recovery codes"),
        validators=[DataRequired(message=_l("Confirm that you checked the person's identity."))])
    submit = SubmitField(_l("Turn off their two-step verification"))


def person_page(user_id: int, form: ResetTwoFactorForm | None = None, status: int = 200):  # noqa: ANN201
    p = views.staff_person(current_user, user_id)
    if p is None:
        abort(404)
    return render_template("people/person.html", p=p,
                           reset_form=form or ResetTwoFactorForm()), status


@bp.post("/personal/persona/<id:user_id>/dos-pasos/restablecer")
@staff_required
def reset_two_factor(user_id: int):  # noqa: ANN201
    form = ResetTwoFactorForm()
    if not form.validate_on_submit():
        return person_page(user_id, form, 400)
    try:
        with uow() as w:
            person = two_factor.reset_by_staff(w, current_user, user_id, form.reason.data)
            mail.send(w, person.email, "two_factor_reset", person.language, name=person.name,
                      config=current_app.config, phone=authority_phone())
    except (NotFound, Forbidden):
        abort(404)
    except Conflict:
        flash(_("Two-step verification was already off for this person."), "info")
        return redirect(url_for("people.person", user_id=user_id), 303)
    flash(_("Two-step verification is off for this person, and they were signed out everywhere. "
            "We told them by email."), "success")
    return redirect(url_for("people.person", user_id=user_id), 303)
