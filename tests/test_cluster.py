"""The portal in production's shape (docs/OPERATIONS.md): HAProxy in front of three gunicorn
instances, two workers, PostgreSQL, Redis, moto's S3 and an SMTP relay, each process with an
instance folder of its own as separate hosts have (`tests/support/cluster.py`). Marked
`cluster`; `make cluster-test` runs this module alone. Skipped, saying why, where HAProxy,
moto's server, PostgreSQL or Redis is missing.

The checks, in the order the module runs them (they share the cluster):
1. a file uploaded through one instance is read through another;
2. a client's throttle counts its own requests only: another client behind the same
   balancer is served, and a forged `X-Forwarded-For` does not escape it;
3. the worker that runs the assessment notices' job is killed (SIGKILL) midway (its first
   batch committed) and the other worker takes the job over within 30 s and finishes it;
   meanwhile the SMTP relay is down while three people ask for a new password (each request
   served), then up again: every email reaches the relay exactly once; the print files the
   workers made are served by every instance;
4. a rolling restart (SIGTERM, start, ready: one instance at a time) under light load fails
   no request.
"""

from __future__ import annotations

import io
import re
import signal
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.support import cluster as cluster_support

pytestmark = pytest.mark.cluster

_why = cluster_support.missing()
if _why:
    pytest.skip(f"cluster: {_why}", allow_module_level=True)

import requests  # noqa: E402 - moto's server brings it; after the skip
from sqlalchemy import func, select  # noqa: E402

from portal.db import Database, UnitOfWork  # noqa: E402
from portal.demo.district import STAFF_TOTP_SECRET  # noqa: E402
from tests.support.cluster_client import Client  # noqa: E402

#: The demo District's size here: two batches of the notices' job (200 and 100 parcels).
PARCELS = 300
#: Generic owners with an account (each is emailed their notices).
USERS = 30


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):  # noqa: ANN001, ANN201
    root: Path = tmp_path_factory.mktemp("cluster")
    c = cluster_support.Cluster(root)
    try:
        c.start(parcels=PARCELS, users=USERS)  # a failure says which piece, with its log
        yield c
    finally:
        c.close()


@pytest.fixture(scope="module")
def database(cluster):  # noqa: ANN001, ANN201
    db = Database(cluster.database_url)
    yield db
    db.dispose()


def _png() -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 30, 90)).save(out, "PNG")
    return out.getvalue()


def test_a_file_uploaded_through_one_instance_is_read_through_another(cluster, database):
    from portal.exemptions import filings
    from portal.models import ExemptionEvidence, Parcel, User
    from tests.support.clock import fixed_on
    from tests.support.exemption_wizard import HOME_CATASTRO

    with fixed_on(), UnitOfWork(database) as w:  # the draft, on the demo's day
        owner = w.session.scalar(select(User).where(User.email == "owner@demo.pr"))
        home = w.session.scalar(select(Parcel.id).where(Parcel.catastro == HOME_CATASTRO))
        cert_id = filings.start(w, owner, home).id
    owner_client = Client(cluster.web_url(0))
    owner_client.sign_in("owner@demo.pr")
    data = _png()
    page = owner_client.get("/cuenta").text
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    r = owner_client.http.post(f"{cluster.web_url(1)}/exoneracion/{cert_id}/evidencia",
                               data={"csrf_token": token},
                               files={"file": ("carta.png", data, "image/png")},
                               allow_redirects=False, timeout=30)
    assert r.status_code == 303, r.text[:500]
    with UnitOfWork(database) as w:
        evidence_id = w.session.scalar(select(ExemptionEvidence.id).where(
            ExemptionEvidence.certification_id == cert_id))
    assert evidence_id is not None, "the upload was not recorded"
    for n in (0, 2):  # taken by instance b, read through a and c
        got = owner_client.get(f"/exoneracion/{cert_id}/evidencia/{evidence_id}",
                               base=cluster.web_url(n))
        assert got.status_code == 200 and got.content == data, (n, got.status_code)
    got = owner_client.get(f"/exoneracion/{cert_id}/evidencia/{evidence_id}")
    assert got.status_code == 200 and got.content == data  # and through the balancer


