"""Staff: the audit log, searched and filtered (who, what, when, which object) and exported
as CSV (`portal.accounts.audit_log`; docs/STAFF.md). Filters are a GET form: a bad date is
shown as the field's error and selects nothing."""

from __future__ import annotations

import json

from flask import Response, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import Length, Optional

from portal import clock
from portal.accounts import audit_log
from portal.csv_text import csv_lines
from portal.db import UnitOfWork
from portal.web.data import database, uow
from portal.web.date_field import TypedDateField
from portal.web.people import bp
from portal.web.staff_access import staff_required


class AuditFilterForm(FlaskForm):
    class Meta:
        csrf = False  # a search (GET): it changes nothing

    who = StringField(_l("Who (email)"), validators=[Optional(), Length(max=254)])
    action = StringField(_l("Action (code or its beginning)"),
                         validators=[Optional(), Length(max=64)])
    object_type = StringField(_l("Object (table)"), validators=[Optional(), Length(max=40)])
    object_id = StringField(_l("Object key"), validators=[Optional(), Length(max=40)])
    since = TypedDateField(_l("From"), validators=[Optional()],
                      render_kw={"placeholder": "YYYY-MM-DD"})
    until = TypedDateField(_l("Until"), validators=[Optional()],
                      render_kw={"placeholder": "YYYY-MM-DD"})


def _filters() -> tuple[AuditFilterForm, audit_log.Filters | None]:
    form = AuditFilterForm(request.args)
    if request.args and not form.validate():
        return form, None
    return form, audit_log.Filters(
        who=form.who.data or "", action=form.action.data or "",
        object_type=form.object_type.data or "", object_id=form.object_id.data or "",
        since=form.since.data, until=form.until.data)


@bp.get("/personal/auditoria")
@staff_required
def audit_page():  # noqa: ANN201
    form, filters = _filters()
    entries = []
    if filters is not None:
        with uow() as w:
            entries = audit_log.search(w, current_user, filters)
    status = 400 if filters is None else 200
    return render_template("people/audit.html", form=form, entries=entries,
                           rows=[(e.at.strftime(WHEN), e) for e in entries],
                           limit=audit_log.PAGE_MAX, query=request.query_string.decode()), status


#: How the page writes a record's instant (UTC): once a row here, not a call in the template.
WHEN = "%Y-%m-%d %H:%M:%S"


@bp.get("/personal/auditoria.csv")
@staff_required
def audit_export():  # noqa: ANN201
    """The filtered records as CSV (newest first); cells a spreadsheet would run as a
    formula are neutralised (`csv_lines`)."""
    form, filters = _filters()
    if filters is None:
        return audit_page()
    header = (_("When (UTC)"), _("Who"), _("Action"), _("Object"), _("Object key"),
              _("IP address"), _("Details"))
    user = current_user._get_current_object()
    db = database()  # the generator runs after the request: it needs no request context

    def lines():  # noqa: ANN202
        with UnitOfWork(db) as w:
            yield from csv_lines(header, (
                (e.at.isoformat(), e.who or "", e.action, e.object_type, e.object_id,
                 e.ip or "", json.dumps(e.after, ensure_ascii=False) if e.after else "")
                for e in audit_log.export(w, user, filters)))
    name = f"auditoria-{clock.today().isoformat()}.csv"
    return Response(lines(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
