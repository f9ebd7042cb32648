"""the file store's retention policy (portal/roll/retention.py). The
notices' print files hold new access codes in plain text: their PDFs are deleted from the
store RETENTION_PRINT_FILE_DAYS days after they were made (a daily task, idempotent), the
row and an audit record stay, and an administrator who asks for the file is told, not given
a 500. A key another record still names is kept (the store is content-addressed)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal import clock, storage
from portal.db import UnitOfWork
from portal.jobs import daily, queue
from portal.models import AssessmentRoll, AuditRecord, NoticePrintFile
from portal.roll import retention
from portal.web.data import database
from tests.support.pages import csrf_token, login


@pytest.fixture
def app(demo_app: Flask, tmp_path, monkeypatch):  # noqa: ANN001, ANN201
    monkeypatch.setenv("OUTBOX_DIR", demo_app.config["OUTBOX_DIR"])
    monkeypatch.setenv("PORTAL_BASE_URL", "http://localhost")
    monkeypatch.delenv("RETENTION_PRINT_FILE_DAYS", raising=False)
    monkeypatch.delenv("RETENTION_REMOVED_EVIDENCE_DAYS", raising=False)
    store = storage.FolderStore(tmp_path / "files")
    storage.use(store)
    with demo_app.app_context():
        queue.use_immediate(database())
    demo_app.config["TEST_STORE"] = store
    yield demo_app
    queue.reset()
    storage.use(None)


#: The daily task's answer when it deleted nothing (print files, then removed evidence).
NOTHING = {"deleted": 0, "kept": 0, "evidence_deleted": 0, "evidence_kept": 0}


def _send_notices(app: Flask) -> tuple[int, list[tuple[int, str]]]:
    with app.app_context(), UnitOfWork(database()) as w:
        roll_id = w.session.scalar(select(func.min(AssessmentRoll.id)).where(
            AssessmentRoll.status == "published"))
    admin = login(app, "staff")
    token = csrf_token(admin.get(f"/personal/tasacion/{roll_id}/avisos").text)
    r = admin.post(f"/personal/tasacion/{roll_id}/avisos/enviar", data={"csrf_token": token})
    assert r.status_code == 303
    with app.app_context(), UnitOfWork(database()) as w:
        files = w.session.execute(select(NoticePrintFile.id, NoticePrintFile.storage_key)
                                  .order_by(NoticePrintFile.id)).all()
    assert files
    return roll_id, [tuple(f) for f in files]


def _deleted_records(app: Flask) -> list[str]:
    with app.app_context(), UnitOfWork(database()) as w:
        return list(w.session.scalars(select(AuditRecord.object_id).where(
            AuditRecord.action == "print_file.deleted").order_by(AuditRecord.id)))


def test_print_files_are_deleted_after_the_retention_days_once(app: Flask):
    from portal import domains  # noqa: F401 - registers the daily task
    store = app.config["TEST_STORE"]
    roll_id, files = _send_notices(app)
    made = clock.today()
    with app.app_context():
        db = database()
    assert retention.print_file_days() == retention.DEFAULT_PRINT_FILE_DAYS == 60
    # the day before the 60th: kept
    assert daily.TASKS["retention"](db, made + timedelta(days=59)) == NOTHING
    assert all(store.exists(key) for _id, key in files)
    assert _deleted_records(app) == []
    # the 60th day: every print file's PDF deleted, each recorded once
    done = daily.TASKS["retention"](db, made + timedelta(days=60))
    assert done == {"deleted": len({k for _i, k in files}), "kept": 0, "evidence_deleted": 0,
                    "evidence_kept": 0}
    assert not any(store.exists(key) for _id, key in files)
    assert sorted(_deleted_records(app)) == sorted(str(i) for i, _k in files)
    # again (the worker calls it every hour): nothing more
    assert daily.TASKS["retention"](db, made + timedelta(days=61)) == NOTHING
    assert len(_deleted_records(app)) == len(files)
    # the rows stay (what each file held); the download says it is gone, not 500
    with app.app_context(), UnitOfWork(database()) as w:
        assert w.session.scalar(select(func.count()).select_from(NoticePrintFile)) == len(files)
    admin = login(app, "staff")
    r = admin.get(f"/personal/tasacion/{roll_id}/avisos/archivos/{files[0][0]}.pdf")
    assert r.status_code == 303 and r.headers["Location"].endswith(
        f"/personal/tasacion/{roll_id}/avisos")
    page = admin.get(r.headers["Location"]).text
    assert "retenci" in page  # the Spanish message (the catalog's)


def test_zero_days_keeps_them_and_a_key_named_elsewhere_is_kept(app: Flask, monkeypatch):
    store = app.config["TEST_STORE"]
    _roll_id, files = _send_notices(app)
    made = clock.today()
    with app.app_context():
        db = database()
    monkeypatch.setenv("RETENTION_PRINT_FILE_DAYS", "0")
    assert retention.run(db, made + timedelta(days=400)) == NOTHING
    monkeypatch.setenv("RETENTION_PRINT_FILE_DAYS", "30")
    # a newer print file with the same bytes (the same key) keeps the PDF
    first_id, first_key = files[0]
    with app.app_context(), UnitOfWork(database()) as w:
        old = w.session.get(NoticePrintFile, first_id)
        w.session.add(NoticePrintFile(
            roll_id=old.roll_id, storage_key=first_key, first_parcel_id=old.first_parcel_id,
            last_parcel_id=old.last_parcel_id, notices=old.notices, codes=old.codes,
            created_by_id=old.created_by_id, created_at=clock.now() + timedelta(days=20)))
    done = retention.run(db, made + timedelta(days=30))
    assert done["kept"] == 1 and store.exists(first_key)
    assert all(not store.exists(k) for _i, k in files[1:])
    assert str(first_id) not in _deleted_records(app)
