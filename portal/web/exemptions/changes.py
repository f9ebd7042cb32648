"""Change reports of the residential exemption (J6; R-B5, R-B9, R-B12).

Thin: validate with WTForms, call `portal.exemptions.changes`, render. The owner's
form has two steps that work without JavaScript: what changed and when, then what follows
(the deadline, the days left, the consequences, from the core) and "send". A spouse's death
with an original titleholder asks only to confirm the home is still used as such (R-B5).
A parcel the user may not see, or may see without owning it, answers 404.
"""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from portal import clock, mail
from portal.accounts import access, policy
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.core.exemption import FALSE_STATEMENT_WARNING
from portal.core.explain import N_
from portal.exemptions import changes as changes
from portal.i18n import current_language, formats
from portal.web.data import external_url, uow
from portal.web.exemptions import bp
from portal.web.exemptions.change_forms import KIND_LABELS, KIND_SHORT, ChangeForm
from portal.web.forms import ActionForm
from portal.web.staff_access import staff_required

STATUS_LABELS = {"filed": N_("Received"), "acknowledged": N_("Acknowledged by staff")}


def _parcel_or_404(w, parcel_id: int):  # noqa: ANN001, ANN202
    try:
        return changes.require_owner(w, current_user, parcel_id)
    except (NotFound, Forbidden):
        abort(404)


def _context(w, parcel) -> dict:  # noqa: ANN001
    """What the form's pages show of the parcel: this year's deadline, the loan, the
    exemption on file (`exemption_status`, J5)."""
    today = clock.today()
    this_year = changes.preview("other", today, today)
    return {"parcel": parcel, "today": today, "this_year": this_year,
            "has_loan": changes.has_loan(w, parcel.id, today),
            "exemption": changes.exemption_status(w, parcel.id,
                                                   changes.current_fiscal_year(today)),
            "kinds": KIND_LABELS, "kind_short": KIND_SHORT, "f": formats()}


@bp.route("/propiedad/<id:parcel_id>/cambio", methods=["GET", "POST"], endpoint="changes_new")
@login_required
def new(parcel_id: int):  # noqa: ANN201
    form = ChangeForm()
    with uow() as w:
        parcel = _parcel_or_404(w, parcel_id)
        ctx = _context(w, parcel)
        relation = access.relation(w, current_user, parcel.id)
    if request.method == "POST" and not policy.allows(current_user, policy.REPORT_CHANGE,
                                                      relation):
        abort(403)  # staff without the role (`policy.REPORT_CHANGE`): nothing is read
    if request.method == "GET":
        return render_template("exemptions/changes/new.html", form=form, **ctx)
    if not form.validate_on_submit():
        return render_template("exemptions/changes/new.html", form=form, **ctx), 400
    if request.form.get("action") == "edit":  # back from the review, the answers kept
        return render_template("exemptions/changes/new.html", form=form, **ctx)
    asks_use = bool(form.titleholder)
    # Until the survivor answers, the page says what holds while the home is still theirs.
    outcome = changes.preview(form.kind.data, form.change_date.data, ctx["today"],
                              has_loan=ctx["has_loan"], original_titleholder=asks_use,
                              residential_use_continues=form.residential_use.data != "no")
    sending = request.form.get("action") == "send"
    if sending and asks_use and form.residential_use.data not in ("yes", "no"):
        form.residential_use.errors = [_("Say whether the property is still your home.")]
    if not sending or form.attestation_errors() or form.residential_use.errors:
        return render_template("exemptions/changes/review.html", form=form, outcome=outcome,
                               steps=ctx["f"].trace(outcome.trace), asks_use=asks_use,
                               warning=FALSE_STATEMENT_WARNING, **ctx), 400 if sending else 200
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            row, outcome = changes.report(
                w, current_user, parcel_id, kind=form.kind.data,
                change_date=form.change_date.data, details=form.details.data or "",
                original_titleholder=form.titleholder,
                residential_use_confirmed=(form.residential_use.data == "yes"
                                           if asks_use else None),
                attested_name=form.full_name.data or "",
                language=current_language())
            number, catastro, report_id = row.number, parcel.catastro, row.id
            lang = current_language()
            mail.send(w, current_user.email, "exemption_change_filed", lang,
                      config=current_app.config, number=number, catastro=catastro,
                      kind=KIND_SHORT[form.kind.data], change_date=form.change_date.data,
                      deadline=outcome.deadline, late=outcome.late,
                      continues=outcome.exemption_continues, lender=outcome.lender_forwards,
                      steps=formats(lang).trace(outcome.trace),
                      link=external_url("exemptions.changes_confirmation",
                                        report_id=report_id))
    except (NotFound, Forbidden):
        abort(404)
    except InvalidInput:
        form.change_date.errors = [_("Check the kind and the date of the change.")]
        return render_template("exemptions/changes/new.html", form=form, **ctx), 400
    flash(_("Your report was received. We sent you an email with its number."), "success")
    return redirect(url_for("exemptions.changes_confirmation", report_id=report_id), 303)


