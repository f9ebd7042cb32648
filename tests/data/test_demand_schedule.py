"""R-A17 as written (revision 3): the collections run starts by itself on the day after each
month's rolled day G (a daily task, `portal.collections.schedule`: one run a day whoever
starts it); the letter is kept as queued (its PDF in the file store and its facts, never
re-rendered: a later payment or parameter changes nothing in it); a copy goes to the owner
when the payer is not the owner (emailed where the owner has an account, else in the
staff's print file), to be mailed within the same 5 working days."""

from __future__ import annotations

import email
import io
from datetime import date
from decimal import Decimal

import pytest
from pypdf import PdfReader
from sqlalchemy import func, select

from portal import clock, storage
from portal.accounts.errors import NotFound
from portal.collections import demands, letters, schedule
from portal.jobs import daily
from portal.models import (
    DemandDocument,
    DemandLetter,
    DemandSchedule,
    Job,
    Lease,
    Notice,
    OutboxMessage,
    OwnershipShare,
    Party,
    User,
)
from portal.roll import board_parameters
from tests.support.clock import at
from tests.support.world import pay

NOV_11 = date(2026, 11, 11)  # day G of November was Tuesday the 10th: the run is on the 11th


@pytest.fixture(autouse=True)
def files(tmp_path):
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


def _count(world, model, *where) -> int:
    with world.uow() as uow:
        return uow.session.scalar(select(func.count()).select_from(model).where(*where)) or 0


