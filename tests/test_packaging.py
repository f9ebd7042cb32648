"""The compose file (compose.yaml) for the operations team: it cannot be run here (no registry
for the base images), so what can be checked is: every service is there, and each portal
process is given every setting production refuses to start without."""

from __future__ import annotations

from pathlib import Path

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
