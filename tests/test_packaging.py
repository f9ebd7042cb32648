"""The compose file (compose.yaml) for the operations team: it cannot be run here (no registry
for the base images), so what can be checked is: every service is there, and each portal
process is given every setting production refuses to start without."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from portal.operations.settings import load

ROOT = Path(__file__).resolve().parents[1]
PORTAL_SERVICES = ("migrate", "web-a", "web-b", "worker")


def _compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_the_compose_file_runs_web_worker_postgres_redis_and_s3():
    services = _compose()["services"]
    assert {"postgres", "redis", "minio", *PORTAL_SERVICES} <= set(services)
    assert services["worker"]["command"] == ["portal", "worker"]
    assert services["migrate"]["command"] == ["portal", "db", "upgrade"]


def test_each_portal_process_passes_production_checks():
    services = _compose()["services"]
    for name in PORTAL_SERVICES:
        env = {k: str(v) for k, v in services[name]["environment"].items()}
        # The secrets come from the operator's .env: stand-ins of the right shape.
        filled = {k: v.replace("${SECRET_KEY:?set SECRET_KEY}", "k" * 40)
                  .replace("${PORTAL_BASE_URL:?https address}", "https://portal.example.pr")
                  for k, v in env.items()}
        assert load(filled).production_problems() == [], name
        assert filled["PORTAL_ENV"] == "production"


# --- systemd's unit files (deploy/systemd/) --------------------------------------------------

UNITS = ROOT / "deploy" / "systemd"


def _unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read(UNITS / name)
    return parser


def test_the_unit_files_start_the_documented_commands_with_production_settings():
    web, worker, migrate = (_unit(n) for n in ("portal-web@.service", "portal-worker@.service",
                                               "portal-migrate.service"))
    assert web["Service"]["ExecStart"].endswith(
        'gunicorn -c python:portal.gunicorn_conf "portal.app:create_app()"')
    assert worker["Service"]["ExecStart"].endswith("portal worker")
    assert migrate["Service"]["ExecStart"].endswith("portal db upgrade")
    assert migrate["Service"]["Type"] == "oneshot"
    for unit in (web, worker):
        assert unit["Install"]["WantedBy"] == "multi-user.target"
        assert unit["Service"]["KillSignal"] == "SIGTERM"  # graceful for both (docs/JOBS.md)
        # each instance its own folder (the control socket), as separate hosts have
        assert "%i" in unit["Service"]["Environment"]
    example = dict(line.split("=", 1) for line in
                   (UNITS / "portal.env.example").read_text().splitlines()
                   if line and not line.startswith("#"))
    assert load(example).production_problems() == []
    assert "deploy/systemd/" in (ROOT / "docs" / "OPERATIONS.md").read_text()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed")
def test_systemd_verifies_the_unit_files(tmp_path):
    """`systemd-analyze verify` on a copy whose commands point at this checkout's virtual
    environment (it checks that they exist); a warning about a file counts as a failure."""
    bin_dir = str(Path(sys.executable).parent)
    for unit in UNITS.glob("*.service"):
        (tmp_path / unit.name).write_text(
            unit.read_text().replace("/opt/portal/.venv/bin", bin_dir))
    names = [str(tmp_path / n) for n in ("portal-web@a.service", "portal-worker@1.service",
                                         "portal-migrate.service")]
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", *names],
                          capture_output=True, text=True, timeout=60)
    said = [line for line in (done.stdout + done.stderr).splitlines()
            if str(tmp_path) in line or "portal-" in line]
    assert done.returncode == 0 and said == [], done.stdout + done.stderr
