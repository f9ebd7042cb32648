"""The reminders' routes (see the package's docstring)."""

from __future__ import annotations

from flask import Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.i18n import current_language
from portal.reminders import calendar, links, preferences, relatives
from portal.web.data import uow
from portal.web.extensions import csrf
from portal.web.reminders import bp
from portal.web.reminders.forms import RelativeForm, SettingsForm

ICS = "text/calendar; charset=utf-8"


def _settings_page(form: SettingsForm | None = None,
                   relative_form: RelativeForm | None = None,
                   relative_parcel: int | None = None, status: int = 200):  # noqa: ANN202
    with uow() as w:
        prefs = preferences.view(w, current_user)
    if form is None:
        form = SettingsForm(data={"enabled": prefs.enabled, "days_before": prefs.days_before})
    feed = links.calendar_feed(current_app.config, prefs.calendar_token)
    # The relative's form shows what was typed only beside the parcel it was posted for
    # (`relative_parcel`); the other parcels' forms are written empty, without one.
    return render_template("reminders/settings.html", prefs=prefs, form=form, feed_url=feed,
                           relative_form=relative_form, relative_parcel=relative_parcel), status


@bp.get("/cuenta/recordatorios")
@login_required
def settings():  # noqa: ANN201
    return _settings_page()


@bp.post("/cuenta/recordatorios")
@login_required
def save():  # noqa: ANN201
    form = SettingsForm()
    if not form.validate_on_submit():
        return _settings_page(form, status=400)
    try:
        with uow() as w:
            preferences.save(w, current_user, enabled=form.enabled.data,
                             days_before=form.days_before.data,
                             parcels_on=request.form.getlist("parcels"))
    except InvalidInput:
        form.days_before.errors = [_("Choose one of the parcels and days listed.")]
        return _settings_page(form, status=400)
    flash(_("Your reminders were saved."), "success")
    return redirect(url_for("reminders.settings"), 303)


@bp.post("/cuenta/recordatorios/calendario")
@login_required
def reset_calendar():  # noqa: ANN201
    with uow() as w:
        preferences.reset_calendar(w, current_user)
    flash(_("Your calendar has a new address: the old one no longer works. Subscribe again "
            "with the new one."), "success")
    return redirect(url_for("reminders.settings"), 303)


@bp.post("/propiedad/<id:parcel_id>/recordatorios/familiares")
@login_required
def add_relative(parcel_id: int):  # noqa: ANN201
    form = RelativeForm()
    try:
        if not form.validate_on_submit():
            with uow() as w:  # a parcel one may not manage: 404/403 before the form's errors
                relatives.require_manager(w, current_user, parcel_id)
            return _settings_page(relative_form=form, relative_parcel=parcel_id, status=400)
        with uow() as w:
            relatives.add(w, current_user, parcel_id, form.email.data, form.language.data,
                          config=current_app.config)
    except NotFound:
        abort(404)
    except Forbidden:
        abort(403)
    except Conflict:
        form.email.errors = [_("That email already gets this parcel's reminders.")]
        return _settings_page(relative_form=form, relative_parcel=parcel_id, status=400)
    except InvalidInput:
        form.email.errors = [_("A parcel may have at most %(max)s relatives.",
                               max=relatives.MAX_PER_PARCEL)]
        return _settings_page(relative_form=form, relative_parcel=parcel_id, status=400)
    flash(_("We sent %(email)s an email: their reminders start once they confirm it.",
            email=form.email.data.strip().lower()), "success")
    return redirect(url_for("reminders.settings"), 303)


@bp.post("/propiedad/<id:parcel_id>/recordatorios/familiares/<id:relative_id>/quitar")
@login_required
def remove_relative(parcel_id: int, relative_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            row = relatives.remove(w, current_user, parcel_id, relative_id)
            email = row.email
    except NotFound:
        abort(404)
    except Forbidden:
        abort(403)
    flash(_("%(email)s will no longer get this parcel's reminders.", email=email), "success")
    return redirect(url_for("reminders.settings"), 303)


@bp.get("/recordatorios/baja/<token>")
def unsubscribe_page(token: str):  # noqa: ANN201
    try:
        with uow() as w:
            what = preferences.unsubscription(w, token)
    except NotFound:
        abort(404)
    return render_template("reminders/unsubscribe.html", what=what, token=token, done=False)


@bp.post("/recordatorios/baja/<token>")
# RFC 8058: the mail reader posts "List-Unsubscribe=One-Click"; the secret is the proof.
@csrf.exempt
def unsubscribe(token: str):  # noqa: ANN201
    try:
        with uow() as w:
            what = preferences.unsubscribe(w, token)
    except NotFound:
        abort(404)
    return render_template("reminders/unsubscribe.html", what=what, token=token, done=True)


@bp.get("/recordatorios/confirmar/<token>")
def confirm_page(token: str):  # noqa: ANN201
    try:
        with uow() as w:
            row, parcel = relatives.pending(w, token)
            confirmed, catastro = row.confirmed_at is not None, parcel.catastro
    except NotFound:
        abort(404)
    return render_template("reminders/confirm.html", token=token, catastro=catastro,
                           done=confirmed)


@bp.post("/recordatorios/confirmar/<token>")
def confirm(token: str):  # noqa: ANN201
    try:
        with uow() as w:
            _row, parcel = relatives.confirm(w, token)
            catastro = parcel.catastro
    except NotFound:
        abort(404)
    return render_template("reminders/confirm.html", token=token, catastro=catastro, done=True)


@bp.get("/calendario/<token>.ics")
def feed(token: str):  # noqa: ANN201
    try:
        with uow() as w:
            data = calendar.account_feed(w, token, current_app.config)
    except NotFound:
        abort(404)
    return Response(data, mimetype="text/calendar", headers={
        "Content-Type": ICS, "Cache-Control": "private, max-age=3600",
        "X-Robots-Tag": "noindex"})


@bp.get("/propiedad/<id:parcel_id>/calendario.ics")
@login_required
def parcel_ics(parcel_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            parcel, data = calendar.parcel_file(w, current_user, parcel_id, current_language(),
                                                current_app.config)
            name = parcel.catastro
    except NotFound:
        abort(404)
    return Response(data, mimetype="text/calendar", headers={
        "Content-Type": ICS,
        "Content-Disposition": f'attachment; filename="derrama-{name}.ics"'})
