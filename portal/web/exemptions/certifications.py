"""The residential-exemption certification online (J5): thin views over
`portal.exemptions`. A certification, its evidence and its receipt that the user may not
see are 404; staff pages are 404 for everyone else (`staff_required`)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

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
from markupsafe import Markup

from portal import clock, money_input
from portal.accounts import access
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound, ServiceError
from portal.core.exemption import CERTIFICATION_WARNING
from portal.core.explain import N_
from portal.documents import exemption_certification
from portal.exemptions import answers as answers_of
from portal.exemptions import cooperatives, evidence, filings, plan_defaults, plans, review
from portal.exemptions import tax_facts as facts_service
from portal.i18n import current_language, formats, money
from portal.web import upload_limits
from portal.web.data import external_url, uow
from portal.web.exemptions import bp, present
from portal.web.exemptions.evidence_response import evidence_response
from portal.web.exemptions.forms import (
    STEP_FORMS,
    DecisionForm,
    EvidenceForm,
    PlanEntryForm,
    QueueFilterForm,
    ReturnForm,
    choices,
)
from portal.web.extensions import csrf, shared_limit
from portal.web.pdf_response import pdf_response
from portal.web.staff_access import staff_required, staff_role


@bp.record_once
def _install(state) -> None:  # noqa: ANN001
    """The upload route takes one document of up to 10 MB: its request may be larger than
    the portal's default limit, and one over it is told that limit (`upload_limits`)."""
    upload_limits.register(state.app, "exemptions.upload", evidence.MAX_BYTES, "document")


ERRORS = {
    "both_spouses": N_("Spouses are both owners (R-B5): choose both."),
    "owners": N_("Choose the owners who file, from the owners on record."),
    "use": N_("Choose one answer."),
    "deed_date": N_("Enter the date of the deed."),
    "absence_reason": N_("Choose one answer."),
    "absence_sworn": N_("Check the box to make the sworn statement."),
    "rent": N_("Choose one answer."),
    "residential": N_("Choose one answer."),
    "fraction": N_("Write the fraction as a number greater than 0 and at most 1, like 0.5."),
    "residential_valuation": N_("Write the valuation in dollars and cents, like 12000.00."),
    "veteran": N_("Choose one answer."),
    "veteran_amount": N_("Write the amount in dollars and cents, like 5000.00."),
    "veteran_over_valuation": answers_of.VETERAN_OVER_VALUATION,
    "occupants_required": N_("Write who lives in the home (at least the owner)."),
    "occupants_too_long": N_("Write at most 1,000 characters."),
    "cooperative": N_("Choose one answer."),
    "unit_share": N_("Write the share as a number greater than 0 and at most 1, like 0.025."),
    "coop_election": N_("This cooperative's election of the year is not on record: choose the "
                        "one the cooperative made. It is recorded as the cooperative's for all "
                        "its units."),
    "cooperative_name": N_("Write the cooperative's name, as in its documents."),
    "plan": N_("Choose one answer."),
    "plan_payments": N_("Enter from 1 to %(most)s monthly payments."),
    "plan_first_due": N_("Choose a first payment date from today to a year from now."),
    "attest": N_("Check the box to certify the statement."),
    "full_name": N_("Type your full name as it appears among the owners on this filing."),
}
EVIDENCE_ERRORS = {
    "evidence_empty": N_("The file is empty. Choose the document again."),
    "evidence_too_large": N_("The file is larger than 10 MB. Scan it at a lower resolution "
                             "or split it, and upload it again."),
    "evidence_type": N_("Only PDF, JPEG or PNG documents are accepted; this file is none of "
                        "them, whatever its name says."),
    "evidence_corrupt": N_("The file cannot be opened: it is damaged or incomplete. Save it "
                           "again and upload it."),
    "evidence_oversized": N_("The file was not opened: it holds more than a document needs "
                             "(an image over 50 million pixels, a PDF over 300 pages or with "
                             "parts that unpack too large). Scan it at a lower resolution or "
                             "split it, and upload it again."),
    "evidence_too_many": N_("A certification takes at most 10 documents. Remove one to add "
                            "another."),
}
CONFLICTS = {
    "exemption_not_editable": N_("This certification can no longer be changed."),
    "evidence_store_unavailable": N_("The document could not be saved right now (our file "
                                     "storage is not answering). Nothing was lost: try again "
                                     "in a minute."),
    "exemption_step_not_returned": N_("Only the parts staff returned can be changed."),
    "exemption_state": N_("This certification is not in a state that allows that."),
    "exemption_incomplete": N_("Some questions are not answered yet: answer them before "
                               "filing."),
    "coop_election_differs": cooperatives.ELECTION_DIFFERS,
    "exemption_not_eligible": N_("The answers show the property does not qualify, so the "
                                 "certification cannot be filed."),
}


