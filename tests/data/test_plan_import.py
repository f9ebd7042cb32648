"""The CRIM's file of plan payments at the service (R-B16), on SQLite and PostgreSQL: row by
row, the same file twice records nothing new, a receipt with other figures is refused, a
file that is not the CRIM's records nothing; two imports of one file at once record each
receipt once (the partial unique index, migration plan261)."""

from __future__ import annotations

import threading
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.db import Database, UnitOfWork
from portal.exemptions import plan_import
from portal.models import ExemptionCertification, Parcel, PlanEntry, User

DAY = date(2027, 2, 17)


def _scene(database: Database) -> tuple[User, str]:
    with UnitOfWork(database) as w:
        staff = User(email="reviewer@plan.pr", password_hash="x", is_staff=True,
                     staff_role="reviewer")
        parcel = Parcel(catastro="040-000-000-91", address="Calle Luna 1",
                        municipality="San Juan", owner_kind="private")
        w.session.add_all([staff, parcel])
        w.session.flush()
        cert = ExemptionCertification(parcel_id=parcel.id, fiscal_year_start=date(2026, 7, 1),
                                      status="approved", created_by_id=staff.id,
                                      filing_number="EXR-2026-000091",
                                      filed_on=date(2026, 11, 30), plan_payments=6,
                                      plan_first_due=date(2027, 1, 15))
        w.session.add(cert)
        w.session.flush()
        w.session.expunge(staff)
        return staff, cert.filing_number


def _entries(database: Database) -> int:
    with UnitOfWork(database) as w:
        return w.session.scalar(select(func.count()).select_from(PlanEntry))


def _file(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def test_row_by_row_and_twice_records_nothing(database: Database, tmp_path: Path):
    staff, n = _scene(database)
    f = _file(tmp_path / "a.csv",
              "Número de radicación;Tipo;Fecha;Cantidad;Recibo\r\n"  # Windows-1252, semicolons
              f"{n};Pago;2027-01-15;$1,218.98;CRIM 1\r\n"
              f"{n};costas;2027-02-17;45.00;CRIM 2\r\n"
              "\r\n"
              f"{n};pago;2027-01-15;0.00;CRIM 3\r\n"
              f"{n};pago;2027-01-15;10.00\r\n", "cp1252")
    with clock.fixed(DAY), UnitOfWork(database) as w:
        first = plan_import.import_file(w, staff, f)
    assert (first.rows, first.recorded, first.already, first.refused) == (4, 2, 0, 2)
    assert [(p.line, p.code) for p in first.problems] == [(5, "bad_amount"),
                                                          (6, "wrong_column_count")]
    with clock.fixed(DAY), UnitOfWork(database) as w:
        again = plan_import.import_file(w, staff, f)
    assert (again.recorded, again.already, again.refused) == (0, 2, 2)
    other = _file(tmp_path / "b.csv", "filing_number,kind,date,amount,receipt\n"
                  f"{n},payment,2027-01-15,1218.99,CRIM 1\n")
    with clock.fixed(DAY), UnitOfWork(database) as w:
        differs = plan_import.import_file(w, staff, other)
    assert [p.code for p in differs.problems] == ["receipt_differs"]
    assert _entries(database) == 2
    for text, code in (("", "empty"), ("tipo,fecha,color\nx,y,z\n", "unknown_columns"),
                       ("numero_radicacion,tipo,fecha,cantidad\n", "missing_columns")):
        with pytest.raises(plan_import.FileProblem) as exc, clock.fixed(DAY), \
                UnitOfWork(database) as w:
            plan_import.import_file(w, staff, _file(tmp_path / "c.csv", text))
        assert exc.value.code == code
    with pytest.raises(plan_import.FileProblem) as exc, clock.fixed(DAY), \
            UnitOfWork(database) as w:
        plan_import.import_file(w, staff, _file(tmp_path / "d.csv", "PK\x03\x04\x00\x00"))
    assert exc.value.code == "not_text"
    assert _entries(database) == 2


@pytest.mark.postgres
def test_two_imports_at_once_record_each_receipt_once(pg_database: str, tmp_path: Path):
    from tests.support import schema
    database = Database(pg_database)
    schema.truncate(database)
    staff, n = _scene(database)
    rows = "".join(f"{n},pago,2027-01-{1 + k % 28:02d},1.00,R-{k}\n" for k in range(300))
    f = _file(tmp_path / "race.csv", "numero_radicacion,tipo,fecha,cantidad,recibo\n" + rows)
    reports, errors = [], []
    start = threading.Barrier(2)

    def run() -> None:
        try:
            start.wait()
            with UnitOfWork(database) as w:
                reports.append(plan_import.import_file(w, staff, f))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(2)]
    with clock.fixed(DAY):  # the clock is the process's: set once for both threads
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    assert errors == []
    assert _entries(database) == 300
    assert sum(r.recorded for r in reports) == 300
    assert sum(r.recorded + r.already for r in reports) == 600, [
        (r.recorded, r.already, r.refused, r.problems[:3]) for r in reports]
    database.dispose()


def test_staff_tokens_from_the_command_line(sqlite_database: Database, monkeypatch):
    """`portal staff-token create` prints the secret once (for an administrator or a reviewer
    only), `list` shows its prefix, `revoke` ends it: the token then authenticates no more."""
    from click.testing import CliRunner

    from portal.cli import main
    from portal.db import reset_databases
    from portal.exemptions import staff_tokens
    _scene(sqlite_database)
    with UnitOfWork(sqlite_database) as w:
        w.session.add(User(email="cashier@plan.pr", password_hash="x", is_staff=True,
                           staff_role="cashier"))
    monkeypatch.setenv("DATABASE_URL", str(sqlite_database.engine.url))
    reset_databases()
    runner = CliRunner()
    r = runner.invoke(main, ["staff-token", "create", "--staff", "cashier@plan.pr",
                             "--name", "CRIM"])
    assert r.exit_code == 2 and "not an administrator or reviewer" in r.output
    r = runner.invoke(main, ["staff-token", "create", "--staff", "reviewer@plan.pr",
                             "--name", "CRIM", "--days", "30"])
    assert r.exit_code == 0, r.output
    secret = r.output.split()[-1]
    assert secret.startswith("pds_")
    listed = runner.invoke(main, ["staff-token", "list"]).output
    assert secret[:12] in listed and secret not in listed
    with UnitOfWork(sqlite_database) as w:
        _tok, user = staff_tokens.authenticate(w, secret, "plan_payments")
        assert user.email == "reviewer@plan.pr"
    assert runner.invoke(main, ["staff-token", "revoke", "1"]).exit_code == 0
    with pytest.raises(staff_tokens.Unauthorized), UnitOfWork(sqlite_database) as w:
        staff_tokens.authenticate(w, secret, "plan_payments")
    reset_databases()
