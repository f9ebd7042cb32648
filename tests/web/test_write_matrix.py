"""Every POST route of the app's url_map, as every actor, against the write policy
(portal/accounts/policy.py, docs/SECURITY.md): the set of actors the route lets through is
exactly the one below, and where it refuses, nothing changed.

The actors: anonymous, the demo's owner, another owner, a delegate the owner added, the
lessee, the bank's user, and the four staff roles. Each posts only its CSRF token, on the
owner's parcel (the one the bank lends on) and its objects: a filed exemption, a change
report, the delegate's link. So a route that reads its form before asking who may use it
shows up here as letting someone through (400 on an empty form, not 403/404). "Through"
means anything but 401, 403, 404 or, for anonymous, the sign-in page; a 500 always fails.
Own-account routes (/cuenta/...) act on the signed-in person's own account; the API takes a
Bearer token only (401 to a session); the webhook is not there without a Stripe key (404).
"""

from __future__ import annotations

import re
from datetime import date

import pytest
from flask import Flask

from tests.support.demo import app_uow, filed_exemption
from tests.support.hostile import fingerprint
from tests.support.pages import ROLES as EMAILS
from tests.support.pages import STAFF_ROLE_EMAILS, csrf_token, login

DELEGATE = "user00002@demo.pr"
PEOPLE = ("owner", "other", "delegate", "lessee", "lender")
STAFF = ("administrator", "reviewer", "cashier", "read_only")
ACTORS = ("anonymous", *PEOPLE, *STAFF)
SIGNED_IN = frozenset(ACTORS) - {"anonymous"}
EVERYONE = frozenset(ACTORS)
NOBODY: frozenset[str] = frozenset()
ADMIN = frozenset({"administrator"})
CASHIERS = frozenset({"administrator", "cashier"})
REVIEWERS = frozenset({"administrator", "reviewer"})
RECORDERS = frozenset({"administrator", "reviewer", "cashier"})

#: Who gets through each POST route (the objects: see the module's docstring). A route not
#: named here lets nobody through with a session: the API (a Bearer token), the webhook (a
#: signed event), a test checkout (its payer), an emailed invitation's secret, and the
#: objects the demo does not hold (an import, a token, an intent, an invitation: 999999).
ALLOWED: dict[str, frozenset[str]] = {
    # One's own account and session; the sign-in forms answer anyone.
    "accounts.language": EVERYONE, "collections.certificates_verify": EVERYONE,
    **dict.fromkeys(("people.sign_in", "people.sign_up", "people.forgot", "people.resend",
                     "people.reset"), EVERYONE),
    **dict.fromkeys(("people.change_password", "people.sign_out", "people.sign_out_others",
                     "people.two_factor_codes", "people.two_factor_disable",
                     "people.two_factor_enrol", "people.verify", "accounts.claim",
                     # the pay form: which accounts one may pay is its own check (400)
                     "payments.review", "payments.confirm",
                     # the account page: one's own email, telephone, language
                     "accounts.account_email", "accounts.account_phone",
                     "accounts.account_language",
                     # one's own emailed notices on or off (the one-click link's signed
                     # token is 999999 here, forged: nobody through)
                     "accounts.notice_emails_switch"), SIGNED_IN),
    # Who sees the parcel (policy.MANAGE_ACCESS): its owner; of staff, administrators.
    **dict.fromkeys(("accounts.grant", "accounts.revoke", "accounts.revoke_email"),
                    frozenset({"owner", "administrator"})),
    "exemptions.changes_new": frozenset({"owner", "administrator"}),  # REPORT_CHANGE
    "exemptions.changes_upload": frozenset({"owner", "administrator"}),  # its evidence
    "collections.certificates_issue": RECORDERS | {"owner"},  # ISSUE_CERTIFICATE (R-A19)
    # The owner's certification (J5); its review is the reviewers'.
    **dict.fromkeys(("exemptions.start", "exemptions.step", "exemptions.upload",
                     "exemptions.remove_evidence", "exemptions.withdraw"),
                    frozenset({"owner"})),
    **dict.fromkeys(("exemptions.take_up", "exemptions.approve", "exemptions.return_to_owner",
                     "exemptions.changes_acknowledge"), REVIEWERS),
    "exemptions.record_plan_entry": REVIEWERS,  # what the CRIM reports of an R-B16 plan
    "exemptions.plan_file_upload": REVIEWERS,  # the CRIM's file (an empty form: 400)
    "exemptions.bulk_decide": REVIEWERS,  # the review in bulk (an empty form: 422)
    "exemptions.coop_election_correct": REVIEWERS,  # R-B4 (an empty form: 422)
    # Collections: every role but read-only records (RECORD_COLLECTION).
    **{f"collections.{e}": RECORDERS for e in (
        "start_run", "record_mailings", "record_mailing", "record_receipt", "record_claim",
        "attachments_record_notice", "attachments_record_auction",
        "attachments_record_result", "attachments_record_paid",
        "attachments_record_deposit_order", "attachments_lift_deposit_order",
        "correct_mailing")},
    # TAKE_PAYMENT (a refund: the parcel holds no credit, so 404 to all; its door, 403 to
    # staff without the role, is asked before the route: portal/web/staff_access.py)
    "payments.office": CASHIERS,
    # The Board's year, roles and two-step resets: administrators'.
    **{f"roll.{e}": ADMIN for e in (
        "budget_new", "budget_edit", "budget_adopt", "budget_amend", "budget_discard",
        "compute_roll", "publish_roll", "send_roll_notices", "parameter_edit",
        "roll_import_upload", "budget_adoption_date")},
    "people.set_role": ADMIN, "people.reset_two_factor": ADMIN,
    # Paying without an account: the code form answers anyone (400 on an empty
    # form); closing the guest page is anyone's (it ends only the caller's guest session).
    "payments.guest_start": EVERYONE, "payments.guest_end": EVERYONE,
    "accounts.paperless_page": SIGNED_IN,  # one's own choices
    # The bank's own (its user is the bank's administrator in the demo).
    **{f"lenders.{e}": frozenset({"lender"}) for e in (
        "batch_upload", "certification_one_file", "create_token", "invite", "mark_intents",
        "pay_file", "pay_filtered",
        "remove", "report_acquisition", "set_role", "add_webhook",
        "portfolio_change", "portfolio_upload", "bill_make")},
    "exemptions.changes_forward": frozenset({"lender"}),
    # Autopay: a parcel's payers enrol and save a method from its page (a
    # delegate only where the owner allowed paying); one's own methods, people only.
    "payments.autopay": frozenset({"owner"}), "payments.autopay_add_method": frozenset({"owner"}),
    "payments.saved_methods": frozenset(PEOPLE),
    # Reminders: one's own choices; a relative added by the parcel's manager.
    "reminders.save": SIGNED_IN, "reminders.reset_calendar": SIGNED_IN,
    "reminders.add_relative": frozenset({"owner"}),
}

