"""Fixtures for the web tests: an app on a fresh SQLite file migrated to head, a test client.

The schema comes only from the migrations (`portal.db.upgrade`): it is built once per test
session into a template file, which each test copies (fast, and every test starts clean).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from portal import clock
from portal.app import create_app
from portal.db import reset_databases, upgrade

TODAY = date(2026, 11, 30)


@pytest.fixture(scope="session")
def schema_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("schema") / "schema.db"
    upgrade(f"sqlite:///{path}", "head")
    reset_databases()
    return path


def make_app(tmp_path: Path, db_file: Path, **overrides) -> Flask:  # noqa: ANN003
    target = tmp_path / "portal.db"
    shutil.copyfile(db_file, target)
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "DATABASE_URL": f"sqlite:///{target}",
        "OUTBOX_DIR": str(tmp_path / "outbox"),
        "MAIL_SERVER": None,
        "SERVER_NAME": "localhost",
        "PORTAL_BASE_URL": "http://localhost",
        "RATELIMIT_ENABLED": False,
    }
    config.update(overrides)
    return create_app(config)


@pytest.fixture
def fixed_today() -> Iterator[date]:
    with clock.fixed(TODAY):
        yield TODAY


@pytest.fixture
def app(tmp_path: Path, schema_db: Path, fixed_today: date) -> Iterator[Flask]:
    application = make_app(tmp_path, schema_db)
    yield application
    reset_databases()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def csrf_token(html: str) -> str:
    m = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
    assert m, "no CSRF token on the page"
    return m.group(1)


def outbox(app: Flask) -> list[Path]:
    folder = Path(app.config["OUTBOX_DIR"])
    return sorted(folder.glob("*.eml")) if folder.exists() else []


# --- The demo District (portal.demo.district), loaded once per session ---------------------

PASSWORD = "Distrito2026!"
ROLES = {"owner": "owner@demo.pr", "lessee": "lessee@demo.pr", "lender": "lender@demo.pr",
         "staff": "staff@demo.pr", "other": "user00001@demo.pr"}


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory, schema_db: Path):
    """A migrated SQLite file with the demo District, and the demo's result (codes)."""
    from portal.db import Database
    from portal.demo import district
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    shutil.copyfile(schema_db, path)
    database = Database(f"sqlite:///{path}")
    with clock.fixed(TODAY):
        result = district.load(database, users_n=len(district.SIGN_INS) + 2)
    database.dispose()
    return path, result


@pytest.fixture
def demo_app(tmp_path: Path, demo_db, fixed_today: date) -> Iterator[Flask]:
    application = make_app(tmp_path, demo_db[0])
    application.config["DEMO"] = demo_db[1]
    yield application
    reset_databases()


def login(app: Flask, role_or_email: str, password: str = PASSWORD) -> FlaskClient:
    """A test client signed in as a demo role (owner, lessee, lender, staff, other); staff
    through the second step too, with the demo's TOTP secret."""
    from portal.demo.district import STAFF_TOTP_SECRET
    client = app.test_client()
    email = ROLES.get(role_or_email, role_or_email)
    page = client.get("/cuenta/entrar").get_data(as_text=True)
    r = client.post("/cuenta/entrar", data={"csrf_token": csrf_token(page), "email": email,
                                            "password": password})
    assert r.status_code == 303, f"could not sign in as {email}"
    if r.headers["Location"].endswith("/cuenta/verificar"):
        second_step(client, STAFF_TOTP_SECRET)
    return client


def totp_code(secret: str) -> str:
    """The code an authenticator shows now for `secret`, on a fresh time step: a fixed clock
    moves on 30 seconds first (a step's code is accepted once, as the next sign-in of a
    person would come in a later step)."""
    import pyotp
    if clock.is_fixed():
        clock.set_fixed(clock.now() + timedelta(seconds=30))
    return pyotp.TOTP(secret).at(clock.now())


def second_step(client: FlaskClient, secret: str, lang: str | None = None) -> str:
    """Complete `/cuenta/verificar` with the authenticator's code; where it sends next."""
    query = f"?lang={lang}" if lang else ""
    page = client.get(f"/cuenta/verificar{query}").get_data(as_text=True)
    r = client.post("/cuenta/verificar", data={"csrf_token": csrf_token(page),
                                               "code": totp_code(secret)})
    assert r.status_code == 303, "the second step refused the code"
    return r.headers["Location"]


def parcel_ids(app: Flask) -> dict[str, list[int]]:
    """{role: the parcel ids on that role's dashboard} (read through the services)."""
    from portal.accounts import access
    from portal.db import UnitOfWork
    from portal.people import users
    from portal.web.data import database
    out: dict[str, list[int]] = {}
    with app.app_context(), UnitOfWork(database()) as w:
        for role, email in ROLES.items():
            user = users.find_by_email(w, email)
            out[role] = [p.id for p, _rel in access.linked_parcels(w, user)]
    return out


def add_loans(app, n: int) -> None:  # noqa: ANN001
    """`n` more active loans of the demo bank, on parcels it holds no loan on (in turn, when
    there are fewer such parcels than loans: a parcel may carry several loans)."""
    from portal.db import UnitOfWork
    from portal.models import Loan, Parcel
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        s = w.session
        lender_id = s.scalar(select(Loan.lender_id).limit(1))
        taken = set(s.scalars(select(Loan.parcel_id)))
        free = [pid for pid in s.scalars(select(Parcel.id).order_by(Parcel.id))
                if pid not in taken]
        s.add_all(Loan(lender_id=lender_id, parcel_id=free[k % len(free)],
                       loan_number=f"ZZ-{k:04d}", starts_on=date(2024, 1, 1)) for k in range(n))


@contextmanager
def demo_on_postgresql(tmp_path: Path, **demo_options):  # noqa: ANN003, ANN201
    """(app, the demo's result): the demo District loaded into a throwaway PostgreSQL
    database (tests/data/pg.py) on the demo's date, and an app serving it."""
    from portal.db import Database
    from portal.demo import district
    from tests.data.pg import throwaway_database
    with throwaway_database() as url, clock.fixed(TODAY):
        upgrade(url, "head")
        database = Database(url)
        result = district.load(database, **demo_options)
        database.dispose()
        app = create_app({"TESTING": True, "SECRET_KEY": "pg", "DATABASE_URL": url,
                          "INSTANCE_PATH": str(tmp_path / "instance"),
                          "OUTBOX_DIR": str(tmp_path / "outbox"), "RATELIMIT_ENABLED": False,
                          "SERVER_NAME": "localhost", "PORTAL_BASE_URL": "http://localhost"})
        try:
            yield app, result
        finally:
            reset_databases()