def test_one_client_throttled_through_the_balancer_another_not(cluster):
    """RATELIMIT_SIGNIN is 5 a minute here: the sixth "forgot my password" of 127.0.0.2 is
    refused, whichever instance the balancer gave it (the count is in Redis) and whatever
    X-Forwarded-For it made up, while 127.0.0.3, behind the same balancer, is served."""
    noisy, quiet = Client(cluster.url, "127.0.0.2"), Client(cluster.url, "127.0.0.3")

    def forgot(client: Client, n: int) -> int:
        return client.post("/cuenta/olvide", {"email": f"nadie{n}@example.org"},
                           headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code

    statuses = [forgot(noisy, n) for n in range(7)]
    assert 429 not in statuses[:5] and statuses[5:] == [429, 429], statuses
    assert forgot(quiet, 9) in (200, 303)
    assert forgot(noisy, 10) == 429


def _job(database: Database):  # noqa: ANN202
    from portal.models import Job
    with UnitOfWork(database) as w:
        job = w.session.scalar(select(Job).where(Job.kind == "roll.notify"))
        w.session.expunge_all()
        return job


def _relay_outage(cluster, database: Database) -> list[int]:  # noqa: ANN001
    """The relay goes down; three people ask for a new password (each request served, its
    email queued); the worker tries them and is refused; the relay comes back up. The
    emails' ids."""
    from portal.models import OutboxMessage
    with UnitOfWork(database) as w:
        before = w.session.scalar(select(func.max(OutboxMessage.id))) or 0
    cluster.relay.down()
    asker = Client(cluster.url, "127.0.0.4")
    for email in ("owner@demo.pr", "lessee@demo.pr", "lender@demo.pr"):
        assert asker.post("/cuenta/olvide", {"email": email}).status_code == 303
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with UnitOfWork(database) as w:
            rows = list(w.session.execute(
                select(OutboxMessage.id, OutboxMessage.status, OutboxMessage.attempts)
                .where(OutboxMessage.id > before, OutboxMessage.template == "reset")))
        if len(rows) == 3 and all(r.attempts >= 1 for r in rows):
            break
        time.sleep(0.2)
    assert len(rows) == 3 and {r.status for r in rows} == {"pending"}, rows
    assert all(r.attempts >= 1 for r in rows), ("the worker never tried the relay", rows)
    cluster.relay.up()
    return [r.id for r in rows]


def test_a_worker_killed_midway_and_its_job_finished_by_the_other(cluster, database):
    from portal.models import NoticePrintFile, OutboxMessage

    first = cluster.start_worker(0)
    deadline = time.monotonic() + 90
    second = None
    while time.monotonic() < deadline:  # the first worker takes the notices' job
        job = _job(database)
        if job is not None and job.status == "running" and second is None:
            second = cluster.start_worker(1)  # the other one, there before the first dies
        if job is not None and job.status == "running" and job.done > 0:
            break  # its first batch committed: midway
        time.sleep(0.1)
    else:
        pytest.fail(f"the notices' job did not get midway: {job and job.status}\n"
                    f"{cluster.logs()}")
    first.send(signal.SIGKILL)
    taken_by, done_by_first = job.worker_token, job.done
    first.wait(10)
    killed_at = time.monotonic()
    asked = _relay_outage(cluster, database)  # meanwhile (the takeover waits 20 s)
    taken_over_after = None
    deadline = killed_at + 90
    while time.monotonic() < deadline:
        job = _job(database)
        if taken_over_after is None and job.worker_token not in (None, taken_by):
            taken_over_after = time.monotonic() - killed_at
        if job.status in ("succeeded", "failed"):
            break
        time.sleep(0.2)
    finished_after = time.monotonic() - killed_at
    print(f"cluster: the job taken over {taken_over_after} s after its worker was "  # noqa: T201
          f"killed, finished after {finished_after:.1f} s")  # (the figures, shown with -s)
    assert job.status == "succeeded", (job.status, job.error_code, cluster.logs())
    # the promise (docs/JOBS.md): taken over within 30 s of its worker's death; the batch
    # the first worker committed is kept (the second does the rest)
    assert taken_over_after is not None and taken_over_after <= 30, taken_over_after
    assert 0 < done_by_first < job.total
    assert second.alive()

    # Every email (the job's, those asked for while the relay was down) reaches it, once.
    deadline = time.monotonic() + 120  # (a refused one waits 30 s, then the next sweep)
    while time.monotonic() < deadline:
        with UnitOfWork(database) as w:
            pending = w.session.scalar(select(func.count()).select_from(OutboxMessage)
                                       .where(OutboxMessage.status != "sent"))
        if not pending:
            break
        time.sleep(0.25)
    with UnitOfWork(database) as w:
        sent = list(w.session.scalars(select(OutboxMessage.message_id)
                                      .where(OutboxMessage.status == "sent")))
        files = list(w.session.scalars(select(NoticePrintFile.id)
                                       .order_by(NoticePrintFile.id)))
        roll_id = w.session.scalar(select(NoticePrintFile.roll_id).limit(1))
        retried = list(w.session.scalars(select(OutboxMessage.attempts)
                                         .where(OutboxMessage.id.in_(asked))))
    assert not pending, cluster.logs()
    relayed = Counter(cluster.relay.handler.message_ids())
    assert len(sent) >= USERS and sorted(relayed) == sorted(sent), (len(sent), len(relayed))
    assert max(relayed.values()) == 1
    assert len(retried) == len(asked) and min(retried) >= 2  # refused once, then sent

    # The worker's print files, from every instance.
    assert len(files) == 2
    staff = Client(cluster.url)
    staff.sign_in("staff@demo.pr", STAFF_TOTP_SECRET)
    bodies = set()
    for n in range(cluster.web_n):
        for file_id in files:
            r = staff.get(f"/personal/tasacion/{roll_id}/avisos/archivos/{file_id}.pdf",
                          base=cluster.web_url(n))
            assert r.status_code == 200 and r.content.startswith(b"%PDF"), (n, r.status_code)
            bodies.add((file_id, r.content))
    assert len(bodies) == len(files)  # the same bytes from each


def test_a_rolling_restart_under_load_fails_no_request(cluster):
    """Each instance in turn: SIGTERM (it finishes its requests and exits), started again,
    ready; meanwhile two clients keep asking the balancer for pages: none fails."""
    failures: list[str] = []
    served = Counter()
    stop = threading.Event()

    def load(source: str) -> None:
        client = Client(cluster.url, source)
        while not stop.is_set():
            for path in ("/", "/cuenta/entrar", "/healthz"):
                try:
                    status = client.get(path).status_code
                except requests.RequestException as exc:
                    failures.append(f"{path}: {type(exc).__name__}")
                    continue
                served[status] += 1
                if status != 200:
                    failures.append(f"{path}: {status}")
            time.sleep(0.1)

    threads = [threading.Thread(target=load, args=(f"127.0.0.{n}",), daemon=True)
               for n in (5, 6)]
    for t in threads:
        t.start()
    try:
        for n in range(cluster.web_n):
            old = cluster.web[n]
            old.send(signal.SIGTERM)
            assert old.wait(30) == 0, f"{old.name} did not stop"
            cluster.start_web(n)
            cluster.wait_web(n)
            cluster.wait_in_balancer(n)
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    assert failures == [], (failures[:10], served)
    assert served[200] > 30, served
