"""The restore drill of docs/OPERATIONS.md ("Backups", "Restore"), performed: the demo
District on a PostgreSQL database and a file store in moto's S3 server, its notices' job run
(print files in the bucket); the backup (`pg_dump --format=custom`, `portal files copy` to a
backup bucket); the live database dropped and the live bucket emptied; the restore
(`createdb`, `pg_restore --no-owner`, `portal files copy` into a fresh bucket, `portal db
upgrade`); then the portal started on the restored pair answers `/readyz`, serves the same
parcel page as before and the same stored documents, byte for byte.

Marked `cluster` (PostgreSQL and moto's server, as `tests/test_cluster.py`); skipped, saying
why, where PostgreSQL, moto's server or the PostgreSQL client programs are missing."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import cluster as cluster_support

pytestmark = pytest.mark.cluster

_why = cluster_support.missing(balancer=False) or next(
    (f"the PostgreSQL client program {p} is not installed (apt-get install postgresql-client)"
     for p in ("pg_dump", "pg_restore", "createdb") if shutil.which(p) is None), None)
if _why:
    pytest.skip(f"restore drill: {_why}", allow_module_level=True)

from sqlalchemy import select  # noqa: E402

from portal import storage  # noqa: E402
from portal.db import UnitOfWork, reset_databases  # noqa: E402
from tests.support.app import make_app  # noqa: E402
from tests.support.clock import TODAY, fixed_on  # noqa: E402
from tests.support.pages import csrf_token, login  # noqa: E402

PG = "postgresql://postgres@127.0.0.1:5432/{name}"
PARCELS = 40
#: What differs between two answers of the same page: per-request secrets.
VOLATILE = re.compile(r'(nonce|value|content)="[A-Za-z0-9_\-.=+/]{20,}"')


def _portal(*argv: str, env: dict[str, str]) -> str:
    done = subprocess.run([str(cluster_support.BIN / "portal"), *argv], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, f"portal {' '.join(argv)}: {done.stderr[-3000:]}"
    return done.stdout


def _run(*argv: str) -> None:
    done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(argv)}: {done.stderr[-3000:]}"


def _drop(name: str) -> None:
    import psycopg
    with psycopg.connect(cluster_support.PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pair(tmp_path, monkeypatch):  # noqa: ANN001, ANN201
    """moto's S3 server (the live, backup and restored buckets) and the database names
    (created by the test, dropped after it)."""
    import boto3
    from moto.server import ThreadedMotoServer
    port = cluster_support.free_port()
    endpoint = f"http://127.0.0.1:{port}"
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    tag = f"{os.getpid()}_{os.urandom(3).hex()}"
    names = {"live": f"portal_drill_live_{tag}", "restored": f"portal_drill_restored_{tag}"}
    for k, v in {"STORAGE_S3_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "testing",
                 "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1",
                 "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}.items():
        monkeypatch.setenv(k, v)
    for k in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "PORTAL_TODAY"):
        monkeypatch.delenv(k, raising=False)
    s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
    for bucket in ("portal-live", "portal-backup", "portal-restored"):
        s3.create_bucket(Bucket=bucket)
    storage.use(None)
    try:
        yield names, s3
    finally:
        reset_databases()
        for name in names.values():
            _drop(name)
        server.stop()


def _env(tmp_path: Path, database: str, bucket: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PORTAL_", "MAIL_"))}
    env.update({"DATABASE_URL": PG.format(name=database).replace(
        "postgresql://", "postgresql+psycopg://"), "STORAGE_S3_BUCKET": bucket,
        "PORTAL_INSTANCE": str(tmp_path / f"instance-{bucket}")})
    return env


def _seen(app, monkeypatch, bucket: str, documents: list[int], roll_id: int
          ) -> tuple[str, dict[int, bytes]]:
    """The owner's first parcel page (per-request secrets left out) and each print file's
    bytes as staff download them, from `app` on `bucket`."""
    monkeypatch.setenv("STORAGE_S3_BUCKET", bucket)
    assert app.test_client().get("/readyz").status_code == 200
    owner = login(app, "owner")
    dashboard = owner.get("/mis-propiedades").get_data(as_text=True)
    first = re.search(r'href="(/propiedad/\d+)"', dashboard).group(1)
    page = owner.get(first)
    assert page.status_code == 200
    staff = login(app, "staff")
    files = {}
    for file_id in documents:
        r = staff.get(f"/personal/tasacion/{roll_id}/avisos/archivos/{file_id}.pdf")
        assert r.status_code == 200 and r.data.startswith(b"%PDF"), r.status_code
        files[file_id] = r.data
    return first + "\n" + VOLATILE.sub("", page.get_data(as_text=True)), files


def test_the_restore_drill(pair, tmp_path, monkeypatch):
    from portal.jobs import queue
    from portal.models import AssessmentRoll, NoticePrintFile
    from portal.web.data import database
    names, s3 = pair
    live = _env(tmp_path, names["live"], "portal-live")
    _run("createdb", "-h", "127.0.0.1", "-U", "postgres", names["live"])
    _portal("db", "upgrade", env=live)
    _portal("demo", "--no-migrate", "--parcels", str(PARCELS), "--users", "2", env=live)

    with fixed_on(TODAY):
        # the live portal: the notices' job run (its print files in the live bucket)
        monkeypatch.setenv("STORAGE_S3_BUCKET", "portal-live")
        app = make_app(tmp_path / "live", live["DATABASE_URL"])
        with app.app_context():
            queue.use_immediate(database())
            with UnitOfWork(database()) as w:
                roll_id = w.session.scalar(select(AssessmentRoll.id).where(
                    AssessmentRoll.status == "published").order_by(AssessmentRoll.id))
        try:
            staff = login(app, "staff")
            token = csrf_token(staff.get(f"/personal/tasacion/{roll_id}/avisos").text)
            assert staff.post(f"/personal/tasacion/{roll_id}/avisos/enviar",
                              data={"csrf_token": token}).status_code == 303
        finally:
            queue.reset()
        with app.app_context(), UnitOfWork(database()) as w:
            documents = list(w.session.scalars(select(NoticePrintFile.id).order_by(
                NoticePrintFile.id)))
        assert documents, "the notices' job printed nothing"
        before = _seen(app, monkeypatch, "portal-live", documents, roll_id)
        reset_databases()

        # the backup (docs/OPERATIONS.md "Backups"), then the live pair lost
        dump = tmp_path / "portal.dump"
        _run("pg_dump", "--format=custom", f"--file={dump}", PG.format(name=names["live"]))
        _portal("files", "copy", "portal-live", "portal-backup", env=live)
        _drop(names["live"])
        for obj in s3.list_objects_v2(Bucket="portal-live").get("Contents", []):
            s3.delete_object(Bucket="portal-live", Key=obj["Key"])

        # the restore (docs/OPERATIONS.md "Restore") into a fresh database and bucket
        restored = _env(tmp_path, names["restored"], "portal-restored")
        _run("createdb", "-h", "127.0.0.1", "-U", "postgres", names["restored"])
        _run("pg_restore", "--no-owner", f"--dbname={PG.format(name=names['restored'])}",
             str(dump))
        _portal("files", "copy", "portal-backup", "portal-restored", env=restored)
        _portal("db", "upgrade", env=restored)
        app = make_app(tmp_path / "restored", restored["DATABASE_URL"])
        after = _seen(app, monkeypatch, "portal-restored", documents, roll_id)

    assert after[0] == before[0]  # the same parcel page
    assert after[1] == before[1]  # the same documents, byte for byte (the live pair is gone)