def _error_text(exc: InvalidInput) -> str:
    """A step's refusal in the reader's language: the one parser's own reason for a typed
    amount (`money_<code>`), else the step's message for the code or the field."""
    p = exc.params
    if exc.code.startswith("money_") and exc.code[6:] in money_input.MESSAGES:
        return money_input.MoneyInputError(exc.code[6:], **{
            k: Decimal(v) for k, v in p.items() if k == "maximum"}).message()
    maximum = money(Decimal(p["maximum"])) if p.get("maximum") else ""
    return _(ERRORS.get(exc.code if exc.code in ERRORS else p.get("field"),
                        N_("Check this answer.")), most=p.get("most", ""), maximum=maximum)


def _require_form() -> None:
    """A button's form (its CSRF token only): 400 when it does not validate."""
    if not STEP_FORMS["result"]().validate_on_submit():
        abort(400)


def _fy() -> date:
    return filings.certification_year(clock.today())


# --- owner: start, wizard, evidence, filing ------------------------------------------------

@bp.get("/propiedad/<id:parcel_id>/exoneracion")
@login_required
def start_page(parcel_id: int):  # noqa: ANN201
    with uow() as w:
        try:
            parcel, rel = access.get_parcel_and_relation(w, current_user, parcel_id)
        except NotFound:
            abort(404)
        fy = _fy()
        cert = filings.current(w, parcel.id, fy)
        has_facts = facts_service.has_facts(w, parcel.id, fy)
        if cert is not None and (cert.status != "draft" or rel == "owner"):
            if cert.status == "draft":
                return redirect(url_for("exemptions.step", cert_id=cert.id,
                                        slug=present.SLUGS[cert.step]))
            if rel != "lender" or cert.loan_id is not None:
                return redirect(url_for("exemptions.receipt", cert_id=cert.id))
    return render_template("exemptions/start.html", parcel=parcel, rel=rel, fy=fy,
                           fy_label=present.fy_label(fy), has_facts=has_facts,
                           crim_note=(present.crim_not_adopted(present.fy_label(fy))
                                      if facts_service.crim_values_missing(fy) else None),
                           form=STEP_FORMS["result"](),
                           judged_on=date(fy.year, 1, 1))


@bp.post("/propiedad/<id:parcel_id>/exoneracion")
@login_required
def start(parcel_id: int):  # noqa: ANN201
    _require_form()
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            cert = filings.start(w, current_user, parcel_id)
            step = cert.step
            cid = cert.id
    except (NotFound, Forbidden):
        abort(404)
    return redirect(url_for("exemptions.step", cert_id=cid, slug=present.SLUGS[step]), 303)


def _load_owner(w, cert_id: int):  # noqa: ANN001, ANN202
    try:
        cert, parcel = filings.get_for_owner(w, current_user, cert_id)
    except (NotFound, Forbidden):
        abort(404)
    facts = facts_service.facts_for(w, cert.parcel_id, cert.fiscal_year_start)
    return cert, parcel, facts


def _fill(form, step: str, cert, w) -> None:  # noqa: ANN001
    """Put the saved answers into a form shown by GET (back and forward keep them)."""
    a = cert.answers or {}
    if step == "owners":
        form.owners.data = a.get("owners") or [
            p for p, _n, _k in filings.owners_on_record(w, cert.parcel_id, clock.today())]
        return
    for name in form._fields:
        if name in a and name not in ("csrf_token", "submit"):
            value = a[name]
            if name in ("deed_date", "plan_first_due") and value:
                value = date.fromisoformat(value)
            form[name].data = value