_ID = re.compile(r"<(?:\w+:)?(\w+)>")


def _scene(app: Flask) -> dict[str, str]:
    """The objects each route is posted on, by URL argument."""
    from sqlalchemy import select

    from portal.accounts import access, parcels
    from portal.clock import today
    from portal.exemptions import changes, cooperatives
    from portal.models import Loan, Notice, ParcelLink, PartyMember
    from portal.people import users
    with app_uow(app) as w:
        who = {role: users.find_by_email(w, email) for role, email in EMAILS.items()}
        seen = {role: {p.id for p, _ in access.linked_parcels(w, u)} for role, u in who.items()}
        pid = sorted(seen["owner"] & seen["lender"])[0]
        parcels.grant(w, who["owner"], pid, DELEGATE)
        delegate = users.find_by_email(w, DELEGATE)
        link = w.session.scalar(select(ParcelLink.id).where(
            ParcelLink.parcel_id == pid, ParcelLink.user_id == delegate.id))
        loan = w.session.scalar(select(Loan).where(Loan.parcel_id == pid))
        notice = w.session.scalar(select(Notice.id).where(Notice.kind != "assessment")
                                  .order_by(Notice.id)) or 999999
        member = w.session.scalar(select(PartyMember.id).where(
            PartyMember.user_id == who["lender"].id))
        election = cooperatives.record(w, fy=date(2026, 7, 1), name="Cooperativa Matriz",
                                       election="residential", lender_id=None,
                                       recorded_by_id=who["owner"].id)
        report, _outcome = changes.report(w, who["owner"], pid, kind="rented",
                                          change_date=today(), attested_name="María Rivera")
        values = {"parcel_id": pid, "link_id": link, "loan_id": loan.id, "number":
                  loan.loan_number, "notice_id": notice, "member_id": member,
                  "report_id": report.id, "election_id": election.id,
                  "user_id": users.find_by_email(w, STAFF_ROLE_EMAILS["reviewer"]).id}
    values |= {"cert_id": filed_exemption(app, pid), "slug": "duenos", "fy": "2026-2027",
               "name": "interest_rate", "version_id": 1, "roll_id": 1, "debt_id": 1,
               "auction_id": 1, "order_id": 1}
    return {k: str(v) for k, v in values.items()}


