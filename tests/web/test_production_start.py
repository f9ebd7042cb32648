"""Production (`PORTAL_ENV=production`) refuses to start, one line per problem, on a
development configuration; development starts with nothing set (portal.operations.settings)."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import text

from portal.app import create_app
from portal.db import reset_databases
from portal.operations.settings import ConfigurationError
from tests.support.schema import throwaway_database

GOOD = {"PORTAL_ENV": "production", "SECRET_KEY": "k" * 40,
        "PORTAL_BASE_URL": "https://portal.example.pr", "STORAGE_S3_BUCKET": "portal-files"}
VARIABLES = ("PORTAL_ENV", "SECRET_KEY", "DATABASE_URL", "PORTAL_BASE_URL",
             "STORAGE_S3_BUCKET", "PORTAL_TODAY", "TRUSTED_PROXIES", "REDIS_URL",
             "RETENTION_PRINT_FILE_DAYS", "RETENTION_REMOVED_EVIDENCE_DAYS")


@pytest.fixture
def environment(monkeypatch, tmp_path):  # noqa: ANN001, ANN201
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PORTAL_INSTANCE", str(tmp_path))

    def set_(values: dict[str, str]) -> None:
        for k, v in values.items():
            monkeypatch.setenv(k, v)
    yield set_
    reset_databases()
    root = logging.getLogger()  # production logs JSON from the root: back as it was
    for handler in [h for h in root.handlers if getattr(h, "_portal_handler", False)]:
        root.removeHandler(handler)


def _refusal(**config) -> list[str]:  # noqa: ANN003
    with pytest.raises(ConfigurationError) as caught:
        create_app(config or None)
    return caught.value.problems


def test_development_starts_with_nothing_set(environment, tmp_path):
    app = create_app()
    assert app.config["DATABASE_URL"].startswith("sqlite:///")
    assert (tmp_path / "secret_key").exists()


def test_production_names_every_problem_of_a_development_setup(environment):
    environment({"PORTAL_ENV": "production", "PORTAL_TODAY": "2026-11-30",
                 "PORTAL_BASE_URL": "http://portal.example.pr"})
    problems = _refusal()
    assert [p.split(":")[0] for p in problems] == [
        "SECRET_KEY", "DATABASE_URL", "PORTAL_BASE_URL", "STORAGE_S3_BUCKET", "PORTAL_TODAY"]


def test_production_refuses_sqlite(environment, tmp_path):
    environment({**GOOD, "DATABASE_URL": f"sqlite:///{tmp_path / 'p.db'}"})
    assert [p.split(":")[0] for p in _refusal()] == ["DATABASE_URL"]


def test_a_malformed_value_is_refused_in_any_mode(environment):
    environment({"TRUSTED_PROXIES": "two"})
    [problem] = _refusal()
    assert problem.startswith("TRUSTED_PROXIES: ")


@pytest.mark.parametrize("days", ["sixty", "-5", "30.5", "60 days"])
def test_a_malformed_retention_is_refused_not_taken_for_sixty_days(environment, tmp_path,
                                                                   days):
    environment({**GOOD, "DATABASE_URL": "postgresql+psycopg://u@127.0.0.1:1/none",
                 "RETENTION_PRINT_FILE_DAYS": days})
    [problem] = _refusal()  # the one line, before the schema is even asked
    assert problem.startswith("RETENTION_PRINT_FILE_DAYS: "), problem
    from portal.roll import retention
    with pytest.raises(ConfigurationError):  # the worker's pass does not guess either
        retention.print_file_days()


def test_a_malformed_evidence_retention_is_refused_at_start(environment):
    environment({**GOOD, "DATABASE_URL": "postgresql+psycopg://u@127.0.0.1:1/none",
                 "RETENTION_REMOVED_EVIDENCE_DAYS": "ninety"})
    [problem] = _refusal()
    assert problem.startswith("RETENTION_REMOVED_EVIDENCE_DAYS: "), problem


def test_the_worker_refuses_to_start_on_a_malformed_setting(environment):
    from click.testing import CliRunner

    from portal.cli import main
    environment({"RETENTION_PRINT_FILE_DAYS": "sixty"})
    done = CliRunner().invoke(main, ["worker"])
    assert done.exit_code == 1 and "RETENTION_PRINT_FILE_DAYS: " in done.output, done.output


def test_a_retention_in_days_is_taken(environment):
    from portal.roll import retention
    environment({"RETENTION_PRINT_FILE_DAYS": " 0 "})
    assert retention.print_file_days() == 0
    environment({"RETENTION_PRINT_FILE_DAYS": "45"})
    assert retention.print_file_days() == 45
    environment({"RETENTION_PRINT_FILE_DAYS": ""})
    assert retention.print_file_days() == retention.DEFAULT_PRINT_FILE_DAYS


def test_production_refuses_an_unmigrated_schema_then_starts_once_migrated(environment):
    from portal import db

    with throwaway_database() as url:
        environment({**GOOD, "DATABASE_URL": url})
        [problem] = _refusal()
        assert problem.startswith("schema: ") and "portal db upgrade" in problem
        reset_databases()
        db.upgrade(url)
        app = create_app()
        assert app.config["PORTAL_ENV"] == "production"


def test_postgresql_connections_carry_an_application_name(monkeypatch):
    from portal.db import make_engine

    monkeypatch.setenv("PORTAL_DB_APPLICATION_NAME", "portal-web-a")
    with throwaway_database() as url:
        engine = make_engine(url)
        try:
            with engine.connect() as conn:
                assert conn.execute(text("SHOW application_name")).scalar() == "portal-web-a"
        finally:
            engine.dispose()


@pytest.mark.usefixtures("environment")
def test_errors_go_to_sentry_when_a_dsn_is_set():
    import sentry_sdk

    try:
        create_app({"SENTRY_DSN": "https://public@sentry.example.pr/1"})
        client = sentry_sdk.get_client()
        assert client.is_active() and client.dsn == "https://public@sentry.example.pr/1"
        assert not client.should_send_default_pii()
    finally:
        sentry_sdk.get_client().close(timeout=0)
        sentry_sdk.get_global_scope().set_client(None)  # reporting off for the other tests
    assert not sentry_sdk.get_client().is_active()
