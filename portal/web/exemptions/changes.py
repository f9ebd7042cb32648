"""Change reports of the residential exemption (J6; R-B5, R-B9, R-B12).

Thin: validate with WTForms, call `portal.exemptions.changes`, render. The owner's
form has two steps that work without JavaScript: what changed and when, then what follows
(the deadline, the days left, the consequences, from the core) and "send". A spouse's death
with an original titleholder asks only to confirm the home is still used as such (R-B5).
A parcel the user may not see, or may see without owning it, answers 404.
"""

from __future__ import annotations

from datetime import date

from flask import (
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required

from portal import clock, mail
from portal.accounts import access, policy
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.core.explain import N_
from portal.exemptions import changes as changes
from portal.exemptions import evidence
from portal.i18n import current_language, formats, use_language
from portal.web import upload_limits
from portal.web.data import external_url, uow
from portal.web.exemptions import bp
from portal.web.exemptions.certifications import EVIDENCE_ERRORS
from portal.web.exemptions.change_forms import (
    KIND_HINTS,
    KIND_LABELS,
    KIND_SHORT,
    ChangeForm,
)
from portal.web.exemptions.evidence_response import evidence_response
from portal.web.exemptions.forms import EvidenceForm
from portal.web.exemptions.present import fy_label
from portal.web.extensions import csrf, shared_limit
from portal.web.forms import ActionForm
from portal.web.staff_access import staff_required

STATUS_LABELS = {"filed": N_("Received"), "acknowledged": N_("Acknowledged by staff")}
DECISION_LABELS = {"revoked": N_("The exemption was revoked"),
                   "continues": N_("The exemption continues")}
CHANGE_EVIDENCE_ERRORS = {
    **EVIDENCE_ERRORS,
    "evidence_too_many": N_("A change report takes at most 10 documents."),
}
CONFLICTS = {
    "change_acknowledged": N_("Staff already acknowledged this report: documents can no "
                              "longer be added to it."),
    "evidence_store_unavailable": N_("The document could not be saved right now (our file "
                                     "storage is not answering). Nothing was lost: try again "
                                     "in a minute."),
    "already_acknowledged": N_("That report was already acknowledged."),
    "exemption_continues": N_("After this change the exemption continues (a surviving spouse "
                              "named on the certification, R-B19): it cannot be revoked on "
                              "this report."),
    "no_exemption": N_("This parcel has no approved exemption to revoke."),
}


@bp.record_once
def _install(state) -> None:  # noqa: ANN001
    """The change report's upload takes one document of up to 10 MB (`upload_limits`)."""
    upload_limits.register(state.app, "exemptions.changes_upload", evidence.MAX_BYTES,
                           "document")


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
            "kinds": KIND_LABELS, "kind_short": KIND_SHORT, "kind_hints": KIND_HINTS,
            "f": formats()}


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
                               warning=ctx["f"].trace(outcome.warning), **ctx), \
            400 if sending else 200
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
                      warning=formats(lang).trace(outcome.warning),
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
    """The report as its owner, the lender that forwards it and staff see it: what follows,
    the R-B12 warning, its documents, and, once acknowledged, what staff decided (the
    revocation and the fiscal years it affects). A reviewer decides here."""
    with uow() as w:
        try:
            row, parcel = changes.get(w, current_user, report_id)
        except NotFound:
            abort(404)
        outcome = changes.outcome_of(row)
        files = changes.evidence_of(w, row)
        revoked = changes.revoked_by(w, row)
        rv = changes.revocation_of(revoked, row) if revoked is not None else None
        relation = access.relation(w, current_user, parcel.id)
        reviewer = row.status == "filed" and access.has_staff_role(current_user,
                                                                   *access.REVIEW)
        to_revoke = changes.exemption_to_revoke(w, parcel.id) if reviewer else None
    f = formats()
    may_upload = row.status == "filed" and policy.allows(current_user, policy.REPORT_CHANGE,
                                                         relation)
    return render_template("exemptions/changes/confirmation.html", row=row, parcel=parcel,
                           outcome=outcome, steps=f.trace(outcome.trace),
                           warning=f.trace(outcome.warning), f=f, files=files,
                           may_upload=may_upload, upload=EvidenceForm(), reviewer=reviewer,
                           to_revoke=to_revoke, revoked=revoked,
                           revocation=f.trace(rv.trace) if rv else None,
                           fy_label=fy_label, kind_short=KIND_SHORT,
                           status_labels=STATUS_LABELS, decision_labels=DECISION_LABELS,
                           form=ActionForm(), pr_date=clock.legal_date)


