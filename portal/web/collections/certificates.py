"""Payoff certificates (J10, R-A19). Thin: validate, call `portal.collections.certificates`, render.

- `/propiedad/<id>/certificados` (GET: the parcel's certificates and the form; POST: issue
  one), `/propiedad/<id>/certificados/<id>.pdf` (the PDF as issued): the parcel's owner or
  staff; for anyone else 404, as for a parcel one may not see.
- `/verificar` (GET with `?codigo=`, as the QR code links; POST from its form): anyone,
  without signing in; each look-up counts against the address (the service's throttle).
"""

from __future__ import annotations

from types import SimpleNamespace

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required

from portal import clock
from portal.accounts import throttle
from portal.accounts.errors import InvalidInput, NotFound
from portal.collections import certificates
from portal.documents import payoff_certificate
from portal.i18n import current_language, formats
from portal.web.collections import bp
from portal.web.collections.certificates_forms import CertificateForm, VerifyForm
from portal.web.data import external_url, uow
from portal.web.pdf_response import pdf_response


def certificate_horizon() -> SimpleNamespace:
    """The dates a certificate may hold through today (the request form's, and the parcel
    page's view model for its request)."""
    today = clock.today()
    last = certificates.last_good_through(today)
    return SimpleNamespace(today=today, last=last, days=(last - today).days)


def certificate_form(formdata=None) -> CertificateForm:  # noqa: ANN001
    """The request form with today's horizon."""
    h = certificate_horizon()
    form = CertificateForm(formdata=formdata, today=h.today, last=h.last)
    if formdata is None and form.good_through.data is None:
        form.good_through.data = h.today
    return form


def _index(parcel_id: int, form: CertificateForm, status: int = 200):  # noqa: ANN202
    try:
        with uow() as w:
            parcel, listed = certificates.listing(w, current_user, parcel_id)
    except NotFound:
        abort(404)
    return render_template("collections/certificates/index.html", parcel=parcel, listed=listed,
                           form=form, f=formats()), status


@bp.get("/propiedad/<id:parcel_id>/certificados", endpoint="certificates_index")
@login_required
def index(parcel_id: int):  # noqa: ANN201
    return _index(parcel_id, certificate_form())


@bp.post("/propiedad/<id:parcel_id>/certificados", endpoint="certificates_issue")
@login_required
def issue(parcel_id: int):  # noqa: ANN201
    form = certificate_form(request.form)
    with uow() as w:
        if not certificates.may_issue(w, current_user, parcel_id):
            abort(404)
    if not form.validate():
        return _index(parcel_id, form, 400)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            issued = certificates.issue(w, current_user, parcel_id, form.good_through.data,
                                        current_language(),
                                        external_url("collections.certificates_verify"))
            cert_id = issued.certificate.id
    except NotFound:
        abort(404)
    except InvalidInput:  # the day turned between the form's check and the service's
        form.good_through.errors = [_("Choose a date from today to %(days)s days ahead.",
                                      days=certificates.CERTIFICATE_DAYS)]
        return _index(parcel_id, form, 400)
    flash(_("Certificate issued. Its verification code is %(code)s.", code=issued.code),
          "success")
    return redirect(url_for("collections.certificates_index", parcel_id=parcel_id,
                            _anchor=f"c{cert_id}"), 303)


@bp.get("/propiedad/<id:parcel_id>/certificados/<id:certificate_id>.pdf",
        endpoint="certificates_pdf")
@login_required
def pdf(parcel_id: int, certificate_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            data, name = payoff_certificate.issued_pdf(w, current_user, parcel_id,
                                                       certificate_id)
    except NotFound:
        abort(404)
    return pdf_response(data, name)


@bp.route("/verificar", methods=["GET", "POST"], endpoint="certificates_verify")
def verify():  # noqa: ANN201
    form = VerifyForm()
    typed = None
    if request.method == "POST":
        if form.validate_on_submit():
            typed = form.code.data
    elif request.args.get("codigo"):
        typed = request.args.get("codigo", "")[:60]
        form.code.data = typed
    if typed is None:
        status = 400 if request.method == "POST" else 200
        return render_template("collections/certificates/verify.html", form=form, result=None,
                               looked=False, f=formats()), status
    try:
        with uow() as w:
            result = certificates.verify(w, typed, request.remote_addr)
    except throttle.Throttled as exc:
        minutes = max(1, (int(exc.params.get("retry_after", 900)) + 59) // 60)
        form.code.errors = [ngettext(
            "Too many codes checked from here. Try again in %(num)d minute.",
            "Too many codes checked from here. Try again in %(num)d minutes.", minutes)]
        return render_template("collections/certificates/verify.html", form=form, result=None,
                               looked=False, f=formats()), 429
    if result is None:  # an error like any other: in the summary, the field marked invalid
        form.code.errors = [_("No certificate has that code"), _(
            "Check the code on the certificate and type it again: it has 28 letters and "
            "numbers, in groups of four.")]
    return render_template("collections/certificates/verify.html", form=form, result=result,
                           looked=True, f=formats()), 200 if result is not None else 404