def _text(pdf: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def test_the_daily_task_is_registered():
    assert daily.TASKS[schedule.NAME] is schedule.run_due


def test_the_scheduled_run_queues_once_on_the_day_after_g(world):
    """On 11 November (G was the 10th) the day's work queues A's, B's, C's and D's demands, by a
    job of no one's; a second call that day, or the hourly call after it, queues nothing more;
    on the 12th (not a run day) nothing runs."""
    with clock.fixed(at(date(2026, 11, 10))):
        assert schedule.run_due(world.database, date(2026, 11, 10)) == {"runs": 0, "demands": 0}
    with clock.fixed(at(NOV_11, 8)):
        assert schedule.run_due(world.database, NOV_11) == {"runs": 1, "demands": 4}
    with clock.fixed(at(NOV_11, 9)):
        assert schedule.run_due(world.database, NOV_11) == {"runs": 0, "demands": 0}
        assert daily.run_all(world.database, NOV_11)[schedule.NAME] == {"runs": 0,
                                                                        "demands": 0}
    with clock.fixed(at(date(2026, 11, 12))):
        assert schedule.run_due(world.database, date(2026, 11, 12))["runs"] == 0
    assert _count(world, DemandLetter) == 4
    assert _count(world, DemandSchedule) == 1
    with world.uow() as uow:
        job = uow.session.scalar(select(Job).where(Job.kind == demands.KIND))
        assert job.status == "succeeded" and job.created_by_id is None
        assert job.result == {"run_on": "2026-11-11", "demands": 4}
        docs = list(uow.session.scalars(select(DemandDocument)))
    # R-A17: every demand kept as queued, to be mailed by the 5th working day after the 11th
    # (Thu 12, Fri 13, Mon 16, Tue 17, Wed 18)
    assert {(d.kind, d.queued_on, d.mail_by, d.channel) for d in docs} == {
        ("demand", NOV_11, date(2026, 11, 18), "certified")}
    assert len(docs) == 4


def test_staff_still_run_it_by_hand_the_same_day_and_nothing_is_queued_twice(world):
    with clock.fixed(at(NOV_11, 8)), world.uow() as uow:
        demands.run(uow, uow.session.get(User, world.staff.id), NOV_11)
    with clock.fixed(at(NOV_11, 9)):
        assert schedule.run_due(world.database, NOV_11) == {"runs": 1, "demands": 4}
    assert _count(world, DemandLetter) == 4 and _count(world, DemandDocument) == 4


def test_the_run_day_follows_the_boards_closed_days(world, monkeypatch):
    """Day G of November rolled past a declared closed day (Tue 10) and Veterans Day
    (Wed 11) to Thu 12: the run is on Fri 13, not the 11th."""
    from portal.accounts import facts as account_facts

    real = account_facts.rules_for

    def closed(start, uow):
        r = real(start, uow)
        return type(r)(**{**r.__dict__, "closed_days": frozenset({date(2026, 11, 10)})})

    monkeypatch.setattr(account_facts, "rules_for", closed)
    with clock.fixed(at(NOV_11)):
        assert schedule.run_due(world.database, NOV_11)["runs"] == 0
    with clock.fixed(at(date(2026, 11, 13))), world.uow() as uow:
        assert schedule.is_run_day(uow, date(2026, 11, 13))
        assert schedule.next_run(uow, NOV_11) == date(2026, 11, 13)


def _lessee_pays_on(world, key: str, owner_name: str, language: str = "es") -> int:
    """A private parcel `key` owned by `owner_name` and leased to a lessee who pays (R-A16)."""
    with world.uow() as uow:
        s = uow.session
        owner = Party(kind="person", name=owner_name, language=language)
        lessee = Party(kind="organisation", name=f"Inquilino {key}")
        s.add_all([owner, lessee])
        s.flush()
        s.add(OwnershipShare(parcel_id=world.parcel[key], party_id=owner.id,
                             share=Decimal(1), starts_on=date(2000, 1, 1)))
        s.add(Lease(parcel_id=world.parcel[key], lessee_party_id=lessee.id, lessee_pays=True,
                    starts_on=date(2020, 1, 1)))
        return owner.id


def test_the_owner_gets_a_copy_when_the_payer_is_not_the_owner(world):
    """A (Alice has an account on it) and C (no account) are leased to lessees who pay: the
    demand goes to the lessee, a copy to the owner: emailed to Alice with the copy attached,
    C's in the print file; D's owner is the Authority: no copy."""
    alice_party = _lessee_pays_on(world, "A", "Alicia Dueña", "en")
    _lessee_pays_on(world, "C", "Carmen Dueña")
    with clock.fixed(at(NOV_11, 8)):
        schedule.run_due(world.database, NOV_11)
    with world.uow() as uow:
        copies = {d.notice_id: d for d in uow.session.scalars(select(DemandDocument).where(
            DemandDocument.kind == "owner_copy"))}
        by_parcel = {uow.session.get(Notice, n).parcel_id: d for n, d in copies.items()}
        assert set(by_parcel) == {world.parcel["A"], world.parcel["C"]}
        a, c = by_parcel[world.parcel["A"]], by_parcel[world.parcel["C"]]
        assert (a.channel, a.addressee_party_id, a.language) == ("email", alice_party, "en")
        assert c.channel == "print" and a.mail_by == c.mail_by == date(2026, 11, 18)
        a_notice = uow.session.get(Notice, a.notice_id)
        assert uow.session.get(Party, a_notice.addressee_party_id).name == "Inquilino A"
        copy_text = _text(letters.read(a))
        assert "Demand for payment: copy to the owner" in copy_text
        assert "Inquilino A" in copy_text and "Alicia Dueña" in copy_text
        outbox = list(uow.session.scalars(select(OutboxMessage).where(
            OutboxMessage.template == "demand_owner_copy")))
        assert [m.recipient for m in outbox] == ["alice@test.pr"]
        msg = email.message_from_bytes(outbox[0].raw)
        attached = [p for p in msg.walk() if p.get_content_type() == "application/pdf"]
        assert attached and attached[0].get_payload(decode=True) == letters.read(a)
        printed = letters.print_file(uow, NOV_11)
        assert "Carmen Dueña" in _text(printed)
        assert letters.print_days(uow) == [(NOV_11, 1)]
        # Alice (the owner) downloads the copy; the lessee's demand is the other document
        alice = uow.session.get(User, world.alice.id)
        assert demands.kept_letter(uow, alice, a.notice_id) == letters.read(a)
        staff = uow.session.get(User, world.staff.id)
        assert demands.kept_letter(uow, staff, a.notice_id) == letters.read(
            letters.stored(uow, a.notice_id))
        assert demands.kept_letter(uow, staff, a.notice_id, copy=True) == letters.read(a)
        with pytest.raises(NotFound):
            demands.kept_letter(uow, uow.session.get(User, world.bob.id), a.notice_id)


def test_the_kept_letter_does_not_change_after_a_payment_or_a_new_parameter(world):
    """R-A17: the letter is kept as queued: a payment and a Board parameter adopted later
    change nothing in the file the payer, the owner and the court get."""
    with clock.fixed(at(NOV_11, 8)):
        schedule.run_due(world.database, NOV_11)
    with world.uow() as uow:
        a = uow.session.scalar(select(Notice.id).where(Notice.parcel_id == world.parcel["A"],
                                                       Notice.kind == "demand"))
        doc = letters.stored(uow, a)
        key, facts = doc.storage_key, dict(doc.facts)
        before = demands.kept_letter(uow, uow.session.get(User, world.alice.id), a)
    assert facts["queued_on"] == "2026-11-11" and facts["mail_by"] == "2026-11-18"
    pay(world, "A", "50.00", date(2026, 11, 20))
    with clock.fixed(at(date(2026, 11, 25))), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        staff.staff_role = "administrator"
        board_parameters.adopt(uow, staff, date(2026, 7, 1), "demand_minimum", "5",
                               date(2026, 11, 25), "2026-31", date(2026, 11, 25))
    with clock.fixed(at(date(2026, 11, 30))), world.uow() as uow:
        doc = letters.stored(uow, a)
        assert (doc.storage_key, doc.facts) == (key, facts)
        after = demands.kept_letter(uow, uow.session.get(User, world.alice.id), a)
        assert after == before and storage.content_key(after) == key
        # the letter as rendered today would say otherwise (the payment): the kept one does not
        assert "11 de noviembre de 2026" in _text(after)
