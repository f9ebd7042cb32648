"""`portal roll import FILE [--dry-run]`: the roll import in the foreground with a progress
bar, recorded as a job like one started from the staff's page; exit 1 for a file with
errors (each refused row listed), nothing written; the same file twice changes nothing."""

from __future__ import annotations

import csv

from click.testing import CliRunner
from sqlalchemy import func, select

from portal.cli import main
from portal.db import reset_databases
from portal.models import Job, Parcel
from portal.roll import roll_csv as ri
from tests.support.world import build


def _write(path, rows) -> None:  # noqa: ANN001
    with open(path, "w", encoding="cp1252", newline="") as fh:
        out = csv.writer(fh, delimiter=";", lineterminator="\r\n")
        out.writerow([c.es for c in ri.COLUMNS])
        out.writerows(rows)


def _row(k: int, units: str = "5") -> list[str]:
    return [f"060-000-000-{k:02d}", f"Calle Ñame {k}", "Cayey", "rural", "1", "1000", "0",
            "privado", "no", "no", units, "", "", "", "", "", "", "", "", ""]


def _parcels(world) -> int:  # noqa: ANN001
    with world.uow() as uow:
        return uow.session.scalar(select(func.count()).select_from(Parcel))


def test_import_a_roll_file_from_the_command_line(sqlite_database, tmp_path, monkeypatch):
    world = build(sqlite_database)
    before = _parcels(world)
    monkeypatch.setenv("DATABASE_URL", str(sqlite_database.engine.url))
    monkeypatch.setenv("PORTAL_INSTANCE", str(tmp_path / "instance"))
    bad, good = tmp_path / "bad.csv", tmp_path / "good.csv"
    _write(bad, [_row(1), _row(2, units="-1")])
    _write(good, [_row(1), _row(2)])
    runner = CliRunner()
    try:
        r = runner.invoke(main, ["roll", "import", str(bad), "--staff", "staff@test.pr"])
        assert r.exit_code == 1, r.output
        assert "row 3, unidades_beneficio, '-1': negative" in r.output
        assert _parcels(world) == before
        r = runner.invoke(main, ["roll", "import", str(good), "--dry-run", "--staff",
                                 "staff@test.pr"])
        assert r.exit_code == 0, r.output
        assert "valid; 2 rows, 0 errors; new 2" in r.output and "2/2" in r.output
        assert _parcels(world) == before
        r = runner.invoke(main, ["roll", "import", str(good), "--staff", "staff@test.pr"])
        assert r.exit_code == 0 and "imported" in r.output, r.output
        assert _parcels(world) == before + 2
        r = runner.invoke(main, ["roll", "import", str(good), "--staff", "staff@test.pr"])
        assert r.exit_code == 0 and "new 0, changed 0, same 2" in r.output, r.output
        assert _parcels(world) == before + 2
        r = runner.invoke(main, ["roll", "import", str(good), "--staff", "alice@test.pr"])
        assert r.exit_code == 2 and "no staff account" in r.output
    finally:
        reset_databases()
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(Job).where(
            Job.kind == "roll.import")) == 4