def _login(app: Flask, actor: str):  # noqa: ANN202
    if actor == "anonymous":
        return app.test_client()
    return login(app, STAFF_ROLE_EMAILS.get(actor) or (DELEGATE if actor == "delegate"
                                                        else actor))


def _post_rules(app: Flask) -> list:
    """The POST rules, the ones that end a session last."""
    rules = [r for r in app.url_map.iter_rules() if "POST" in (r.methods or ())]
    last = ("people.sign_out_others", "people.sign_out")
    return sorted(rules, key=lambda r: (r.endpoint in last, last.index(r.endpoint)
                                        if r.endpoint in last else 0, r.endpoint))


def _through(r, actor: str) -> bool:  # noqa: ANN001
    if actor == "anonymous" and r.status_code == 302 and "/cuenta/entrar" in r.headers.get(
            "Location", ""):
        return False
    return r.status_code not in (401, 403, 404)


@pytest.mark.parametrize("actor", ACTORS)
def test_every_write_route_as_every_actor(demo_app: Flask, actor: str):
    app = demo_app
    ids = _scene(app)
    client = _login(app, actor)
    tok = csrf_token(client.get("/cuenta/entrar" if actor == "anonymous" else "/")
                     .get_data(as_text=True))
    observed, problems = {}, []
    for rule in _post_rules(app):
        path = _ID.sub(lambda m: ids.get(m.group(1), "999999"), rule.rule)
        before = fingerprint(app)
        r = client.post(path, data={"csrf_token": tok})
        if r.status_code >= 500:
            problems.append(f"{rule.endpoint} {path}: {r.status_code}")
        observed[rule.endpoint] = _through(r, actor)
        if not observed[rule.endpoint] and fingerprint(app) != before:
            problems.append(f"{rule.endpoint}: refused, yet something changed")
    let_in = {e for e, ok in observed.items() if ok}
    should = {e for e in observed if actor in ALLOWED.get(e, NOBODY)}
    assert not problems, problems
    assert sorted(let_in - should) == [], "let in, should not be"
    assert sorted(should - let_in) == [], "refused, should be let in"


def test_an_administrator_changes_access_only_with_a_reason_told_to_the_owner(demo_app):
    """policy.MANAGE_ACCESS: read-only staff are refused (403, nothing changed); an
    administrator without a reason is asked for one; with it, the link is made, the audit
    record holds the reason and the owner gets an email saying who and why."""
    from sqlalchemy import select

    from portal.models import AuditRecord
    from tests.support.pages import outbox, read_mail
    app = demo_app
    pid = _scene(app)["parcel_id"]
    path = f"/propiedad/{pid}/acceso"
    reader = login(app, STAFF_ROLE_EMAILS["read_only"])
    tok = csrf_token(reader.get("/").get_data(as_text=True))
    before = fingerprint(app)
    r = reader.post(path, data={"csrf_token": tok, "email": "attacker@test.pr", "reason": "x"})
    assert r.status_code == 403 and fingerprint(app) == before
    admin = login(app, STAFF_ROLE_EMAILS["administrator"])
    tok = csrf_token(admin.get(path).get_data(as_text=True))
    before = fingerprint(app)  # (signing in is recorded on the user)
    r = admin.post(path, data={"csrf_token": tok, "email": "nieta@example.com"})
    assert r.status_code == 400 and "Indique por qué" in r.get_data(as_text=True)
    assert fingerprint(app) == before
    sent = len(outbox(app))
    r = admin.post(path, data={"csrf_token": tok, "email": "nieta@example.com",
                               "reason": "Poder notarial visto en la oficina"})
    assert r.status_code == 303
    with app_uow(app) as w:
        record = w.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "access.invited").order_by(AuditRecord.id.desc()))
        assert record.after["reason"] == "Poder notarial visto en la oficina"
    told = [read_mail(p) for p in outbox(app)[sent:]]
    to_owner = [m for m in told if m["To"] == EMAILS["owner"]]
    assert len(to_owner) == 1
    body = to_owner[0].get_payload(decode=True).decode()
    assert "nieta@example.com" in body and "Poder notarial visto en la oficina" in body
