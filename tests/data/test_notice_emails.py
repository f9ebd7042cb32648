"""Emailed notices and their one-click unsubscribe (portal/accounts/notice_emails.py,
docs/MAIL.md "Emailed notices"): every notice the portal emails in bulk carries
List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) with the account's signed link; the
link stops only that account's, a forged one nothing; one who stopped them gets the
assessment notice on paper (even when paperless) and the demand's owner copy in the print
file, and no lender digest."""

from __future__ import annotations

import email
from datetime import date
from email.policy import default as email_policy

import pytest
from sqlalchemy import func, select

from portal import clock, storage
from portal.accounts import notice_emails, paperless
from portal.accounts.errors import NotFound
from portal.collections import schedule
from portal.exemptions import bulk_review, digest
from portal.models import (
    AuditRecord,
    DemandDocument,
    Notice,
    NoticeDelivery,
    OutboxMessage,
    User,
)
from portal.roll import notices
from tests.data.test_bulk_review import (
    _staff,
    filings,  # noqa: F401 (the fixture)
)
from tests.data.test_demand_schedule import NOV_11, _lessee_pays_on
from tests.support.clock import at

BASE = "https://portal.test"
CONFIG = {"MAIL_FROM": "Portal <portal@portal.test>", "PORTAL_BASE_URL": BASE,
          "MAIL_SERVER": None, "OUTBOX_DIR": "", "SECRET_KEY": "notice-emails-test-key"}


@pytest.fixture
def files(tmp_path):
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


def _messages(world, template: str) -> list:
    with world.uow() as uow:
        out = []
        for row in uow.session.scalars(select(OutboxMessage).where(
                OutboxMessage.template == template).order_by(OutboxMessage.id)):
            msg = email.message_from_bytes(row.raw, policy=email_policy)
            msg.raw = row.raw  # the bytes the relay gets
            out.append(msg)
        return out


def _one_click(msg) -> str:
    """The message's one-click token, after checking its headers and its text agree (and
    that no line is longer than SMTP allows: RFC 5321 4.5.3.1.6, 998 octets and CRLF)."""
    longest = max(len(line) for line in msg.raw.splitlines())
    assert longest <= 998, longest
    link = str(msg["List-Unsubscribe"])
    assert link.startswith(f"<{BASE}/avisos/baja/") and link.endswith(">"), link
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = link[1:-1]
    assert url in msg.get_body(("plain",)).get_content()
    return url.removeprefix(f"{BASE}/avisos/baja/").split("?")[0]


def _notify(world):
    with clock.fixed(at(date(2026, 6, 11))), world.uow() as uow:
        return notices.notify(uow, uow.session.get(User, world.staff.id), world.roll_id, CONFIG)


def _off(world) -> dict[str, bool]:
    with world.uow() as uow:
        return {u.email: u.notice_emails_off_at is not None
                for u in uow.session.scalars(select(User))}


def test_assessment_notices_carry_the_one_click_link_that_stops_only_their_account(
        world, files):
    result = _notify(world)
    assert result["emails"] == 2 and result["email_stopped"] == 0
    sent = {str(m["To"]): m for m in _messages(world, "assessment_notice")}
    assert set(sent) == {"alice@test.pr", "bob@test.pr"}
    tokens = {to: _one_click(m) for to, m in sent.items()}
    assert tokens["alice@test.pr"] != tokens["bob@test.pr"]
    before = _off(world)
    forged = tokens["alice@test.pr"][:-2] + ("AA" if not tokens["alice@test.pr"].endswith(
        "AA") else "BB")
    other_key = notice_emails.token({**CONFIG, "SECRET_KEY": "another key"}, world.alice.id)
    with world.uow() as uow:
        for bad in (forged, other_key, "", "x" * 300, tokens["alice@test.pr"] + "."):
            with pytest.raises(NotFound):
                notice_emails.stop(uow, CONFIG, bad)
    assert _off(world) == before  # nothing changed for anyone
    with world.uow() as uow:
        what = notice_emails.stop(uow, CONFIG, tokens["alice@test.pr"])
        assert (what.email, what.stopped) == ("alice@test.pr", True)
        notice_emails.stop(uow, CONFIG, tokens["alice@test.pr"])  # twice: nothing more
    after = _off(world)
    assert after == {**before, "alice@test.pr": True}
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(AuditRecord).where(
            AuditRecord.action == "notices.email_stopped",
            AuditRecord.object_id == str(world.alice.id))) == 1
        assert notice_emails.stopped(uow, [world.alice.id, world.bob.id]) == {world.alice.id}
        alice = uow.session.get(User, world.alice.id)
        assert notice_emails.set_emails(uow, alice, True) is True  # the account page
        assert notice_emails.set_emails(uow, alice, True) is False
    assert _off(world) == before


