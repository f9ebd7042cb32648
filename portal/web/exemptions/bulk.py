"""Reviewing certifications in bulk: `/personal/exoneraciones/en-lote` filters
the queue (lender, status, municipality, a band of the amount typed, only the flagged ones)
and decides the chosen certifications at once (approve, or return with one set of reasons),
each through the single review's functions (`portal.exemptions.bulk_review`). The filer of
each decision is told as with a single one; the lenders get one digest a day
(`portal.exemptions.digest`). Any staff role reads the page; reviewers and administrators
decide (403 for the others)."""

from __future__ import annotations

from decimal import Decimal

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, RadioField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, Optional

from portal import money_input
from portal.accounts import access
from portal.accounts.errors import InvalidInput
from portal.exemptions import bulk_review, review
from portal.i18n import current_locale
from portal.web.data import uow
from portal.web.exemptions import bp, present
from portal.web.exemptions.certifications import _notify_decided
from portal.web.exemptions.forms import MultiCheckboxField, choices
from portal.web.staff_access import staff_required, staff_role

#: The query's keys (Spanish, as the staff's other filters).
FILTERS = ("prestamista", "estado", "municipio", "minimo", "maximo", "senaladas", "pagina")
#: Each flag's words (portal.core.review_flags).
FLAG_TEXTS = {
    "no_crim_facts": _l("The CRIM's facts for the year are missing: no amount can be "
                        "checked."),
    "residential_over_total": _l("The residential valuation typed is larger than the CRIM's "
                                 "whole valuation of the property."),
    "residential_far_from_crim": _l("The residential valuation typed is more than twice, or "
                                    "less than half, the CRIM's residential valuation."),
    "veteran_over_total": _l("The veterans' exemption typed is larger than the CRIM's whole "
                             "valuation of the property."),
}


class BulkFilterForm(FlaskForm):
    class Meta:
        csrf = False  # a GET filter changes nothing

    prestamista = SelectField(_l("Lender"), validators=[Optional()])
    estado = SelectField(_l("Status"), validators=[Optional()])
    municipio = SelectField(_l("Municipality"), validators=[Optional()])
    minimo = StringField(_l("Residential valuation typed: at least"),
                         validators=[Optional(), Length(max=20)])
    maximo = StringField(_l("Residential valuation typed: at most"),
                         validators=[Optional(), Length(max=20)])
    senaladas = BooleanField(_l("Only the certifications flagged as outliers"))


class BulkDecisionForm(FlaskForm):
    ids = MultiCheckboxField(_l("Certifications"), coerce=str, validators=[
        InputRequired(message=_l("Choose at least one certification."))])
    action = RadioField(_l("Decision"), validators=[
        InputRequired(message=_l("Choose approve or return."))])
    reasons = MultiCheckboxField(_l("Reasons to return them"), validators=[Optional()])
    note = TextAreaField(_l("Note (optional; the owners read it when returned)"), validators=[
        Optional(), Length(max=2000, message=_l("Write at most 2,000 characters."))])


def _filter_form(w) -> tuple[BulkFilterForm, bulk_review.Filters | None]:  # noqa: ANN001
    args = MultiDict({k: request.args.get(k, "") for k in FILTERS if request.args.get(k)})
    form = BulkFilterForm(args)
    form.prestamista.choices = [SelectChoice("", _("Any lender"))] + [
        SelectChoice(str(i), n) for i, n in bulk_review.lenders(w)]
    form.estado.choices = [SelectChoice("", _("Waiting for a decision"))] + [
        SelectChoice(s, present.status_label(s)) for s in review.QUEUE_STATUSES]
    form.municipio.choices = [SelectChoice("", _("Any municipality"))] + [
        SelectChoice(m, m) for m in review.municipalities(w)]
    ok = form.validate()
    amounts: dict[str, Decimal | None] = {}
    for name in ("minimo", "maximo"):
        text = (form[name].data or "").strip()
        amounts[name] = None
        if text:
            try:
                amounts[name] = money_input.parse(text, current_locale())
            except money_input.MoneyInputError as exc:
                form[name].errors = [*form[name].errors, exc.message()]
                ok = False
    if ok and amounts["minimo"] is not None and amounts["maximo"] is not None \
            and amounts["maximo"] < amounts["minimo"]:
        form.maximo.errors = [*form.maximo.errors, _("The most is less than the least.")]
        ok = False
    if not ok:
        return form, None
    return form, bulk_review.Filters(
        lender_id=int(form.prestamista.data) if form.prestamista.data else None,
        status=form.estado.data or None, municipality=form.municipio.data or None,
        amount_min=amounts["minimo"], amount_max=amounts["maximo"],
        flagged_only=bool(form.senaladas.data))


