"""Property tests of the roll import (R-A2, R-A3): for any small roll file,
an import of it with an error changes nothing, and importing a valid one twice changes
nothing the second time; whatever the delimiter or encoding, the parcels written are the
file's. On SQLite (a fresh database per example)."""

from __future__ import annotations

import csv
import io
import shutil
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from portal import db
from portal.db import UnitOfWork
from portal.jobs import runner
from portal.models import Lease, OwnershipShare, Parcel, Party, User
from portal.people import users
from portal.roll import roll_csv as ri
from portal.roll import roll_import

HEAD = [c.es for c in ri.COLUMNS]
NAMES = st.sampled_from(["Ana Rivera", "José Ortiz", "Carmen Vélez", "Luis Peña"])


@st.composite
def parcel_rows(draw) -> list[list[str]]:  # noqa: ANN001
    keys = draw(st.lists(st.integers(0, 99), min_size=1, max_size=12, unique=True))
    rows = []
    for k in keys:
        owners = draw(st.lists(NAMES, max_size=3, unique=True))
        kind = draw(st.sampled_from(["privado", "autoridad", "publico"]))
        lessee = draw(st.sampled_from(["", "Café del Puerto LLC"]))
        units = draw(st.decimals(0, 999, places=2, allow_nan=False, allow_infinity=False))
        rows.append([f"080-000-000-{k:02d}", f"Calle {k}", draw(st.sampled_from(
            ["San Juan", "Ponce", "Mayagüez"])), draw(st.sampled_from(["urbana", "rural"])),
            "0.25", str(draw(st.integers(0, 10 ** 6))), "0", kind,
            draw(st.sampled_from(["sí", "no", ""])), "no", str(units), "|".join(owners),
            "|".join(f"{n.split()[0].lower()}@example.pr" for n in owners), "", lessee, "",
            "", "", "2026-07-01" if lessee else "", ""])
    return rows


BREAK = st.sampled_from([(10, "muchas"), (0, "12-34"), (3, "centro"), (5, "-1"),
                         (7, "iglesia"), (2, "Gotham")])


def _csv(rows: list[list[str]], delimiter: str, encoding: str) -> bytes:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows([HEAD, *rows])
    return out.getvalue().encode(encoding)


def _facts(database: db.Database) -> tuple:
    with UnitOfWork(database) as uow:
        s = uow.session
        return (sorted(tuple(map(str, r)) for r in s.execute(select(
                    Parcel.catastro, Parcel.municipality, Parcel.zone, Parcel.owner_kind,
                    Parcel.transferred, Parcel.benefit_units, Parcel.land_valuation))),
                sorted((p.name, p.email or "") for p in s.scalars(select(Party))),
                s.scalar(select(func.count()).select_from(OwnershipShare)),
                s.scalar(select(func.count()).select_from(Lease)))


def _import(database: db.Database, staff_id: int, data: bytes, folder) -> str:  # noqa: ANN001
    with UnitOfWork(database) as uow:
        staff = uow.session.get(User, staff_id)
        import_id = roll_import.register(uow, staff, io.BytesIO(data), "p.csv", folder).id
        job_id = runner.submit(uow, staff, "roll.import",
                             {"import_id": import_id, "dry_run": False}).id
    return runner.run(database, job_id).result["status"]


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=parcel_rows(), broken=st.one_of(st.none(), BREAK),
       where=st.integers(0, 11), delimiter=st.sampled_from([",", ";"]),
       encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp1252"]))
def test_an_import_with_an_error_changes_nothing_and_twice_is_once(
        tmp_path, schema_template, rows, broken, where, delimiter, encoding):
    path = tmp_path / f"p{abs(hash((str(rows), broken, where, delimiter, encoding)))}.db"
    shutil.copy(schema_template, path)
    database = db.Database(f"sqlite:///{path}")
    try:
        with UnitOfWork(database) as uow:
            staff = users.register(uow, f"s{path.stem}@test.pr", "correct horse battery", "S")
            staff.is_staff = True
            staff_id = staff.id
        folder = tmp_path / path.stem
        before = _facts(database)
        if broken is not None:
            column, value = broken
            rows[where % len(rows)][column] = value
            assert _import(database, staff_id, _csv(rows, delimiter, encoding), folder) \
                == "invalid"
            assert _facts(database) == before  # nothing written
            return
        data = _csv(rows, delimiter, encoding)
        assert _import(database, staff_id, data, folder) == "imported"
        once = _facts(database)
        assert [p[0] for p in once[0]] == sorted(r[0] for r in rows)
        assert [Decimal(p[5]) for p in once[0]] == [
            Decimal(r[10]) for r in sorted(rows, key=lambda r: r[0])]
        assert _import(database, staff_id, data, folder) == "imported"
        assert _facts(database) == once  # the same file twice: nothing more
    finally:
        database.dispose()