def _form_for(step: str, cert, w):  # noqa: ANN001, ANN202
    form = STEP_FORMS[step]()
    if step == "owners":
        form.owners.choices = choices([(p, n) for p, n, _k in filings.owners_on_record(
            w, cert.parcel_id, clock.today())])
    return form


def _data(form, step: str) -> dict:  # noqa: ANN001
    return {k: f.data for k, f in form._fields.items() if k not in ("csrf_token", "submit")}


@bp.route("/exoneracion/<id:cert_id>/paso/<slug>", methods=["GET", "POST"])
@login_required
def step(cert_id: int, slug: str):  # noqa: ANN201
    step = present.STEP_OF_SLUG.get(slug)
    if step is None:
        abort(404)
    conflicts: list = []
    with uow() as w:
        w.info["ip"] = request.remote_addr
        cert, parcel, facts = _load_owner(w, cert_id)
        if cert.status not in filings.EDITABLE:
            return redirect(url_for("exemptions.receipt", cert_id=cert.id))
        editable = filings.editable_steps(cert, facts)
        if step not in editable:
            return redirect(url_for("exemptions.step", cert_id=cert.id,
                                    slug=present.SLUGS[editable[0]]))
        form = _form_for(step, cert, w)
        nxt = None
        if request.method == "POST" and form.validate_on_submit():
            try:
                if step == "attest":
                    with w.session.begin_nested():
                        filings.file(w, current_user, cert.id,
                                     attested=bool(form.attest.data),
                                     full_name=form.full_name.data or "",
                                     language=current_language())
                    _notify_filed(w, cert, parcel)
                    flash(_("Your certification was filed. Keep its number: %(number)s.",
                            number=cert.filing_number), "success")
                    return redirect(url_for("exemptions.receipt", cert_id=cert.id), 303)
                with w.session.begin_nested():
                    cert, nxt = filings.save_step(w, current_user, cert.id, step,
                                                  _data(form, step))
            except InvalidInput as exc:
                field = exc.params.get("field")
                target = form[field] if field in form._fields else None
                msg = _error_text(exc)
                (target.errors if target is not None else form.form_errors).append(msg)
            except Conflict as exc:
                if exc.code == "one_dwelling":
                    conflicts = exc.params.get("conflicts", [])
                    form.form_errors.append(_(
                        "An owner already holds the residential exemption, or has asked for "
                        "it, on another property this year. A person has the exemption on one "
                        "home only (R-B6)."))
                elif exc.code == "coop_election_differs" and "cooperative_name" in form._fields:
                    # shown at the name, with the cooperative's election it matched on record
                    form.cooperative_name.errors.append(_(CONFLICTS[exc.code]))
                else:
                    form.form_errors.append(_(CONFLICTS.get(exc.code,
                                                            CONFLICTS["exemption_state"])))
            else:
                if nxt is None:
                    nxt = "attest" if "attest" in editable else editable[-1]
                return redirect(url_for("exemptions.step", cert_id=cert.id,
                                        slug=present.SLUGS[nxt]), 303)
        elif request.method == "GET":
            _fill(form, step, cert, w)
        ctx = _step_context(w, cert, parcel, facts, step)
    status = 200 if request.method == "GET" or not form.errors and not form.form_errors \
        else 422
    return render_template("exemptions/step.html", cert=cert, parcel=parcel, step=step,
                           form=form, conflicts=conflicts, slugs=present.SLUGS,
                           **ctx), status


