"""One configuration for every command: with PORTAL_INSTANCE set, `portal db upgrade`,
`portal demo`, the Alembic environment and the web app all use `$PORTAL_INSTANCE/portal.db`."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from portal import config, db

ROOT = Path(__file__).resolve().parents[2]
PORTAL = Path(sys.executable).with_name("portal")


def _env(instance: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "OUTBOX_DIR", "PORTAL_TODAY")}
    env["PORTAL_INSTANCE"] = str(instance)
    return env


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def _mtime(path: Path) -> float | None:
    return path.stat().st_mtime_ns if path.exists() else None


def test_every_setting_follows_the_instance_folder(tmp_path: Path):
    env = {"PORTAL_INSTANCE": str(tmp_path)}
    assert config.instance_path(env) == tmp_path.resolve()
    assert config.database_url(env=env) == f"sqlite:///{tmp_path.resolve() / 'portal.db'}"
    s = config.settings(env, with_key=False)
    assert s["DATABASE_URL"] == config.database_url(env=env)
    assert s["OUTBOX_DIR"] == str(tmp_path.resolve() / "outbox")
    assert config.database_url(env={}) == f"sqlite:///{ROOT / 'instance' / 'portal.db'}"
    assert config.database_url(env={**env, "DATABASE_URL": "postgres://u@h/d"}) == \
        "postgresql+psycopg://u@h/d"


def test_the_app_and_the_database_module_read_the_same_configuration(tmp_path: Path,
                                                                       monkeypatch):
    from portal.app import create_app
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("PORTAL_INSTANCE", str(tmp_path))
    app = create_app({"SECRET_KEY": "x"})
    assert app.config["DATABASE_URL"] == db.database_url() == config.database_url()
    assert Path(app.instance_path) == tmp_path.resolve()


def test_db_upgrade_and_demo_write_the_instance_database(tmp_path: Path):
    instance = tmp_path / "inst"
    default = ROOT / "instance" / "portal.db"
    before = _mtime(default)
    env = _env(instance)

    up = subprocess.run([str(PORTAL), "db", "upgrade"], env=env, cwd=tmp_path,
                        capture_output=True, text=True, timeout=300)
    assert up.returncode == 0, up.stderr
    assert "parcels" in _tables(instance / "portal.db")

    demo = subprocess.run([str(PORTAL), "demo", "--parcels", "30", "--users", "0"],
                          env={**env, "PORTAL_TODAY": "2026-11-30"}, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert demo.returncode == 0, demo.stderr
    assert "Demo loaded" in demo.stdout
    with sqlite3.connect(instance / "portal.db") as conn:
        assert conn.execute("SELECT count(*) FROM users").fetchone()[0] >= 4
    assert _mtime(default) == before, "the repository's instance/portal.db was written"

    current = subprocess.run([str(PORTAL), "db", "current"], env=env, cwd=tmp_path,
                             capture_output=True, text=True, timeout=120)
    assert current.returncode == 0 and current.stdout.strip() not in ("", "base")


def test_alembic_itself_reads_the_instance_database(tmp_path: Path):
    alembic = Path(sys.executable).with_name("alembic")
    if not alembic.exists():
        pytest.skip("the alembic command is not installed")
    instance = tmp_path / "inst"
    up = subprocess.run([str(alembic), "upgrade", "head"], env=_env(instance), cwd=ROOT,
                        capture_output=True, text=True, timeout=300)
    assert up.returncode == 0, up.stderr
    assert "parcels" in _tables(instance / "portal.db")