def test_one_who_stopped_them_gets_the_notice_on_paper_even_when_paperless(world, files):
    with world.uow() as uow:
        alice = uow.session.get(User, world.alice.id)
        paperless.choose(uow, alice, world.parcel["A"], True)
        notice_emails.set_emails(uow, alice, False)
    result = _notify(world)
    assert result["paperless"] == 0 and result["email_stopped"] == 1
    assert result["emails"] == 1 and result["printed"] == 4
    assert [str(m["To"]) for m in _messages(world, "assessment_notice")] == ["bob@test.pr"]
    with world.uow() as uow:
        printed = set(uow.session.scalars(select(Notice.parcel_id).join(
            NoticeDelivery, NoticeDelivery.notice_id == Notice.id).where(
            NoticeDelivery.channel == "print")))
    assert world.parcel["A"] in printed


def test_the_owners_copy_of_a_demand_carries_it_and_goes_on_paper_once_stopped(world,
                                                                                monkeypatch):
    monkeypatch.setattr("portal.collections.demands.mail_settings", lambda: CONFIG)
    _lessee_pays_on(world, "A", "Alicia Dueña", "en")
    with world.uow() as uow:
        notice_emails.set_emails(uow, uow.session.get(User, world.bob.id), False)  # not hers
    with clock.fixed(at(NOV_11, 8)):
        schedule.run_due(world.database, NOV_11)
    [copy] = _messages(world, "demand_owner_copy")
    assert str(copy["To"]) == "alice@test.pr"
    token = _one_click(copy)
    with world.uow() as uow:
        assert uow.session.scalar(select(OutboxMessage.bulk).where(
            OutboxMessage.template == "demand_owner_copy")) is True
        notice_emails.stop(uow, CONFIG, token)
        assert notice_emails.stopped(uow, [world.alice.id, world.bob.id]) == {
            world.alice.id, world.bob.id}


def test_a_stopped_owner_has_the_copy_printed(world, monkeypatch):
    monkeypatch.setattr("portal.collections.demands.mail_settings", lambda: CONFIG)
    _lessee_pays_on(world, "A", "Alicia Dueña", "en")
    with world.uow() as uow:
        notice_emails.set_emails(uow, uow.session.get(User, world.alice.id), False)
    with clock.fixed(at(NOV_11, 8)):
        schedule.run_due(world.database, NOV_11)
    assert _messages(world, "demand_owner_copy") == []
    with world.uow() as uow:
        channels = {uow.session.get(Notice, d.notice_id).parcel_id: d.channel
                    for d in uow.session.scalars(select(DemandDocument).where(
                        DemandDocument.kind == "owner_copy"))}
    assert channels[world.parcel["A"]] == "print"


def test_the_lenders_digest_carries_it_and_stops(filings):  # noqa: F811 - the fixture
    world, ids = filings
    with clock.fixed(at(date(2026, 11, 29), 9)), world.uow() as w:
        bulk_review.decide(w, _staff(w, world), [ids["ok"]], "approve")
    assert digest.send(world.database, date(2026, 11, 30), CONFIG)["sent"] == 1
    [msg] = _messages(world, "exemption_digest")
    token = _one_click(msg)
    with world.uow() as uow:
        notice_emails.stop(uow, CONFIG, token)
        uow.session.execute(OutboxMessage.__table__.delete())
    assert digest.send(world.database, date(2026, 11, 30), CONFIG)["sent"] == 0
    assert _messages(world, "exemption_digest") == []