def _step_context(w, cert, parcel, facts, step: str) -> dict:  # noqa: ANN001
    editable = filings.editable_steps(cert, facts)
    prev = filings.previous(cert, facts, step)
    ctx = {
        "title": _(present.TITLES[step]), "why_asked": _(present.WHY_ASKED[step]),
        "steps": [(s, _(present.TITLES[s])) for s in editable],
        "number": editable.index(step) + 1, "of": len(editable),
        "back_url": (url_for("exemptions.step", cert_id=cert.id, slug=present.SLUGS[prev])
                     if prev else url_for("accounts.parcel", parcel_id=parcel.id)),
        "facts": facts, "fy_label": present.fy_label(cert.fiscal_year_start),
        "judged_on": date(cert.fiscal_year_start.year, 1, 1), "today": clock.today(),
        "f": formats(),
    }
    if step == "owners":
        ctx["owners"] = filings.owners_on_record(w, cert.parcel_id, clock.today())
    if step in ("debt", "result", "attest"):
        fig = filings.figures(w, cert)
        ctx["fig"] = fig
        ctx["without"], ctx["with_"] = present.bill_lines(fig)
        ctx["blocking"] = filings.blocking_reasons(fig)
        ctx["missing"] = [_(present.TITLES[s]) for s in filings.missing_steps(cert, facts)]
        from portal.core import property_tax
        ctx["plan_most"] = property_tax.plan_terms(cert.fiscal_year_start)[0]
    if step == "cooperative":  # R-B4, R-B20: the cooperative's election, when on record
        ctx["coop_on_record"] = _coop_on_record(w, cert)
    if step == "evidence":
        ctx["files"] = filings.evidence_of(w, cert)
        ctx["upload"] = EvidenceForm()
    if step == "attest":  # R-B12: every answer, read before the owner certifies them
        ctx["warning"] = [_(m) for m in CERTIFICATION_WARNING]
        ctx["answers"] = exemption_certification.answers_shown(
            cert.answers or {}, filings.owner_names(w, cert))
    if cert.status == "returned":
        ctx["returned"] = _returned(w, cert)
    return ctx


def _coop_on_record(w, cert) -> list:  # noqa: ANN001
    """The facts of the cooperative's election of the year, as the receipt states them, when
    the cooperative the owner named has one on record (the owner is then not asked)."""
    name = (request.form.get("cooperative_name") if request.method == "POST" else None) \
        or (cert.answers or {}).get("cooperative_name")
    found = cooperatives.find(w, fy=cert.fiscal_year_start, name=name) if name else None
    return exemption_certification.coop_election_facts(
        cooperatives.shown_of(w, found)) if found is not None else []


def _returned(w, cert) -> dict:  # noqa: ANN001
    events = [e for e in filings.events(w, cert) if e.to_status == "returned"]
    last = events[-1] if events else None
    return {"reasons": [_(review.REASONS[r][0]) for r in (last.reasons if last else [])
                        if r in review.REASONS],
            "note": last.note if last else ""}


@bp.post("/exoneracion/<id:cert_id>/evidencia")
@csrf.exempt  # the form below checks its CSRF token itself, after the larger limit is set
@login_required
@shared_limit("RATELIMIT_UPLOAD", key=lambda: f"exemption-upload:{current_user.get_id()}")
def upload(cert_id: int):  # noqa: ANN201
    """One document (10 MB at most) a request; uploads are counted per user apart from
    sign-in tries (RATELIMIT_UPLOAD: the 11th document in a minute is still taken)."""
    form = EvidenceForm()
    if not form.validate_on_submit():
        abort(400)
    file = form.file.data
    error = None
    with uow() as w:
        w.info["ip"] = request.remote_addr
        cert, _parcel, _facts = _load_owner(w, cert_id)
        if file is None or not getattr(file, "filename", None):
            error = _("Choose a document to upload.")
        else:
            try:
                data = file.read(evidence.MAX_BYTES + 1)
            finally:
                file.close()
            try:
                with w.session.begin_nested():
                    row = evidence.add(w, current_user, cert.id, data, file.filename)
            except InvalidInput as exc:
                error = _(EVIDENCE_ERRORS.get(exc.code, EVIDENCE_ERRORS["evidence_corrupt"]))
            except Conflict as exc:
                error = _(CONFLICTS.get(exc.code, CONFLICTS["exemption_not_editable"]))
            else:
                flash(_("%(name)s was added.", name=row.filename), "success")
    if error:  # the evidence step shows it in its error summary, linked to the file field
        flash(error, "field-error:file")
    return redirect(url_for("exemptions.step", cert_id=cert_id, slug=present.SLUGS["evidence"]),
                    303)


