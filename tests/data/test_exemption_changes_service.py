"""Change reports of the residential exemption (J6): the service on SQLite and PostgreSQL.

R-B9: the deadline is December 31 of the change's year (fixed); a late report is accepted
and flagged (R-B17); the status moves forward only (filed -> acknowledged), audit-logged;
only an owner of the parcel or staff reports; the lender of a loan on the parcel sees it.
"""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from portal import clock
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.exemptions import changes as changes
from portal.models import AuditRecord, ExemptionChangeReport, ImmutableRowError, ParcelLink
from tests.support.clock import at


@pytest.fixture
def world(world):
    w = world
    with w.uow() as uow:  # alice also owns C, which secures the bank's loan L-1
        uow.session.add(ParcelLink(user_id=w.alice.id, parcel_id=w.parcel["C"], role="owner",
                                   source="staff", granted_by_id=w.staff.id))
    return w


def _report(world, parcel="A", user=None, **kw):
    kw.setdefault("kind", "rented")
    kw.setdefault("change_date", date(2026, 11, 15))
    kw.setdefault("attested_name", "Alice Owner")
    with world.uow() as uow:
        row, outcome = changes.report(uow, user or world.alice, world.parcel[parcel], **kw)
        return row, outcome


def test_a_report_before_january_1_is_on_time_with_its_deadline(world):
    row, outcome = _report(world, details="  Alquilada desde el 15 de noviembre.  ")
    assert (row.deadline, row.late, row.status) == (date(2026, 12, 31), False, "filed")
    assert row.reported_on == date(2026, 11, 30)
    assert outcome.days_left == 31
    assert row.details == "Alquilada desde el 15 de noviembre."
    assert row.attested_name == "Alice Owner"
    assert row.number == f"C-2026-{row.id:06d}"
    assert row.lender_id is None  # A has no loan
    with world.uow() as uow:
        rec = uow.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "exemption_change.reported"))
        assert rec.actor_id == world.alice.id and rec.object_id == str(row.id)
        assert rec.after["kind"] == "rented" and rec.after["late"] is False


def test_a_report_after_december_31_is_accepted_and_flagged_late(world):
    with clock.fixed(at(date(2027, 1, 4))):
        row, outcome = _report(world, kind="moved", change_date=date(2026, 3, 15))
    assert (row.deadline, row.late, row.reported_on) == (date(2026, 12, 31), True,
                                                         date(2027, 1, 4))
    assert outcome.affects_fiscal_year == 2027  # R-B18: a late report does not move it


def test_december_31_itself_is_on_time_at_night_puerto_rico_time(world):
    # 23:30 in Puerto Rico on December 31 is already January 1 in UTC: still on time (R-B17).
    with clock.fixed(at(date(2026, 12, 31), 23, 30)):
        row, outcome = _report(world, kind="moved", change_date=date(2026, 3, 15))
    assert (row.reported_on, row.late, outcome.days_left) == (date(2026, 12, 31), False, 0)


def test_a_change_after_today_is_refused_and_nothing_is_stored(world):
    with pytest.raises(InvalidInput) as info:
        _report(world, change_date=date(2026, 12, 1))
    assert info.value.params["field"] == "change_date"
    with pytest.raises(InvalidInput):
        _report(world, kind="married")  # not a kind of R-B17
    with pytest.raises(InvalidInput):
        _report(world, details="x" * (changes.DETAILS_MAX + 1))
    for name in ("", "   ", "x" * (changes.NAME_MAX + 1)):  # the attestation (R-B12)
        with pytest.raises(InvalidInput) as info:
            _report(world, attested_name=name)
        assert info.value.params["field"] == "attested_name"
    with world.uow() as uow:
        assert uow.session.scalars(select(ExemptionChangeReport)).all() == []


def test_spouse_died_needs_the_titleholder_answer_and_keeps_the_exemption(world):
    with pytest.raises(InvalidInput) as info:
        _report(world, kind="spouse_died", change_date=date(2026, 8, 20))
    assert info.value.params["field"] == "original_titleholder"
    row, outcome = _report(world, kind="spouse_died", change_date=date(2026, 8, 20),
                           original_titleholder=True, residential_use_confirmed=True)
    assert (row.original_titleholder, row.residential_use_confirmed) == (True, True)
    assert outcome.exemption_continues and not outcome.revoked  # R-B5
    row2, outcome2 = _report(world, kind="spouse_died", change_date=date(2026, 8, 20),
                             original_titleholder=False, residential_use_confirmed=True)
    assert row2.residential_use_confirmed is False  # only a titleholder is asked
    assert not outcome2.exemption_continues and outcome2.revoked
    row3, _ = _report(world, kind="moved", original_titleholder=True,
                      residential_use_confirmed=True)
    assert (row3.original_titleholder, row3.residential_use_confirmed) == (None, None)


def test_only_owners_and_staff_report(world):
    with pytest.raises(NotFound):  # bob cannot see A
        _report(world, user=world.bob)
    with pytest.raises(Forbidden):  # the bank sees C through its loan, but does not own it
        _report(world, parcel="C", user=world.lender_user)
    with pytest.raises(NotFound):  # nor does it see A
        _report(world, user=world.lender_user)
    row, _ = _report(world, parcel="B", user=world.staff)
    assert row.reporter_id == world.staff.id


