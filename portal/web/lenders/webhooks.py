"""A lender's webhooks: `/prestamista/webhooks`. Any member sees the endpoints and
the delivery log (50 a page, newest first); an administrator adds an endpoint (its signing
secret shown once, on the answer to the form, never in a redirect or the session) and
removes one. The service: portal.lenders.webhooks; the sending: portal.webhooks."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from portal import clock
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.lenders import tokens as org
from portal.lenders import webhooks
from portal.web import paging
from portal.web.data import uow
from portal.web.forms import ActionForm
from portal.web.lenders import bp
from portal.web.lenders.forms import WebhookForm

PER_PAGE = 50
URL_ERRORS = {
    "url_https": lambda: _("The address must begin with https://."),
    "url_public": lambda: _("The address must be one on the internet, not a local one."),
}


def _page(form: WebhookForm | None = None, secret: str | None = None,
          status: int = 200) -> Any:
    if not current_user.is_lender:
        abort(404)
    page = paging.page_asked()
    with uow() as w:
        lender, role = org.lender_of(w, current_user)
        hooks = [{"id": h.id, "url": h.url, "events": list(h.events),
                  "created": clock.legal_date(h.created_at)}
                 for h in webhooks.endpoints(w, current_user, lender.id)]
        rows, total = webhooks.deliveries(w, current_user, lender.id,
                                          offset=(page - 1) * PER_PAGE, limit=PER_PAGE)
        log = [{"id": d.id, "event": d.event, "event_id": d.event_id, "url": url,
                "status": d.status, "attempts": d.attempts, "last_status": d.last_status,
                "last_error": d.last_error, "created": clock.legal_date(d.created_at),
                "next": d.next_attempt_at if d.status == "pending" else None}
               for d, url in rows]
    pages = max(1, -(-total // PER_PAGE))
    if page > pages:
        abort(404)
    errors = [(f"#{f.id}", e) for f in (form or []) for e in f.errors]
    return render_template("lenders/webhooks.html", role=role, hooks=hooks, log=log,
                           total=total, page=page, pages=pages, secret=secret,
                           form=form or WebhookForm(formdata=None), errors=errors), status


@bp.get("/webhooks")
@login_required
def webhooks_page():  # noqa: ANN201
    return _page()


@bp.post("/webhooks")
@login_required
def add_webhook():  # noqa: ANN201
    form = WebhookForm()
    if not form.validate_on_submit():
        return _page(form, status=400)
    events = [e for e, on in (("batch.finished", form.batch_finished.data),
                              ("certification.decided", form.certification_decided.data)) if on]
    if not events:
        form.batch_finished.errors = [_("Choose at least one event.")]
        return _page(form, status=400)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            lender, _role = org.lender_of(w, current_user)
            _hook, secret = webhooks.register(
                w, current_user, lender.id, form.url.data, events,
                allow_local=bool(current_app.config.get("WEBHOOKS_ALLOW_LOCAL")))
    except NotFound:
        abort(404)
    except Forbidden:
        abort(403)
    except InvalidInput as exc:
        form.url.errors = [URL_ERRORS.get(exc.code, lambda: _("This address is not valid."))()]
        return _page(form, status=400)
    except Conflict:
        form.url.errors = [_("Your organisation has %(n)s endpoints already: remove one first.",
                             n=webhooks.MAX_ENDPOINTS)]
        return _page(form, status=409)
    return _page(secret=secret)


def _act(change: Any, object_id: int, done: str, refused: str = "") -> Any:
    """An administrator's change (`change(uow, user, lender_id, object_id)`), then the page
    with `done` said (or `refused`, on the service's Conflict)."""
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            lender, _role = org.lender_of(w, current_user)
            change(w, current_user, lender.id, object_id)
    except NotFound:
        abort(404)
    except Forbidden:
        abort(403)
    except Conflict:
        flash(refused, "error")
        return redirect(url_for("lenders.webhooks_page"), 303)
    flash(done, "success")
    return redirect(url_for("lenders.webhooks_page"), 303)


@bp.post("/webhooks/<id:hook_id>/eliminar")
@login_required
def remove_webhook(hook_id: int):  # noqa: ANN201
    return _act(webhooks.remove, hook_id,
                _("The endpoint was removed: nothing more is sent to it."))


@bp.post("/webhooks/entregas/<id:delivery_id>/reenviar")
@login_required
def resend_webhook(delivery_id: int):  # noqa: ANN201
    """A failed delivery sent again (the worker posts it within a minute)."""
    return _act(webhooks.resend, delivery_id,
                _("The delivery will be sent again within a minute."),
                _("Only a failed delivery to an endpoint still in force is sent again."))
