"""Every state-changing route, as every role, on someone else's object: refused (403 or 404;
the pay form's 400 "not one you can pay") and no guarded row changed (DESIGN.md 6).

The objects, on the demo District: a parcel of the owner that the bank lends on (a read-only
delegate is added to it), the owner's two test checkouts on it (one pending, one a bank debit
processing), the owner's own access link, the lessee's Authority parcel. Each role is walked
against what is not theirs: the owner against the lessee's parcel, everyone else against the
owner's. Staff manage every parcel and record office payments and refunds (theirs to do), but
may not act on a payer's checkout. The sign-in routes (`auth.*`) and the language switch act
only on the signed-in user's own account or session, or on a token sent by email.
A new POST route fails `test_every_post_route_is_walked` until it is walked here.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.support.demo import filed_exemption
from tests.support.hostile import fingerprint
from tests.support.pages import ROLES as EMAILS
from tests.support.pages import csrf_token, login

ROLES = ("anonymous", "owner", "lessee", "lender", "staff", "other", "delegate")
DELEGATE = "user00002@demo.pr"
WALKED = {"accounts.claim", "accounts.grant", "accounts.revoke", "accounts.revoke_email",
          "payments.review",
          "payments.confirm", "payments.sandbox", "payments.sandbox_bank", "payments.office",
          "payments.refund", "payments.webhook", "roll.compute_roll", "roll.publish_roll",
          "people.reset_two_factor", "collections.certificates_issue",
          "collections.certificates_verify", "collections.attachments_record_notice",
          "collections.attachments_record_auction", "collections.attachments_record_result",
          "collections.attachments_record_paid", "collections.attachments_record_deposit_order",
          "collections.attachments_lift_deposit_order", "collections.attachments_record_accrual",
          "exemptions.start", "exemptions.step", "exemptions.upload", "exemptions.remove_evidence",
          "exemptions.withdraw", "exemptions.take_up", "exemptions.approve",
          "exemptions.record_plan_entry",
          "exemptions.return_to_owner",
          "collections.start_run", "collections.record_mailings", "collections.record_mailing",
          "collections.record_receipt", "collections.record_claim",
          "collections.correct_mailing",
          "exemptions.changes_new", "exemptions.changes_acknowledge", "exemptions.changes_forward",
          "exemptions.changes_upload",
          "roll.budget_new", "roll.budget_edit", "roll.budget_adopt", "roll.budget_amend",
          "roll.budget_discard", "people.set_role", "roll.roll_import_upload",
          "roll.parameter_edit",
          "roll.roll_import_start", "roll.send_roll_notices"}
OWN_ONLY = {"accounts.language"}  # and every route under /cuenta/ (one's own account)
#: J7: the lenders' POST routes are walked as every other role on the bank's own objects in
#: tests/web/test_lender_api.py (test_the_lenders_posts_refuse_everyone_else); accepting an
#: invitation acts only with the emailed secret for the invited email (404 otherwise, tested
#: there too).
WALKED |= {"lenders.pay_filtered", "lenders.pay_file", "lenders.invite", "lenders.withdraw",
           "lenders.remove", "lenders.set_role", "lenders.create_token", "lenders.revoke_token"}
OWN_ONLY |= {"lenders.invitation"}
#: J7: the bulk certifications' upload, walked as every other role (404, no batch written)
#: and as another lender (its own batch, none of these loans filed) in
#: tests/web/test_lender_batches.py (test_only_the_lenders_members_upload_or_see_a_batch).
WALKED |= {"lenders.batch_upload"}
#: The lender's form of one certification, walked as every other role (404, no batch
#: written) in tests/web/test_lender_certification_form.py (test_no_one_else_files_one).
WALKED |= {"lenders.certification_one_file"}
#: J7: the API's POST routes take a Bearer token only: walked with every role's session (401)
#: and with another lender's token (404) in tests/web/test_lender_api_batches.py.
WALKED |= {"lenders_api.submit_batch", "lenders_api.report_acquisition"}
#: the portfolio kept by the bank and its bill file, walked as every other role and
#: another bank's administrator (404, nothing written) in tests/web/test_lender_portfolio_web.py
#: (test_no_one_else_posts); the API's in tests/web/test_lender_api_portfolio.py.
WALKED |= {"lenders.portfolio_change", "lenders.portfolio_upload", "lenders.bill_make",
           "lenders.bill_pay", "lenders.bill_payment_confirm",
           "lenders_api.submit_loan_changes", "lenders_api.make_bill_file"}
#: J7, R-B10 (iii): a loan's acquisition and intents to pay, walked as every other role (and
#: another bank's clerk) in tests/web/test_lender_intents.py (test_no_one_else_touches_the_loan).
WALKED |= {"lenders.report_acquisition", "lenders.mark_intents", "lenders.withdraw_intent"}
#: An adopted budget's date corrected (staff administrators only: `staff_role`), walked in
#: tests/web/test_budget_adoption_date.py.
WALKED |= {"roll.budget_adoption_date"}
#: R-B16: the CRIM's file of plan payments, uploaded by reviewers or sent with a staff token,
#: walked as every other role and with every session on the API (nothing recorded) in
#: tests/web/test_plan_file.py (test_no_one_else_sends_the_crims_file).
WALKED |= {"exemptions.plan_file_upload", "crim_api.plan_payments"}
#: R-B4: a cooperative's election corrected (reviewers and administrators: `staff_role`),
#: walked as anonymous, every person and the other staff roles (nothing recorded) in
#: tests/web/test_coop_election_corrections.py.
WALKED |= {"exemptions.coop_election_correct"}
#: A failed email queued again (staff only), walked as an owner and anonymous in
#: tests/web/test_mail_queue_page.py.
WALKED |= {"jobs.mail_retry"}
#: The owners' and banks' tools: autopay, the test card page of an owner's setup, a
#: relative's reminders,
#: the bank's webhooks and staff's bulk review, walked as every other role in
#: tests/web/test_access_writes_tools.py.
WALKED |= {"payments.autopay", "payments.autopay_add_method", "payments.autopay_cancel",
           "payments.sandbox_setup", "reminders.add_relative", "reminders.remove_relative",
           "lenders.add_webhook", "lenders.remove_webhook", "lenders.resend_webhook",
           "exemptions.bulk_decide"}
#: A report's fresh snapshot asked for (staff only: a job queued), walked as anonymous and
#: every person (404 or the sign-in page, no job) in tests/web/test_backoffice_pages.py.
WALKED |= {"backoffice.report_refresh"}
#: Paying without an account acts only with a parcel's code or the notice's signed link,
#: and its session opens nothing else (tests/web/test_guest_pay.py); a relative confirms and
#: anyone unsubscribes only with the emailed secret (tests/web/test_reminders_pages.py).
OWN_ONLY |= {"payments.guest_start", "payments.guest_review", "payments.guest_confirm",
             "payments.guest_end", "reminders.confirm", "reminders.unsubscribe"}
#: Anyone stops an account's emailed notices only with its signed one-click link (a forged
#: one: 404, nothing changed; tests/web/test_notice_unsubscribe.py).
OWN_ONLY |= {"accounts.notices_unsubscribe"}


def test_every_post_route_is_walked(app: Flask):
    posts = {r.endpoint for r in app.url_map.iter_rules() if "POST" in (r.methods or ())
             and not r.rule.startswith("/cuenta/")}  # one's own account's (people.sign_in...)
    unwalked = posts - WALKED - OWN_ONLY
    assert unwalked == set(), "walk the new POST routes in tests/web/test_access_writes.py"


def _ids(app: Flask) -> dict:
    from portal.accounts import access, parcels
    from portal.db import UnitOfWork
    from portal.models import ParcelLink
    from portal.people import users
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        who = {role: users.find_by_email(w, email) for role, email in EMAILS.items()}
        seen = {role: {p.id for p, _ in access.linked_parcels(w, u)} for role, u in who.items()}
        lent = sorted(seen["owner"] & seen["lender"]) or sorted(seen["owner"])
        pid = lent[0]
        [leased] = sorted(seen["lessee"] - seen["owner"])[:1]
        parcels.grant(w, who["owner"], pid, DELEGATE)
        owner_link = w.session.scalars(ParcelLink.__table__.select().with_only_columns(
            ParcelLink.id).where(ParcelLink.parcel_id == pid,
                                 ParcelLink.user_id == who["owner"].id)).first()
        fy_keys = {}
        from portal.payments import service
        for p, rel in ((pid, "owner"), (leased, "lessee")):
            accounts = service.payable_accounts(w, who[rel], parcel_id=p)
            fy_keys[p] = accounts[-1].key
        catastro = access.get_parcel(w, who["staff"], pid).catastro
    return {"parcel": pid, "leased": leased, "owner_link": owner_link, "keys": fy_keys,
            "catastro": catastro}


def _start(client, tok, key, amount):  # noqa: ANN001, ANN202
    """A test checkout of `amount` on the account, as the signed-in payer: its page."""
    data = {"csrf_token": tok, f"choice-{key}": "amount", f"amount-{key}": amount}
    review = client.post("/pagar/revisar", data=data)
    assert review.status_code == 200, review.text[:400]
    expected = re.search(r'name="expected_total" value="([^"]+)"', review.text).group(1)
    r = client.post("/pagar/confirmar", data={**data, "expected_total": expected})
    assert r.status_code == 303 and "/pagos/prueba/" in r.headers["Location"], r.text[:400]
    return r.headers["Location"]


@pytest.fixture
def scene(demo_app: Flask):  # noqa: ANN201
    ids = _ids(demo_app)
    owner = login(demo_app, "owner")
    tok = csrf_token(owner.get("/").get_data(as_text=True))
    key = ids["keys"][ids["parcel"]]
    pending = _start(owner, tok, key, "10")
    processing = _start(owner, tok, key, "11")
    assert owner.post(processing, data={"csrf_token": tok, "outcome": "bank_processing"}
                      ).status_code == 303
    ids.update(pending=pending, processing=processing)
    return demo_app, ids


def _client(app: Flask, role: str):  # noqa: ANN202
    if role == "anonymous":
        return app.test_client()
    return login(app, DELEGATE if role == "delegate" else role)


def _certificates(app: Flask) -> int:
    """How many payoff certificates were issued (not among the fingerprint's tables)."""
    from sqlalchemy import func, select

    from portal.db import UnitOfWork
    from portal.models import DebtCertificate
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(DebtCertificate))


