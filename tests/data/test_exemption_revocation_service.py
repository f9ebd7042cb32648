"""A change report acknowledged by a reviewer ends the exemption (R-B15, R-B18): the approved
certification moves to `revoked` from the first fiscal year the change counts from, with the
years billed again without it, an event and an audit row naming the reviewer; the years before
still hold it. The owner attaches evidence to a report (R-B17), checked and stored as a
certification's evidence is. On SQLite and PostgreSQL, the clock set."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal import clock, storage
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.exemptions import changes, filings, review
from portal.exemptions.status import exemption_status
from portal.models import (
    AuditRecord,
    ExemptionCertification,
    ExemptionChangeEvidence,
    ExemptionChangeReport,
    ExemptionEvent,
    ImmutableRowError,
    OwnershipShare,
    Party,
    PartyMember,
    PropertyTaxFact,
    User,
)
from tests.support.bombs import png_bomb
from tests.support.clock import at
from tests.support.world import build

FY = date(2026, 7, 1)


def _png() -> bytes:
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (20, 20), (1, 2, 3)).save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture
def world(database, tmp_path):  # noqa: ANN001, ANN201
    storage.use(storage.FolderStore(tmp_path / "files"))
    w = build(database)
    with w.uow() as uow:
        s = uow.session
        alice = Party(kind="person", name="Alice Rivera")
        s.add(alice)
        s.flush()
        s.add(PartyMember(party_id=alice.id, user_id=w.alice.id, role="self"))
        s.add(OwnershipShare(parcel_id=w.parcel["A"], party_id=alice.id, share=Decimal(1),
                             kind="sole", starts_on=date(2015, 1, 1)))
        for fy in (FY, date(2027, 7, 1)):
            s.add(PropertyTaxFact(parcel_id=w.parcel["A"], fiscal_year_start=fy,
                                  municipality="San Juan", zone="urban",
                                  land_area_cuerdas=Decimal("0.05"),
                                  land_valuation=Decimal("4000.00"),
                                  structure_valuation=Decimal("16000.00"),
                                  debt_on_january_1=Decimal(0), illustrative=True,
                                  source="test"))
        w.alice_party = alice.id
    yield w
    storage.use(None)


def _user(uow, user):  # noqa: ANN001, ANN202
    return uow.session.get(User, user.id)


def _approved(world) -> int:  # noqa: ANN001
    """Alice's certification of parcel A for FY 2026-2027, filed on 2026-11-30, approved."""
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        cert = filings.start(uow, alice, world.parcel["A"])
        for step, data in (("owners", {"owners": [world.alice_party]}),
                           ("occupants", {"occupants": "Alice"}), ("use", {"use": "home"}),
                           ("rent", {"rent": "no"}), ("residential", {"residential": "all"}),
                           ("veteran", {"veteran": "no"}), ("cooperative", {"cooperative": "no"})):
            filings.save_step(uow, alice, cert.id, step, data)
        filings.file(uow, alice, cert.id, attested=True, full_name="Alice Rivera")
        staff = _user(uow, world.staff)
        review.take_up(uow, staff, cert.id)
        review.approve(uow, staff, cert.id)
        return cert.id


def _report(world, **kw):  # noqa: ANN001, ANN003, ANN202
    kw.setdefault("kind", "moved")
    kw.setdefault("change_date", date(2026, 3, 15))
    with world.uow() as uow:
        row, _outcome = changes.report(uow, _user(uow, world.alice), world.parcel["A"],
                                       attested_name="Alice Rivera", **kw)
        return row.id


def test_revoked_from_the_first_year_the_change_counts_from_and_audited(world):
    """Moved out 2026-03-15, reported 2026-11-30, acknowledged 2026-12-02 (FY 2026-2027 in
    course): the first January 1 after the change is 2027-01-01, so FY 2027-2028 is the first
    without the exemption, and the only year billed again (it has not begun); FY 2026-2027
    keeps it (R-B18)."""
    cid = _approved(world)
    rid = _report(world)
    with clock.fixed(at(date(2026, 12, 2))), world.uow() as uow:
        done = changes.acknowledge(uow, _user(uow, world.staff), rid, revoke=True)
        assert done.revocation.fiscal_years == (2027,)
        assert done.catastro == "040-000-000-01"
    with world.uow() as uow:
        cert = uow.session.get(ExemptionCertification, cid)
        assert (cert.status, cert.revoked_from, cert.revoked_through, cert.revoked_by_report_id) \
            == ("revoked", date(2027, 7, 1), date(2027, 7, 1), rid)
        assert cert.decided_by_id == world.staff.id
        row = uow.session.get(ExemptionChangeReport, rid)
        assert (row.status, row.decision) == ("acknowledged", "revoked")
        # The years before still hold it; from FY 2027-2028 it is revoked (R-B15, R-B18).
        assert exemption_status(uow, world.parcel["A"], FY).status == "approved"
        later = exemption_status(uow, world.parcel["A"], date(2027, 7, 1))
        assert (later.status, later.revoked_from) == ("revoked", date(2027, 7, 1))
        event = uow.session.scalars(select(ExemptionEvent).where(
            ExemptionEvent.certification_id == cid).order_by(ExemptionEvent.id.desc())).first()
        assert (event.from_status, event.to_status, event.actor_id) == (
            "approved", "revoked", world.staff.id)
        rec = uow.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "exemption.revoked"))
        assert rec.actor_id == world.staff.id and rec.object_id == str(cid)
        assert rec.before["status"] == "approved" and rec.after["status"] == "revoked"
        owner, lenders = changes.contacts(uow, row)
        assert owner == ("alice@test.pr", "es") and lenders == []
        assert changes.revocation_of(cert, row).fiscal_years == (2027,)
    with pytest.raises(ImmutableRowError), world.uow() as uow:  # revoked is final
        uow.session.get(ExemptionCertification, cid).status = "approved"
        uow.session.flush()


