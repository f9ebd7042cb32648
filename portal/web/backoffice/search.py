"""`/personal/busqueda`: one box over the roll, accounts, lessees, loans and filings
(`portal.accounts.search`), results grouped by kind, each linking to its staff page."""

from __future__ import annotations

from flask import abort, render_template, request
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import SearchField
from wtforms.validators import InputRequired, Length

from portal.accounts import search as service
from portal.web.backoffice import bp
from portal.web.data import uow
from portal.web.paging import page_number
from portal.web.staff_access import staff_required

#: Each kind's heading.
HEADINGS = {
    "parcels": _l("Parcels (catastro number or owner)"),
    "accounts": _l("Portal accounts"),
    "lessees": _l("Lessees"),
    "loans": _l("Loans"),
    "filings": _l("Exemption filings"),
}


class SearchForm(FlaskForm):
    class Meta:
        csrf = False  # a GET search changes nothing

    q = SearchField(_l("Catastro number, name, email, loan number or filing number"),
                    validators=[
                        InputRequired(message=_l("Write at least 2 characters to search.")),
                        Length(min=service.MIN_LENGTH, max=service.MAX_LENGTH,
                               message=_l("Write from 2 to 120 characters."))])


@bp.get("/personal/busqueda")
@staff_required
def search():  # noqa: ANN201
    form = SearchForm(request.args)
    kind = request.args.get("tipo") or None
    if kind is not None and kind not in service.KINDS:
        abort(404)
    page = page_number()
    results = None
    status = 200
    if "q" in request.args:
        if form.validate():
            with uow() as w:
                results = service.search(w, current_user, form.q.data, kind=kind, page=page)
            if results is None:  # spaces only
                form.q.errors = [_l("Write at least 2 characters to search.")]
                status = 422
        else:
            status = 422
    return render_template("backoffice/search.html", form=form, results=results,
                           kind=kind, headings=HEADINGS), status