@bp.post("/cambios/<id:report_id>/evidencia", endpoint="changes_upload")
@csrf.exempt  # the form below checks its CSRF token itself, after the larger limit is set
@login_required
@shared_limit("RATELIMIT_UPLOAD", key=lambda: f"exemption-upload:{current_user.get_id()}")
def upload(report_id: int):  # noqa: ANN201
    """One document (10 MB at most) for a report not yet acknowledged (R-B17)."""
    form = EvidenceForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        with uow() as w:
            changes.report_for_evidence(w, current_user, report_id)
    except NotFound:
        abort(404)
    file = form.file.data
    error = None
    if file is None or not getattr(file, "filename", None):
        error = _("Choose a document to upload.")
    else:
        try:
            data = file.read(evidence.MAX_BYTES + 1)
        finally:
            file.close()
        try:
            with uow() as w:
                w.info["ip"] = request.remote_addr
                ev = changes.add_evidence(w, current_user, report_id, data, file.filename)
                name = ev.filename
        except NotFound:
            abort(404)
        except InvalidInput as exc:
            error = _(CHANGE_EVIDENCE_ERRORS.get(exc.code,
                                                 CHANGE_EVIDENCE_ERRORS["evidence_corrupt"]))
        except Conflict as exc:
            error = _(CONFLICTS.get(exc.code, CONFLICTS["change_acknowledged"]))
        else:
            flash(_("%(name)s was added.", name=name), "success")
    if error:  # the report's page shows it in its error summary, linked to the file field
        flash(error, "field-error:file")
    return redirect(url_for("exemptions.changes_confirmation", report_id=report_id), 303)


@bp.get("/cambios/<id:report_id>/evidencia/<id:evidence_id>", endpoint="changes_evidence_file")
@login_required
def evidence_file(report_id: int, evidence_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            ev, data = changes.read_evidence(w, current_user, report_id, evidence_id)
    except (NotFound, Forbidden):
        abort(404)
    return evidence_response(ev, data)


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
                           kind_short=KIND_SHORT, status_labels=STATUS_LABELS,
                           decision_labels=DECISION_LABELS, f=formats())


@bp.post("/personal/cambios/<id:report_id>/acuse", endpoint="changes_acknowledge")
@staff_required
def acknowledge(report_id: int):  # noqa: ANN201
    """A reviewer acknowledges a report, saying whether the change ends the exemption
    (`decision`: "revoked" or "continues"); a revocation tells the owner and the lender's
    users by email, each in their language (R-B13, R-B15, R-B18)."""
    if not ActionForm().validate_on_submit():
        abort(400)
    decision = request.form.get("decision", "continues")
    if decision not in ("revoked", "continues"):
        abort(400)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            done = changes.acknowledge(w, current_user, report_id,
                                       revoke=decision == "revoked")
            number = done.report.number
            if done.certification is not None:
                _notify_revoked(w, done)
    except NotFound:
        abort(404)
    except Forbidden:
        abort(403)  # staff without the reviewer's role
    except Conflict as exc:
        flash(_(CONFLICTS.get(exc.code, CONFLICTS["already_acknowledged"])), "info")
    else:
        if decision == "revoked":
            flash(_("Report %(number)s acknowledged; the exemption was revoked and the owner "
                    "told.", number=number), "success")
        else:
            flash(_("Report %(number)s acknowledged.", number=number), "success")
    return redirect(url_for("exemptions.changes_confirmation", report_id=report_id), 303)


def _notify_revoked(w, done: changes.Acknowledged) -> None:  # noqa: ANN001
    """The owner (the reporter) and the users of the lender servicing the loan: one email
    each, in their language, queued in the acknowledgement's unit of work."""
    row, cert, rv = done.report, done.certification, done.revocation
    owner, lenders = changes.contacts(w, row)
    common = {"number": row.number, "catastro": done.catastro,
              "certification": cert.filing_number or str(cert.id),
              "first": fy_label(cert.revoked_from), "last": fy_label(cert.revoked_through),
              "years": [fy_label(date(y, 7, 1)) for y in rv.fiscal_years]}
    for to, lender, link in (
            [(owner, False, external_url("exemptions.changes_confirmation", report_id=row.id))]
            if owner else []) + [(c, True, external_url("exemptions.changes_lender_list"))
                                 for c in lenders]:
        email, lang = to
        with use_language(lang):
            steps = formats(lang).trace(rv.trace)
        mail.send(w, email, "exemption_revoked", lang, config=current_app.config,
                  lender=lender, steps=steps, link=link, **common)


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