def test_the_lender_of_a_loan_sees_the_report_to_forward(world):
    row, outcome = _report(world, parcel="C", kind="sold_or_transferred",
                           change_date=date(2026, 10, 1))
    _report(world, parcel="A")  # no loan: not the bank's
    _report(world, parcel="B", user=world.bob)  # its loan ended in 2020: not the bank's
    assert outcome.lender_forwards and row.lender_id is not None
    with world.uow() as uow:
        listed, total = changes.for_lender(uow, world.lender_user)
        assert total == 1 and [x.report.id for x in listed] == [row.id]
        assert listed[0].loan_number == "L-1"
        got, _parcel = changes.get(uow, world.lender_user, row.id)  # the lender may open it
        assert got.id == row.id
        assert changes.for_lender(uow, world.bob) == ([], 0)
        assert changes.for_lender(uow, world.alice) == ([], 0)


def test_reports_are_seen_by_owner_staff_and_lender_only(world):
    row, _ = _report(world)
    with world.uow() as uow:
        assert changes.get(uow, world.alice, row.id)[0].id == row.id
        assert changes.get(uow, world.staff, row.id)[0].id == row.id
        for who in (world.bob, world.lender_user):
            with pytest.raises(NotFound):
                changes.get(uow, who, row.id)
        with pytest.raises(NotFound):
            changes.get(uow, world.alice, 999999)
        assert [r.id for r in changes.for_parcel(uow, world.alice, world.parcel["A"])] == [
            row.id]
        with pytest.raises(NotFound):
            changes.for_parcel(uow, world.bob, world.parcel["A"])


def test_acknowledge_moves_forward_once_and_is_audit_logged(world):
    row, _ = _report(world)
    with world.uow() as uow:
        with pytest.raises(Forbidden):
            changes.acknowledge(uow, world.alice, row.id)
    with world.uow() as uow:
        done = changes.acknowledge(uow, world.staff, row.id).report
        assert (done.status, done.acknowledged_by_id) == ("acknowledged", world.staff.id)
    with world.uow() as uow:
        with pytest.raises(Conflict):
            changes.acknowledge(uow, world.staff, row.id)
        with pytest.raises(NotFound):
            changes.acknowledge(uow, world.staff, 999999)
    with world.uow() as uow:
        rec = uow.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "exemption_change.acknowledged"))
        assert rec.before["status"] == "filed" and rec.after["status"] == "acknowledged"
        listed, total = changes.staff_list(uow, world.staff, status="filed")
        assert (listed, total) == ([], 0)
        listed, total = changes.staff_list(uow, world.staff)
        assert total == 1 and listed[0].catastro == "040-000-000-01"
        with pytest.raises(Forbidden):
            changes.staff_list(uow, world.alice)


def test_a_report_is_never_changed_back_edited_or_deleted(world):
    row, _ = _report(world)
    with world.uow() as uow:
        changes.acknowledge(uow, world.staff, row.id)
    for change in (lambda r: setattr(r, "status", "filed"),
                   lambda r: setattr(r, "late", True),
                   lambda r: setattr(r, "change_date", date(2026, 1, 1)),
                   lambda r: setattr(r, "details", "otra cosa"),
                   lambda r: setattr(r, "acknowledged_by_id", world.alice.id)):
        with pytest.raises(ImmutableRowError), world.uow() as uow:
            change(uow.session.get(ExemptionChangeReport, row.id))
            uow.session.flush()
    with pytest.raises(ImmutableRowError), world.uow() as uow:
        uow.session.delete(uow.session.get(ExemptionChangeReport, row.id))
        uow.session.flush()
    with world.uow() as uow:
        again = uow.session.get(ExemptionChangeReport, row.id)
        assert (again.status, again.late, again.details) == ("acknowledged", False, "")


def test_the_lender_records_forwarding_once(world):
    row, _ = _report(world, parcel="C", kind="moved", change_date=date(2026, 6, 1))
    plain, _ = _report(world, parcel="A")  # no loan: nothing to forward
    for who, rid in ((world.bob, row.id), (world.alice, row.id), (world.staff, row.id),
                     (world.lender_user, plain.id), (world.lender_user, 999999)):
        with pytest.raises(NotFound), world.uow() as uow:
            changes.forward(uow, who, rid)
    with world.uow() as uow:
        done = changes.forward(uow, world.lender_user, row.id)
        assert done.forwarded_by_id == world.lender_user.id
        assert done.forwarded_at == clock.now()
    with pytest.raises(Conflict), world.uow() as uow:
        changes.forward(uow, world.lender_user, row.id)
    with pytest.raises(ImmutableRowError), world.uow() as uow:
        uow.session.get(ExemptionChangeReport, row.id).forwarded_at = None
        uow.session.flush()
    with world.uow() as uow:
        rec = uow.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "exemption_change.forwarded"))
        assert rec.actor_id == world.lender_user.id and rec.before["forwarded_at"] is None