@bp.post("/exoneracion/<id:cert_id>/evidencia/<id:evidence_id>/quitar")
@login_required
def remove_evidence(cert_id: int, evidence_id: int):  # noqa: ANN201
    _require_form()
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            evidence.remove(w, current_user, cert_id, evidence_id)
    except (NotFound, Forbidden):
        abort(404)
    except Conflict:
        flash(_(CONFLICTS["exemption_not_editable"]), "error")
    return redirect(url_for("exemptions.step", cert_id=cert_id, slug=present.SLUGS["evidence"]),
                    303)


@bp.get("/exoneracion/<id:cert_id>/evidencia/<id:evidence_id>")
@login_required
def evidence_file(cert_id: int, evidence_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            row, data = evidence.read(w, current_user, cert_id, evidence_id)
    except (NotFound, Forbidden):
        abort(404)
    return evidence_response(row, data)


@bp.post("/exoneracion/<id:cert_id>/retirar")
@login_required
def withdraw(cert_id: int):  # noqa: ANN201
    _require_form()
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            cert = filings.withdraw(w, current_user, cert_id)
            pid = cert.parcel_id
    except (NotFound, Forbidden):
        abort(404)
    except Conflict:
        flash(_(CONFLICTS["exemption_state"]), "error")
        return redirect(url_for("exemptions.receipt", cert_id=cert_id), 303)
    flash(_("The certification was withdrawn."), "success")
    return redirect(url_for("accounts.parcel", parcel_id=pid), 303)


# --- the receipt (owner, lender, staff) -----------------------------------------------------

def _receipt_view(w, cert_id: int) -> dict:  # noqa: ANN001
    try:
        cert, parcel, rel = filings.get_for_view(w, current_user, cert_id)
    except NotFound:
        abort(404)
    if cert.status == "draft":
        abort(404)
    fig = filings.figures(w, cert)
    without, with_ = present.bill_lines(fig)
    loan = filings.loan_of(w, cert)
    owners = filings.owner_names(w, cert)
    coop = cooperatives.shown(w, cert)  # a unit filed under its cooperative's election
    return {"cert": cert, "parcel": parcel, "rel": rel, "fig": fig, "without": without,
            "with_": with_, "owners": owners, "loan": loan,
            "answers": exemption_certification.answers_shown(cert.answers or {}, owners),
            "events": filings.events(w, cert), "returned": _returned(w, cert),
            "fy_label": present.fy_label(cert.fiscal_year_start),
            "files": filings.evidence_of(w, cert), "today": clock.today(),
            "coop": exemption_certification.coop_election_facts(coop), "coop_shown": coop,
            "plan": exemption_certification.plan_view(fig, plans.plan_state(w, cert, fig)),
            "plan_default": exemption_certification.PLAN_DEFAULT,
            "status_text": present.status_label(cert.status), "f": formats()}


@bp.get("/exoneracion/<id:cert_id>/recibo")
@login_required
def receipt(cert_id: int):  # noqa: ANN201
    with uow() as w:
        v = _receipt_view(w, cert_id)
    return render_template("exemptions/receipt.html", form=STEP_FORMS["result"](), **v)


@bp.get("/exoneracion/<id:cert_id>/recibo.pdf")
@login_required
def receipt_pdf(cert_id: int):  # noqa: ANN201
    with uow() as w:
        v = _receipt_view(w, cert_id)
    lang = current_language()
    data = exemption_certification.receipt_pdf(v["cert"], v["parcel"], v["owners"], v["fig"],
                                               v["loan"][1] if v["loan"] else None, lang,
                                               v["coop_shown"])
    return pdf_response(data, exemption_certification.filename(v["cert"].filing_number, lang))


# --- emails (`portal.documents.exemption_certification`) -------------------------------------

def _notify_filed(w, cert, parcel) -> None:  # noqa: ANN001
    exemption_certification.notify_filed(
        w, cert, parcel, link=external_url("exemptions.receipt", cert_id=cert.id),
        config=current_app.config)


def _notify_decided(w, cert, parcel) -> None:  # noqa: ANN001
    exemption_certification.notify_decided(
        w, cert, parcel, link=external_url("exemptions.receipt", cert_id=cert.id),
        config=current_app.config)


# --- the lender's list ----------------------------------------------------------------------

@bp.get("/prestamista/exoneraciones")
@login_required
def lender_list():  # noqa: ANN201
    if not getattr(current_user, "is_lender", False):
        abort(404)
    page = min(max(1, request.args.get("pagina", 1, type=int) or 1), 10**6)
    with uow() as w:
        rows, total = filings.lender_certifications(
            w, current_user, offset=(page - 1) * LENDER_PAGE, limit=LENDER_PAGE)
    pages = max(1, -(-total // LENDER_PAGE))
    if page > pages:
        abort(404)
    return render_template("exemptions/lender.html", rows=rows, f=formats(),
                           status_label=present.status_label, page=page, pages=pages,
                           total=total)


#: Certifications a page of the lender's list shows.
LENDER_PAGE = 50


# --- staff ----------------------------------------------------------------------------------

@bp.get("/personal/exoneraciones")
@staff_required
def queue():  # noqa: ANN201
    form = QueueFilterForm(request.args)
    form.status.choices = choices([("", _("Any status"))] + [
        (s, present.status_label(s)) for s in review.QUEUE_STATUSES])
    with uow() as w:
        form.municipality.choices = choices([("", _("Any municipality"))] + [
            (m, m) for m in review.municipalities(w)])
        ok = form.validate()
        page = max(1, request.args.get("page", 1, type=int) or 1)
        rows, total = review.queue(
            w, current_user, status=form.status.data or None if ok else None,
            municipality=form.municipality.data or None if ok else None,
            older_than_days=form.age.data if ok else None, offset=(page - 1) * review.PAGE)
    return render_template("exemptions/queue.html", form=form, rows=rows, total=total,
                           page=page, pages=max(1, -(-total // review.PAGE)), f=formats(),
                           status_label=present.status_label), 200 if ok else 422


@bp.get("/personal/exoneraciones/<id:cert_id>")
@staff_required
def review_page(cert_id: int):  # noqa: ANN201
    return _review_page(cert_id, ReturnForm(), DecisionForm(prefix="decision"))


def _review_page(cert_id: int, return_form, decision_form, status: int = 200,  # noqa: ANN001, ANN202
                 plan_form=None):  # noqa: ANN001
    return_form.reasons.choices = choices([(k, _(v[0])) for k, v in review.REASONS.items()])
    with uow() as w:
        v = _receipt_view(w, cert_id)
        v["reviewer"] = review.reviewer_name(w, v["cert"].decided_by_id)
        v["plan_entries"] = plans.entries(w, v["cert"].id) if v["plan"] else []
        v["plan_told"] = plan_defaults.of(w, v["cert"].id) if v["plan"] else None
    if plan_form is None:
        plan_form = PlanEntryForm(prefix="plan", formdata=None,
                                  data={"kind": "payment", "entry_on": clock.today()})
    return render_template("exemptions/review.html", return_form=return_form,
                           decision_form=decision_form, take_form=STEP_FORMS["result"](),
                           plan_form=plan_form, **v), status


#: The service's refusals of a plan's entry, on the form's field (R-B16).
PLAN_ENTRY_ERRORS = {
    "future": N_("The day cannot be a day to come."),
    "before_filing": N_("The day cannot be before the certification was filed."),
    "invalid": N_("This value is not valid."),
    "duplicate": N_("This receipt of the CRIM is already recorded for the plan."),
}


@bp.post("/personal/exoneraciones/<id:cert_id>/plan")
@staff_role(*plans.RECORD)
def record_plan_entry(cert_id: int):  # noqa: ANN201
    form = PlanEntryForm(prefix="plan")
    if form.validate_on_submit():
        try:
            with uow() as w:
                plans.record_entry(w, current_user, cert_id, kind=form.kind.data,
                                   entry_on=form.entry_on.data, amount=form.amount.parsed,
                                   reference=form.reference.data or "")
        except NotFound:
            abort(404)
        except Conflict as exc:
            if exc.code == "receipt_differs":
                form.reference.errors = [_(PLAN_ENTRY_ERRORS["duplicate"])]
                return _review_page(cert_id, ReturnForm(), DecisionForm(prefix="decision"),
                                    422, plan_form=form)
            flash(_("This certification has no approved payment plan."), "error")
            return redirect(url_for("exemptions.review_page", cert_id=cert_id), 303)
        except InvalidInput as exc:
            target = getattr(form, exc.params.get("field") or "", None) or form.amount
            target.errors = [_(PLAN_ENTRY_ERRORS.get(exc.code, PLAN_ENTRY_ERRORS["invalid"]))]
        else:
            flash(_("What the CRIM reports of the plan is recorded."), "success")
            return redirect(url_for("exemptions.review_page", cert_id=cert_id)
                            + "#payment-plan", 303)
    return _review_page(cert_id, ReturnForm(), DecisionForm(prefix="decision"), 422,
                        plan_form=form)


def _staff_action(cert_id: int, action, done: str | None = None) -> object:  # noqa: ANN001
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            cert = action(w)
            if cert.status in ("approved", "returned"):
                _notify_decided(w, cert, access.get_parcel(w, current_user, cert.parcel_id))
    except NotFound:
        abort(404)
    except (Conflict, InvalidInput) as exc:
        if isinstance(exc, InvalidInput):
            raise
        flash(_(CONFLICTS["exemption_state"]), "error")
    else:
        if done:
            flash(done, "success")
    return redirect(url_for("exemptions.review_page", cert_id=cert_id), 303)


@bp.post("/personal/exoneraciones/<id:cert_id>/revisar")
@staff_role(*review.REVIEWERS)
def take_up(cert_id: int):  # noqa: ANN201
    _require_form()
    return _staff_action(cert_id, lambda w: review.take_up(w, current_user, cert_id))


@bp.post("/personal/exoneraciones/<id:cert_id>/aprobar")
@staff_role(*review.REVIEWERS)
def approve(cert_id: int):  # noqa: ANN201
    form = DecisionForm(prefix="decision")
    if not form.validate_on_submit():
        return _review_page(cert_id, ReturnForm(), form, 422)
    return _staff_action(cert_id, lambda w: review.approve(w, current_user, cert_id,
                                                           form.note.data or ""),
                         _("The certification was approved."))


@bp.post("/personal/exoneraciones/<id:cert_id>/devolver")
@staff_role(*review.REVIEWERS)
def return_to_owner(cert_id: int):  # noqa: ANN201
    form = ReturnForm()
    form.reasons.choices = choices([(k, _(v[0])) for k, v in review.REASONS.items()])
    if not form.validate_on_submit():
        return _review_page(cert_id, form, DecisionForm(prefix="decision"), 422)
    try:
        return _staff_action(cert_id, lambda w: review.return_(
            w, current_user, cert_id, list(form.reasons.data), form.note.data or ""),
            _("The certification was returned to the owner."))
    except InvalidInput:
        form.reasons.errors.append(_("Choose at least one reason."))
        return _review_page(cert_id, form, DecisionForm(prefix="decision"), 422)


def exemption_badge(status: str) -> Markup:
    """The certification's status badge (for the parcel page's section)."""
    from html import escape
    return Markup(f'<span class="portal-status portal-status--'
                  f'{present.STATUS_CSS.get(status, "pending")}">'
                  f'{escape(present.status_label(status))}</span>')


__all__ = ["ServiceError", "bp", "exemption_badge"]


@bp.record_once
def _globals(state) -> None:  # noqa: ANN001
    state.app.jinja_env.globals.update(
        exemption_badge=exemption_badge,
        status_label_ex=present.status_label, exemption_slugs=present.SLUGS)