def _exemption_rows(app: Flask) -> tuple[int, ...]:
    from sqlalchemy import func, select

    from portal.db import UnitOfWork
    from portal.models import (
        ExemptionCertification,
        ExemptionEvent,
        ExemptionEvidence,
        PlanEntry,
    )
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        statuses = tuple(w.session.scalars(select(ExemptionCertification.status)
                                           .order_by(ExemptionCertification.id)))
        return (*statuses, *(w.session.scalar(select(func.count()).select_from(m))
                             for m in (ExemptionCertification, ExemptionEvent,
                                       ExemptionEvidence, PlanEntry)))


def _refused(r, role: str, expected: int = 404) -> bool:  # noqa: ANN001
    """Anonymous: sent to sign in. Anyone else: `expected`, 404 unless said otherwise (what
    one may not see is not there)."""
    if role == "anonymous":
        return r.status_code == 302 and "/cuenta/entrar" in r.headers["Location"]
    return r.status_code == expected


@pytest.mark.parametrize("role", ROLES)
def test_no_role_writes_to_someone_elses_object(scene, role):
    app, ids = scene
    client = _client(app, role)
    tok = csrf_token(client.get("/cuenta/entrar" if role == "anonymous" else "/")
                     .get_data(as_text=True))
    theirs = ids["leased"] if role == "owner" else ids["parcel"]
    key = ids["keys"][theirs]
    before = fingerprint(app)
    problems = []

    def check(what, r, expected=404, counted=()):  # noqa: ANN001, ANN202
        if not _refused(r, role, expected):
            problems.append(f"{what}: {r.status_code}")
        now = fingerprint(app)
        changed = [t for t in now if now[t] != before[t] and t not in counted]
        if changed:
            problems.append(f"{what} changed {changed}")

    post = lambda path, **data: client.post(path, data={"csrf_token": tok, **data})  # noqa: E731
    if role != "owner":  # the payer's own checkouts: nobody else acts on them
        # (those who may see the payment, its receipt, are refused: 403; the others are
        # not shown it: 404)
        seen = 403 if role in ("lender", "staff", "delegate") else 404
        for outcome in ("card_declined", "card_succeeds", "bank_processing", "cancel"):
            check(f"sandbox {outcome}", post(ids["pending"], outcome=outcome), seen)
        for result in ("fail", "settle"):
            check(f"bank {result}", post(ids["processing"] + "/banco", result=result), seen)
    if role != "staff":  # staff manage every parcel's access, and record at the office
        check("grant", post(f"/propiedad/{theirs}/acceso", email="nobody@example.com"))
        check("grant a known user", post(f"/propiedad/{theirs}/acceso", email=DELEGATE))
        if role != "owner":
            check("revoke", post(f"/propiedad/{ids['parcel']}/acceso/{ids['owner_link']}"
                                 "/quitar"))
            check("revoke by email", post(f"/propiedad/{ids['parcel']}/acceso/quitar",
                                          email=DELEGATE))
        check("office", post(f"/personal/pagos/oficina/{theirs}", account=key, amount="5",
                             method="cash", payer_name="X"))
        check("refund", post(f"/personal/pagos/reembolso/{theirs}", account=key,
                             amount="1"))
        # The roll's jobs are staff's (the demo's version 1 and its roll): nobody else
        # starts one (tests/web/test_staff_roll.py: and no job is recorded).
        check("compute the roll", post("/personal/tasacion/version/1/calcular"))
        check("publish the roll", post("/personal/tasacion/1/publicar"))
        check("send the roll's notices", post("/personal/tasacion/1/avisos/enviar"))
        # Nobody but staff turns off someone's two-factor sign-in (the demo's staff member).
        check("reset two-factor", post("/personal/persona/1/dos-pasos/restablecer",
                                       reason="x", checked="y"))
        # A payoff certificate is the owner's or staff's to ask for (R-A19): nobody else
        # issues one (tests/web/test_certificates.py).
        issued = _certificates(app)
        check("payoff certificate", post(f"/propiedad/{theirs}/certificados",
                                         good_through="2026-12-05"))
        if _certificates(app) != issued:
            problems.append("payoff certificate: one was issued")
        # Attachments, auctions and deposit orders are staff's to record (R-C1–R-C8, R-A14;
        # tests/web/test_attachment_pages.py): 404 for everyone else, nothing written.
        for path, data in ((f"/personal/embargos/propiedad/{theirs}/aviso",
                            {"fiscal_years": "2024", "taxes": "10", "delivery": "personal",
                             "notified_on": "2026-11-02"}),
                           (f"/personal/embargos/propiedad/{theirs}/subasta",
                            {"s-fiscal_years": "2024", "s-taxes": "10", "s-real_value": "1",
                             "s-mortgage_amount": "0", "s-appraised_on": "2026-11-02",
                             "s-auction_number": "1"}),
                           ("/personal/embargos/subasta/1/resultado",
                            {"a1-held_on": "2026-11-20", "a1-bids": "0"}),
                           ("/personal/embargos/deuda/1/pagada", {"d1-paid_on": "2026-11-20"}),
                           (f"/personal/embargos/propiedad/{ids['leased']}/orden-deposito",
                            {"court": "TPI", "case_number": "X", "ordered_on": "2026-11-20"}),
                           ("/personal/embargos/orden-deposito/1/levantar",
                            {"o1-lifted_on": "2026-11-20"}),
                           ("/personal/embargos/aviso/1/acumulado",
                            {"n1-stated_on": "2026-11-20", "n1-accrued": "5.00"})):
            check(path, post(path, **data))
        # The Board's year and collections are staff's (tests/web/test_budget_pages.py,
        # test_collections.py, test_roll_import*.py): 404 for everyone else, nothing written.
        for path, data in (("/personal/cobros/correr", {"on": "2026-11-30"}),
                           ("/personal/cobros/envios", {}),
                           ("/personal/cobros/1/envio", {"mailed_on": "2026-11-30",
                                                          "tracking": "9400"}),
                           ("/personal/cobros/1/acuse", {"received_on": "2026-11-30"}),
                           ("/personal/cobros/1/reclamacion", {"filed_on": "2026-11-30",
                                                                "case_number": "X"}),
                           ("/personal/presupuestos/nuevo", {"fiscal_year": "2027", "save": "y"}),
                           ("/personal/presupuestos/version/1/editar", {"save": "y"}),
                           ("/personal/presupuestos/version/1/adoptar",
                            {"adopted_on": "2026-11-30", "confirm": "y"}),
                           ("/personal/presupuestos/version/1/enmendar", {}),
                           ("/personal/presupuestos/version/1/descartar", {}),
                           ("/personal/persona/1/funcion", {"role": "read_only"}),
                           ("/personal/padron", {}),
                           ("/personal/padron/1/importar", {}),
                           ("/personal/parametros/2026-2027/interest_rate",
                            {"value": "0.07", "effective_on": "2026-11-30",
                             "resolution_number": "1", "resolution_date": "2026-11-30"}),
                           ("/personal/parametros/2026-2027/closed_day",
                            {"first_day": "2026-12-10", "reason_es": "x", "reason_en": "x",
                             "resolution_number": "1", "resolution_date": "2026-11-30"}),
                           ("/personal/cambios/1/acuse", {})):
            check(path, post(path, **data))
        # A change report is an owner's (or staff's) to file (R-B17), and the forwarding
        # lender's to mark forwarded (R-B21; tests/web/test_exemption_changes.py).
        check("report a change", post(f"/propiedad/{theirs}/cambio", kind="rented",
                                      changed_on="2026-11-01", details="x"))
        if role != "lender":
            check("forward a change", post("/prestamista/cambios/1/enviada"))
    # The residential exemption (J5, tests/web/test_exemption.py): only an owner of the
    # parcel starts or changes a certification, only a reviewer decides one; nothing is
    # written for anyone else.
    if role != "owner":
        cid = filed_exemption(app, ids["parcel"])
    exemption_before = _exemption_rows(app)
    check("start an exemption", post(f"/propiedad/{theirs}/exoneracion"))
    if role != "owner":
        for path, data in ((f"/exoneracion/{cid}/paso/duenos", {"owners": "1"}),
                           (f"/exoneracion/{cid}/paso/certificar",
                            {"attest": "y", "full_name": "María Rivera Ortiz"}),
                           (f"/exoneracion/{cid}/evidencia", {}),
                           (f"/exoneracion/{cid}/evidencia/1/quitar", {}),
                           (f"/exoneracion/{cid}/retirar", {})):
            check(path, post(path, **data))
        if role != "staff":
            for action in ("revisar", "aprobar", "devolver", "plan"):
                check(f"exemption {action}", post(f"/personal/exoneraciones/{cid}/{action}",
                                                  reasons="evidence", **{
                                                      "plan-kind": "payment",
                                                      "plan-entry_on": "2026-11-30",
                                                      "plan-amount": "10.00"}))
    if _exemption_rows(app) != exemption_before:
        problems.append("a residential-exemption certification changed")
    # An account the role may not pay (the owner's is the lender's to pay too): the pay
    # form answers 400, "not one you can pay".
    unpayable = ids["keys"][ids["leased"] if role in ("owner", "lender") else ids["parcel"]]
    for endpoint in ("/pagar/revisar", "/pagar/confirmar"):
        check(endpoint, post(endpoint, **{f"choice-{unpayable}": "due_now",
                                          "expected_total": "1.00"}), 400)
    r = post("/propiedad/reclamar", catastro=ids["catastro"], code="WRONG-CODE")
    # The claim form again, with its message (200); a wrong code is counted against the
    # guesser: the only change a refused claim makes.
    check("claim", r, 200, counted=("access_codes",))
    # The public verification page answers anyone (an unknown code: 404); it changes
    # nothing but the throttle's count of look-ups (R-A19).
    r = post("/verificar", code="0" * 28)
    if r.status_code != 404:
        problems.append(f"verify an unknown code: {r.status_code}")
    before.update(fingerprint(app))
    r = client.post("/pagos/webhook/stripe", data=b"{}", content_type="application/json")
    if r.status_code != 404:  # (no Stripe key in the demo: the endpoint is not there)
        problems.append(f"unsigned webhook: {r.status_code}")
    assert not problems, "\n".join(problems)


def test_the_payer_still_acts_on_their_own_checkouts(scene):
    app, ids = scene
    owner = login(app, "owner")
    tok = csrf_token(owner.get("/").get_data(as_text=True))
    r = owner.post(ids["processing"] + "/banco", data={"csrf_token": tok, "result": "settle"})
    assert r.status_code == 303
    r = owner.post(ids["pending"], data={"csrf_token": tok, "outcome": "card_succeeds"})
    assert r.status_code == 303
