"""The retention of removed evidence (portal/roll/retention.py, docs/OPERATIONS.md
"Retention"): a file its owner removed is deleted from the store
RETENTION_REMOVED_EVIDENCE_DAYS Puerto Rico days after the certification's first decision
after the removal, by the same daily task as the print files, audited once; one whose
certification awaits its decision is kept however old, and so are bytes another record still
names; 0 keeps them; a malformed value is refused."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from sqlalchemy import select

from portal import clock, storage
from portal.models import AuditRecord, ExemptionEvent, ExemptionEvidence
from portal.operations.settings import ConfigurationError
from portal.roll import retention
from tests.data.test_bulk_review import filings  # noqa: F401 (the fixture)
from tests.support.clock import at

REMOVED = date(2026, 11, 3)
DECIDED = date(2026, 11, 5)


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.delenv("RETENTION_REMOVED_EVIDENCE_DAYS", raising=False)
    monkeypatch.delenv("RETENTION_PRINT_FILE_DAYS", raising=False)
    s = storage.FolderStore(tmp_path / "files")
    storage.use(s)
    yield s
    storage.use(None)


def _evidence(w, cert_id: int, key: str, removed: datetime | None, owner_id: int) -> int:
    row = ExemptionEvidence(certification_id=cert_id, sha256=key, content_type="application/pdf",
                            size_bytes=10, filename="deed.pdf", uploaded_by_id=owner_id,
                            removed_at=removed)
    w.session.add(row)
    w.session.flush()
    return row.id


@pytest.fixture
def scene(filings, store):  # noqa: F811 - the fixture
    """On EX-ok: a removed file (decided after: due), a removed file whose bytes a live file
    of EX-small also holds (kept), a file removed after the decision (not due); on EX-huge,
    still awaiting its decision: a removed file (kept however old)."""
    world, ids = filings
    keys = {name: store.put(f"evidence {name}".encode()) for name in
            ("due", "shared", "late", "waiting")}
    owner = world.lender_user.id
    early, late = at(REMOVED, 10), at(DECIDED, 12)
    with world.uow() as w:
        made = {
            "due": _evidence(w, ids["ok"], keys["due"], early, owner),
            "shared": _evidence(w, ids["ok"], keys["shared"], early, owner),
            "live": _evidence(w, ids["small"], keys["shared"], None, owner),
            "late": _evidence(w, ids["ok"], keys["late"], late, owner),
            "waiting": _evidence(w, ids["huge"], keys["waiting"], early, owner)}
        w.session.add(ExemptionEvent(certification_id=ids["ok"], from_status="under_review",
                                     to_status="approved", actor_id=world.staff.id,
                                     created_at=at(DECIDED, 9)))
    return world, keys, made


def _deleted(world) -> list[str]:
    with world.uow() as w:
        return list(w.session.scalars(select(AuditRecord.object_id).where(
            AuditRecord.action == retention.EVIDENCE_DELETED).order_by(AuditRecord.id)))


def _run(world, day: date) -> dict[str, int]:
    with clock.fixed(at(day, 8)):
        done = retention.run(world.database, day)
    return {k: v for k, v in done.items() if k.startswith("evidence_")}


def test_removed_evidence_is_deleted_days_after_the_decision_once(scene, store):
    world, keys, made = scene
    assert retention.removed_evidence_days() == retention.DEFAULT_REMOVED_EVIDENCE_DAYS == 90
    day_before = DECIDED + timedelta(days=89)
    assert _run(world, day_before) == {"evidence_deleted": 0, "evidence_kept": 0}
    assert all(store.exists(k) for k in keys.values()) and _deleted(world) == []
    done = _run(world, DECIDED + timedelta(days=90))
    assert done == {"evidence_deleted": 1, "evidence_kept": 1}
    assert not store.exists(keys["due"])
    assert store.exists(keys["shared"]) and store.exists(keys["late"])
    assert store.exists(keys["waiting"])  # its certification awaits the decision
    assert _deleted(world) == [str(made["due"])]
    with world.uow() as w:  # the row stays: what was removed, when
        row = w.session.get(ExemptionEvidence, made["due"])
        assert row.filename == "deed.pdf" and row.removed_at is not None
    # the worker's next hourly pass, and years later: nothing more deleted or recorded
    assert _run(world, DECIDED + timedelta(days=91))["evidence_deleted"] == 0
    assert _run(world, DECIDED + timedelta(days=2000))["evidence_deleted"] == 0
    assert _deleted(world) == [str(made["due"])]
    assert store.exists(keys["late"]) and store.exists(keys["waiting"])


def test_zero_days_keeps_them_and_a_bad_value_is_refused(scene, store, monkeypatch):
    world, keys, _made = scene
    monkeypatch.setenv("RETENTION_REMOVED_EVIDENCE_DAYS", "0")
    assert _run(world, DECIDED + timedelta(days=4000)) == {"evidence_deleted": 0,
                                                           "evidence_kept": 0}
    assert store.exists(keys["due"])
    monkeypatch.setenv("RETENTION_REMOVED_EVIDENCE_DAYS", "10")
    assert _run(world, DECIDED + timedelta(days=9))["evidence_deleted"] == 0
    assert _run(world, DECIDED + timedelta(days=10))["evidence_deleted"] == 1
    for bad in ("ninety", "-1", "9.5"):
        monkeypatch.setenv("RETENTION_REMOVED_EVIDENCE_DAYS", bad)
        with pytest.raises(ConfigurationError) as exc:
            retention.removed_evidence_days()
        assert exc.value.problems[0].startswith("RETENTION_REMOVED_EVIDENCE_DAYS: ")
