"""The portal under gunicorn (portal/gunicorn_conf.py) for a test: migrated SQLite in the
test's folder, a free port, stopped (with its workers) afterwards."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def gunicorn_serving(tmp_path: Path, **env_extra: str) -> Iterator[tuple[str, Path]]:
    """The base URL of gunicorn serving the portal, and its log file (stdout and stderr)."""
    port = _free_port()
    env = {**os.environ, "PORTAL_INSTANCE": str(tmp_path), "PORTAL_BIND": f"127.0.0.1:{port}",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'portal.db'}", "WEB_CONCURRENCY": "2",
           "PORTAL_BASE_URL": f"http://127.0.0.1:{port}", "SECRET_KEY": "x" * 40,
           **env_extra}
    env.pop("REDIS_URL", None)
    bin_dir = Path(sys.executable).parent
    subprocess.run([bin_dir / "portal", "db", "upgrade"], env=env, check=True,
                   capture_output=True)
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([bin_dir / "gunicorn", "-c", "python:portal.gunicorn_conf",
                                 "portal.app:create_app()"], env=env, stdout=out, stderr=out,
                                start_new_session=True)  # its own process group (below)
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):  # until it answers (a readiness wait, not a timed assertion)
        try:
            with urllib.request.urlopen(url + "/cuenta/entrar", timeout=2):
                break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(log.read_text()[-2000:])
            time.sleep(0.1)
    try:
        yield url, log
    finally:
        proc.send_signal(signal.SIGINT)  # gunicorn's quick shutdown (SIGTERM waits)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:  # (under faketime a graceful wait may never end)
            pass
        # The master and its workers: a worker left behind by a master killed mid-shutdown
        # would live on after the test.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
