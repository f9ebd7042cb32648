"""The lender's webhook delivery log through the API: each event sent to each of
its endpoints, newest first, 50 a page (portal.lenders.webhooks; the sending:
portal.webhooks).

    GET /api/v1/webhook-deliveries?page=&status=
"""

from __future__ import annotations

from flask import g, jsonify

from portal.lenders import tokens, webhooks
from portal.web.data import uow
from portal.web.lenders_api import bp, schemas
from portal.web.lenders_api.answers import next_link, parameters

PER_PAGE = 50


@bp.get("/webhook-deliveries")
def webhook_deliveries():  # noqa: ANN201
    p = parameters(schemas.DeliveriesQuery)
    if not isinstance(p, schemas.DeliveriesQuery):
        return p
    with uow() as w:
        tok = tokens.authenticated(w, g.token_id)
        rows, total = webhooks.deliveries(w, tok, tok.lender_id, status=p.status or None,
                                          offset=(p.page - 1) * PER_PAGE, limit=PER_PAGE)
        items = [{"event_id": d.event_id, "event": d.event, "url": url, "status": d.status,
                  "attempts": d.attempts, "last_status": d.last_status,
                  "last_error": d.last_error, "created_at": d.created_at.isoformat(),
                  "delivered_at": d.delivered_at.isoformat() if d.delivered_at else None,
                  "next_attempt_at": d.next_attempt_at.isoformat()
                  if d.status == "pending" else None}
                 for d, url in rows]
    pages = max(1, -(-total // PER_PAGE))
    return jsonify({"page": p.page, "pages": pages, "total": total,
                    "next": next_link(p.page, pages), "items": items})
