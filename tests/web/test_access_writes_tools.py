"""The owners' and banks' own tools, walked as every other role on the
owner's parcel and the bank's objects: autopay (enrol, save a method, cancel), the test
card page of the owner's setup, a relative's reminders (add, remove), the bank's webhooks
(add, remove, send again) and staff's bulk review. Each is refused (anonymous: sent to sign
in; anyone else 403 or 404) and no row of these tools, nor of the guarded tables, changes.
`tests/web/test_access_writes.py` declares these routes walked here.
"""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import func, select

from tests.support.hostile import fingerprint
from tests.support.pages import csrf_token, login
from tests.web.test_access_writes import DELEGATE, _ids

ROLES = ("anonymous", "owner", "lessee", "lender", "staff", "other", "delegate")
#: The tools' tables: none may change when someone else posts.
TABLES = ("payment_method_setups", "saved_payment_methods", "autopay_enrolments",
          "rem_relatives", "lender_webhooks", "webhook_deliveries",
          "exemption_certifications", "exemption_events")


def _rows(app: Flask) -> dict:
    from sqlalchemy import table

    from portal.db import UnitOfWork
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        counts = {t: w.session.scalar(select(func.count()).select_from(table(t)))
                  for t in TABLES}
        from portal.models import LenderWebhook, ReminderRelative
        counts["relatives stopped"] = w.session.scalar(
            select(func.count()).where(ReminderRelative.stopped_at.is_not(None)))
        counts["webhooks revoked"] = w.session.scalar(
            select(func.count()).where(LenderWebhook.revoked_at.is_not(None)))
        return {**counts, **fingerprint(app)}


@pytest.fixture
def tools(demo_app: Flask):  # noqa: ANN201
    """The owner's parcel with a relative on it and a test setup started by the owner; a
    webhook of the bank's, with one delivery."""
    from portal.db import UnitOfWork
    from portal.models import Lender, LenderWebhook, PartyMember, ReminderRelative, WebhookDelivery
    from portal.people import users
    from portal.web.data import database
    from tests.support.pages import ROLES as EMAILS
    ids = _ids(demo_app)
    pid = ids["parcel"]
    owner = login(demo_app, "owner")
    tok = csrf_token(owner.get(f"/propiedad/{pid}/pago-automatico").get_data(as_text=True))
    r = owner.post(f"/propiedad/{pid}/pago-automatico/metodo", data={"csrf_token": tok})
    assert r.status_code == 303 and "/pagos/prueba/metodo/" in r.headers["Location"], r.text
    setup = r.headers["Location"]
    page = owner.get(f"/propiedad/{pid}/pago-automatico").get_data(as_text=True)
    r = owner.post(f"/propiedad/{pid}/recordatorios/familiares",
                   data={"csrf_token": csrf_token(page), "email": "tia@example.com",
                         "language": "es"})
    assert r.status_code == 303, r.text[:400]
    with demo_app.app_context(), UnitOfWork(database()) as w:
        relative = w.session.scalars(select(ReminderRelative.id).where(
            ReminderRelative.parcel_id == pid)).first()
        lender_user = users.find_by_email(w, EMAILS["lender"])
        lender_id = w.session.scalar(
            select(Lender.id).join(PartyMember, PartyMember.party_id == Lender.party_id)
            .where(PartyMember.user_id == lender_user.id))
        hook = LenderWebhook(lender_id=lender_id, url="https://hooks.example.com/portal",
                             secret="whsec_test", events=["batch.finished"],
                             created_by_id=lender_user.id)
        w.session.add(hook)
        w.session.flush()
        from portal import clock
        delivery = WebhookDelivery(webhook_id=hook.id, lender_id=lender_id, event_id="evt_t1",
                                   event="batch.finished", payload={}, status="failed",
                                   attempts=6, next_attempt_at=clock.now())
        w.session.add(delivery)
        w.session.flush()
        hook_id, delivery_id = hook.id, delivery.id
    return demo_app, {"parcel": pid, "setup": setup, "relative": relative,
                      "hook": hook_id, "delivery": delivery_id}


@pytest.mark.parametrize("role", [r for r in ROLES if r != "owner"])
def test_no_one_else_uses_the_owners_or_the_banks_tools(tools, role):
    app, ids = tools
    client = (app.test_client() if role == "anonymous"
              else login(app, DELEGATE if role == "delegate" else role))
    tok = csrf_token(client.get("/cuenta/entrar" if role == "anonymous" else "/")
                     .get_data(as_text=True))
    pid = ids["parcel"]
    before = _rows(app)
    problems = []

    def check(what: str, path: str, **data: str) -> None:
        r = client.post(path, data={"csrf_token": tok, **data})
        refused = (r.status_code == 302 and "/cuenta/entrar" in r.headers["Location"]
                   if role == "anonymous" else r.status_code in (403, 404))
        if not refused:
            problems.append(f"{what}: {r.status_code} {r.headers.get('Location', '')}")
        now = _rows(app)
        changed = [t for t in now if now[t] != before[t]]
        if changed:
            problems.append(f"{what} changed {changed}")

    check("enrol in autopay", f"/propiedad/{pid}/pago-automatico", method="1",
          plan="installments")
    check("save a method for autopay", f"/propiedad/{pid}/pago-automatico/metodo")
    check("cancel autopay", f"/propiedad/{pid}/pago-automatico/cancelar")
    for outcome in ("card_succeeds", "bank_succeeds", "cancel"):
        check(f"the owner's test setup: {outcome}", ids["setup"], outcome=outcome)
    check("add a relative", f"/propiedad/{pid}/recordatorios/familiares",
          email="primo@example.com", language="en")
    check("remove the owner's relative",
          f"/propiedad/{pid}/recordatorios/familiares/{ids['relative']}/quitar")
    if role != "lender":
        check("add a webhook", "/prestamista/webhooks", url="https://evil.example.com/h",
              events="batch.finished")
        check("remove the bank's webhook", f"/prestamista/webhooks/{ids['hook']}/eliminar")
        check("send a delivery again",
              f"/prestamista/webhooks/entregas/{ids['delivery']}/reenviar")
    if role != "staff":
        check("decide in bulk", "/personal/exoneraciones/en-lote", action="approve",
              ids="1")
    assert not problems, "\n".join(problems)


def test_the_owner_still_uses_them(tools):
    app, ids = tools
    owner = login(app, "owner")
    page = owner.get(ids["setup"])
    assert page.status_code == 200
    tok = csrf_token(page.get_data(as_text=True))
    r = owner.post(ids["setup"], data={"csrf_token": tok, "outcome": "cancel"})
    assert r.status_code == 303
    before = _rows(app)
    r = owner.post(f"/propiedad/{ids['parcel']}/recordatorios/familiares/"
                   f"{ids['relative']}/quitar", data={"csrf_token": tok})
    assert r.status_code == 303
    assert _rows(app)["relatives stopped"] == before["relatives stopped"] + 1