@bp.get("/cambios/<id:report_id>", endpoint="changes_confirmation")
@login_required
def confirmation(report_id: int):  # noqa: ANN201
    with uow() as w:
        try:
            row, parcel = changes.get(w, current_user, report_id)
        except NotFound:
            abort(404)
        outcome = changes.outcome_of(row)
    f = formats()
    return render_template("exemptions/changes/confirmation.html", row=row, parcel=parcel,
                           outcome=outcome, steps=f.trace(outcome.trace), f=f,
                           kind_short=KIND_SHORT, status_labels=STATUS_LABELS,
                           pr_date=clock.legal_date)


@bp.get("/personal/cambios", endpoint="changes_staff_list")
@staff_required
def staff_list():  # noqa: ANN201
    status = request.args.get("estado") or None
    if status not in (None, "filed", "acknowledged"):
        abort(404)
    page = max(1, request.args.get("page", 1, type=int) or 1)
    with uow() as w:
        rows, total = changes.staff_list(w, current_user, status=status,
                                         offset=(page - 1) * changes.PAGE)
    pages = max(1, -(-total // changes.PAGE))
    if page > pages:
        abort(404)
    return render_template("exemptions/changes/staff.html", rows=rows, total=total,
                           status=status, page=page, pages=pages, form=ActionForm(),
                           kind_short=KIND_SHORT, status_labels=STATUS_LABELS, f=formats())


@bp.post("/personal/cambios/<id:report_id>/acuse", endpoint="changes_acknowledge")
@staff_required
def acknowledge(report_id: int):  # noqa: ANN201
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            row = changes.acknowledge(w, current_user, report_id)
            number = row.number
    except NotFound:
        abort(404)
    except Conflict:
        flash(_("That report was already acknowledged."), "info")
    else:
        flash(_("Report %(number)s acknowledged.", number=number), "success")
    return redirect(url_for("exemptions.changes_staff_list"), 303)


@bp.get("/prestamista/cambios", endpoint="changes_lender_list")
@login_required
def lender_list():  # noqa: ANN201
    if not current_user.is_lender:
        abort(404)
    with uow() as w:
        rows, total = changes.for_lender(w, current_user)
    return render_template("exemptions/changes/lender.html", rows=rows, total=total,
                           kind_short=KIND_SHORT, f=formats(), today=clock.today(),
                           form=ActionForm(), pr_date=clock.legal_date)


@bp.post("/prestamista/cambios/<id:report_id>/enviada", endpoint="changes_forward")
@login_required
def forward(report_id: int):  # noqa: ANN201
    """The lender records that it forwarded the report to the CRIM (R-B9), once."""
    if not current_user.is_lender:
        abort(404)
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            number = changes.forward(w, current_user, report_id).number
    except NotFound:
        abort(404)
    except Conflict:
        flash(_("That report was already recorded as forwarded."), "info")
    else:
        flash(_("Report %(number)s recorded as forwarded to the CRIM.", number=number),
              "success")
    return redirect(url_for("exemptions.changes_lender_list"), 303)
