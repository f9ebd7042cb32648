"""Staff's pages of the housing cooperatives' elections (R-B4, R-B20): the list, and one
election with its units, its corrections and the form that corrects it.

An election recorded in error is corrected, never changed (`cooperatives.correct`: a new
append-only correction with its reason and staff member, audited; the latest one is in
force). Every staff member reads these pages; reviewers and administrators correct
(`staff_role`, 403 to other staff, 404 to anyone who is not staff). Bad input re-renders
the page with the error summary and changes nothing."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal import clock
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.core.explain import N_
from portal.documents.exemption_certification import COOP_ELECTION_LABELS, coop_election_facts
from portal.exemptions import cooperatives
from portal.i18n import date_long, date_short, formats, number
from portal.web.data import uow
from portal.web.exemptions import bp
from portal.web.exemptions.forms import CoopElectionCorrectionForm
from portal.web.exemptions.present import fy_label
from portal.web.form_errors import form_errors
from portal.web.paging import page_number
from portal.web.staff_access import staff_required, staff_role

#: The service's refusals (`InvalidInput` code) in the form's words.
REFUSED = {
    "invalid": N_("Choose the election the cooperative made."),
    "required": N_("Say why the election is corrected."),
    "too_long": N_("Write at most 500 characters."),
}


def _election(code: str) -> str:
    return _(COOP_ELECTION_LABELS[code]) if code in COOP_ELECTION_LABELS else code


@bp.get("/personal/cooperativas", endpoint="coop_elections")
@staff_required
def elections():  # noqa: ANN201
    page = page_number()
    with uow() as w:
        rows, total = cooperatives.elections(w, current_user,
                                             offset=(page - 1) * cooperatives.PAGE)
    pages = max(1, -(-total // cooperatives.PAGE))
    if page > pages:
        abort(404)
    view = [{"id": r.id, "fy": fy_label(r.fiscal_year_start), "cooperative": r.cooperative,
             "election": _election(r.election), "corrections": r.corrections,
             "recorded_by": r.recorded_by or _("The owner of one of its units"),
             "recorded_on": date_short(r.recorded_on), "units": number(r.units)}
            for r in rows]
    return render_template("exemptions/coop_elections.html", rows=view, total=total,
                           page=page, pages=pages)


def _page(election_id: int, form: CoopElectionCorrectionForm | None = None,
          errors: list | None = None, status: int = 200):  # noqa: ANN202
    with uow() as w:
        try:
            d = cooperatives.election_detail(w, current_user, election_id)
        except NotFound:
            abort(404)
    view = {"id": d.id, "fy": fy_label(d.fiscal_year_start),
            "cooperative": d.shown.cooperative, "in_force": _election(d.shown.election),
            "recorded": _election(d.recorded), "facts": coop_election_facts(d.shown),
            "corrections": [{"at": date_long(clock.legal_date(c.at)),
                             "election": _election(c.election), "reason": c.reason,
                             "staff": c.staff_name or c.staff_email}
                            for c in reversed(d.corrections)]}
    form = form or CoopElectionCorrectionForm(formdata=None)
    return render_template("exemptions/coop_election.html", e=view, form=form,
                           errors=errors or [], f=formats()), status


@bp.get("/personal/cooperativas/<id:election_id>", endpoint="coop_election")
@staff_required
def election(election_id: int):  # noqa: ANN201
    return _page(election_id)


@bp.post("/personal/cooperativas/<id:election_id>/correccion",
         endpoint="coop_election_correct")
@staff_role(*cooperatives.CORRECTORS)
def correct(election_id: int):  # noqa: ANN201
    form = CoopElectionCorrectionForm()
    if not form.validate():
        return _page(election_id, form, form_errors(form), 422)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            cooperatives.correct(w, current_user, election_id, form.election.data,
                                 form.reason.data)
    except NotFound:
        abort(404)
    except Forbidden:
        abort(403)
    except InvalidInput as exc:
        field = "election" if exc.params.get("field") == "election" else "reason"
        form[field].errors = [_(REFUSED.get(exc.code, REFUSED["required"]))]
        return _page(election_id, form, form_errors(form), 422)
    except Conflict:
        form.election.errors = [_("That is already the election in force: nothing changed.")]
        return _page(election_id, form, form_errors(form), 409)
    flash(_("The correction is recorded: the cooperative's election in force is now "
            "%(election)s.", election=_election(form.election.data)), "success")
    return redirect(url_for("exemptions.coop_election", election_id=election_id), 303)