def _decision_form(formdata=None) -> BulkDecisionForm:  # noqa: ANN001
    form = BulkDecisionForm(formdata) if formdata is not None else BulkDecisionForm()
    form.reasons.choices = choices([(k, _(v[0])) for k, v in review.REASONS.items()])
    form.action.choices = choices([("approve", _("Approve them")),
                                   ("return", _("Return them to their owners"))])
    return form


def _page(decision: BulkDecisionForm, status: int = 200):  # noqa: ANN202
    page = max(1, min(request.args.get("pagina", 1, type=int) or 1, 10**6))
    rows, total, flagged = [], 0, 0
    with uow() as w:
        form, filters = _filter_form(w)
        if filters is not None:
            rows, total, flagged = bulk_review.queue(w, current_user, filters,
                                                     offset=(page - 1) * bulk_review.PAGE)
    pages = max(1, -(-total // bulk_review.PAGE))
    if filters is not None and page > pages:
        abort(404)
    decision.ids.choices = choices([(str(r.id), r.filing_number or str(r.id)) for r in rows])
    if request.method == "GET" and request.args.get("todas") == "1":
        decision.ids.data = [str(r.id) for r in rows]
    return render_template(
        "exemptions/bulk.html", form=form, decision=decision, rows=rows, total=total,
        flagged=flagged, page=page, pages=pages, flag_texts=FLAG_TEXTS,
        status_label=present.status_label, most=bulk_review.MOST,
        args={k: v for k, v in request.args.items() if k in FILTERS and k != "pagina"},
        page_errors=form.errors or decision.errors), 422 if form.errors else status


@bp.get("/personal/exoneraciones/en-lote")
@staff_required
def bulk_queue():  # noqa: ANN201
    return _page(_decision_form())


@bp.post("/personal/exoneraciones/en-lote")
@staff_role(*review.REVIEWERS)
def bulk_decide():  # noqa: ANN201
    form = _decision_form(request.form)
    form.ids.choices = choices([(i, i) for i in request.form.getlist("ids")])
    ok = form.validate_on_submit()
    if ok and form.action.data == "return" and not form.reasons.data:
        form.reasons.errors = [_("Choose at least one reason.")]
        ok = False
    if ok and len(form.ids.data) > bulk_review.MOST:
        form.ids.errors = [_("Choose at most %(most)s certifications at once.",
                             most=bulk_review.MOST)]
        ok = False
    if not ok:
        return _page(form, 422)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            out = bulk_review.decide(w, current_user, list(form.ids.data), form.action.data,
                                     reasons=list(form.reasons.data or []),
                                     note=form.note.data or "")
            for cert in review.decided(w, out.decided):
                _notify_decided(w, cert, access.get_parcel(w, current_user, cert.parcel_id))
    except InvalidInput:
        abort(400)
    if out.decided:
        flash(ngettext("%(num)s certification was decided.",
                       "%(num)s certifications were decided.", len(out.decided)), "success")
    if out.skipped:
        flash(ngettext("%(num)s certification could not be decided: its state changed "
                       "meanwhile. It is still on the list.",
                       "%(num)s certifications could not be decided: their state changed "
                       "meanwhile. They are still on the list.", len(out.skipped)), "error")
    return redirect(url_for("exemptions.bulk_queue", **{
        k: v for k, v in request.args.items() if k in FILTERS}), 303)