def test_a_late_report_bills_every_year_since_the_change_and_not_before_the_approval(world):
    """Moved out 2025-12-01 and reported late on 2027-08-02 (FY 2027-2028 in course): the
    change counts from FY 2026-2027 (January 1, 2026), which is also the approved year, so
    both FY 2026-2027 and FY 2027-2028 are billed without it (R-B18: a late report does not
    move the year)."""
    cid = _approved(world)
    with clock.fixed(at(date(2027, 8, 2))):
        rid = _report(world, change_date=date(2025, 12, 1))
        with world.uow() as uow:
            done = changes.acknowledge(uow, _user(uow, world.staff), rid, revoke=True)
            assert done.revocation.fiscal_years == (2026, 2027)
    with world.uow() as uow:
        cert = uow.session.get(ExemptionCertification, cid)
        assert (cert.revoked_from, cert.revoked_through) == (date(2026, 7, 1), date(2027, 7, 1))
        assert exemption_status(uow, world.parcel["A"], FY).status == "revoked"


def test_what_cannot_be_revoked_changes_nothing(world):
    rid = _report(world)
    with pytest.raises(Conflict) as e, world.uow() as uow:  # no approved exemption
        changes.acknowledge(uow, _user(uow, world.staff), rid, revoke=True)
    assert e.value.code == "no_exemption"
    cid = _approved(world)
    keeps = _report(world, kind="spouse_died", change_date=date(2026, 8, 20),
                    original_titleholder=True, residential_use_confirmed=True)
    with pytest.raises(Conflict) as e, world.uow() as uow:  # R-B19: the survivor keeps it
        changes.acknowledge(uow, _user(uow, world.staff), keeps, revoke=True)
    assert e.value.code == "exemption_continues"
    with world.uow() as uow:
        assert uow.session.get(ExemptionChangeReport, rid).status == "filed"
        assert uow.session.get(ExemptionCertification, cid).status == "approved"
        done = changes.acknowledge(uow, _user(uow, world.staff), rid)  # the reviewer's finding
        assert (done.report.decision, done.certification) == ("continues", None)
    with world.uow() as uow:
        assert uow.session.get(ExemptionCertification, cid).status == "approved"


def test_evidence_on_a_report_is_the_owners_to_add_and_the_reviewers_to_see(world):
    rid = _report(world)
    with world.uow() as uow:
        ev = changes.add_evidence(uow, _user(uow, world.alice), rid, _png(), "C:\\fotos\\x.png")
        assert (ev.content_type, ev.filename) == ("image/png", "x.png")
    for who in ("bob", "lender_user"):
        with pytest.raises(NotFound), world.uow() as uow:
            changes.add_evidence(uow, _user(uow, getattr(world, who)), rid, _png(), "y.png")
    with pytest.raises(InvalidInput) as e, world.uow() as uow:
        changes.add_evidence(uow, _user(uow, world.alice), rid, png_bomb(), "bomb.png")
    assert e.value.code == "evidence_oversized"
    with pytest.raises(InvalidInput) as e, world.uow() as uow:
        changes.add_evidence(uow, _user(uow, world.alice), rid, b"MZ\x90\x00", "a.exe")
    assert e.value.code == "evidence_type"
    with world.uow() as uow:
        row, data = changes.read_evidence(uow, _user(uow, world.staff), rid, ev.id)
        assert data == _png() and row.id == ev.id
        with pytest.raises(NotFound):
            changes.read_evidence(uow, _user(uow, world.bob), rid, ev.id)
        for _k in range(9):
            changes.add_evidence(uow, _user(uow, world.alice), rid, _png(), "z.png")
    with pytest.raises(InvalidInput) as e, world.uow() as uow:
        changes.add_evidence(uow, _user(uow, world.alice), rid, _png(), "11.png")
    assert e.value.code == "evidence_too_many"
    with world.uow() as uow:
        changes.acknowledge(uow, _user(uow, world.staff), rid)
    other = _report(world, kind="rented")
    with pytest.raises(Conflict) as e, world.uow() as uow:
        changes.add_evidence(uow, _user(uow, world.alice), rid, _png(), "late.png")
    assert e.value.code == "change_acknowledged"
    with pytest.raises(NotFound), world.uow() as uow:  # a file of another report
        changes.read_evidence(uow, _user(uow, world.staff), other, ev.id)
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(
            ExemptionChangeEvidence)) == 10
