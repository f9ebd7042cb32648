"""The roll import as a job (R-A2, R-A3, R-A16): pass 1 checks the whole file
and stores the report and the dry run (new, changed, same, not listed) without touching the
roll; pass 2 writes only a file without errors, a batch per transaction; the same file twice
changes nothing the second time; a batch interrupted leaves nothing half-written. On SQLite
and PostgreSQL."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.accounts import bulk
from portal.accounts.errors import Conflict, Forbidden, NotFound
from portal.jobs import runner
from portal.models import (
    AuditRecord,
    Job,
    Lease,
    OwnershipShare,
    Parcel,
    Party,
    RollImport,
    User,
)
from portal.people import users
from portal.roll import roll_csv as ri
from portal.roll import roll_import

HEAD = [c.es for c in ri.COLUMNS]


def _row(cat: str, *, units: str = "10", address: str = "Calle 1", owner_kind: str = "privado",
         owners: str = "", emails: str = "", lessee: str = "", lease_starts: str = "",
         zone: str = "urbana") -> list[str]:
    return [cat, address, "San Juan", zone, "0.25", "50000.00", "0", owner_kind, "no", "no",
            units, owners, emails, "", lessee, "", "", "", lease_starts, ""]


def _csv(rows: list[list[str]], *, delimiter: str = ",", encoding: str = "utf-8") -> bytes:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows([HEAD, *rows])
    return out.getvalue().encode(encoding)


class Killed(BaseException):  # the process dies: no handler catches it
    pass


@pytest.fixture
def world(database, tmp_path, monkeypatch):
    monkeypatch.setattr(roll_import, "BATCH", 3)  # a few batches of a small file
    with _uow(database) as uow:
        staff = users.register(uow, "staff@test.pr", "correct horse battery", "Staff")
        staff.is_staff = True
        owner = users.register(uow, "owner@test.pr", "correct horse battery", "Owner")
        uow.session.add(Party(kind="person", name="Ana Existing", email="ana@example.pr"))
        bulk.insert_rows(uow, Parcel, [
            {"catastro": f"040-000-000-{k:02d}", "address": "Calle 1", "municipality":
             "San Juan", "zone": "urban", "land_area_cuerdas": Decimal("0.25"),
             "land_valuation": Decimal("50000.00"), "structure_valuation": Decimal(0),
             "owner_kind": "private", "transferred": False, "tax_incentive_exempt": False,
             "benefit_units": Decimal(10)} for k in (1, 2, 3)])
        ids = (staff.id, owner.id)
    return {"database": database, "staff": ids[0], "owner": ids[1], "folder": tmp_path / "ri"}


def _uow(database):
    from portal.db import UnitOfWork
    return UnitOfWork(database)


def _upload(world, data: bytes, name: str = "padron.csv") -> int:
    with _uow(world["database"]) as uow:
        staff = uow.session.get(User, world["staff"])
        return roll_import.register(uow, staff, io.BytesIO(data), name, world["folder"]).id


def _run(world, import_id: int, dry_run: bool) -> Job:
    with _uow(world["database"]) as uow:
        job_id = runner.submit(uow, uow.session.get(User, world["staff"]), "roll.import",
                             {"import_id": import_id, "dry_run": dry_run}).id
    job = runner.run(world["database"], job_id)
    assert job.status == "succeeded", (job.error_code, job.error_params)
    return job


def _get(world, import_id: int) -> RollImport:
    with _uow(world["database"]) as uow:
        imp = uow.session.get(RollImport, import_id)
        uow.session.expunge(imp)
        return imp


def _facts(world) -> dict:
    """Everything the import may write, as plain values (to compare before and after)."""
    with _uow(world["database"]) as uow:
        s = uow.session
        return {
            "parcels": sorted(tuple(str(v) for v in r) for r in s.execute(select(
                Parcel.catastro, Parcel.address, Parcel.zone, Parcel.owner_kind,
                Parcel.benefit_units, Parcel.land_valuation))),
            "parties": sorted((p.name, p.email or "") for p in s.scalars(select(Party))),
            "shares": s.scalar(select(func.count()).select_from(OwnershipShare)),
            "leases": s.scalar(select(func.count()).select_from(Lease)),
        }


FILE = [
    _row("040-000-000-01"),  # same as on the roll
    _row("040-000-000-02", units="12.5", address="Calle 2"),  # changed: units and address
    _row("04000000010", owners="Ana Rivera|José Ortiz", emails="ana@example.pr|jose@example.pr"),
    _row("040-000-000-11", owners="José Ortiz", emails="JOSE@example.pr"),
    _row("040-000-000-12", owner_kind="autoridad", owners="Autoridad",
         lessee="Café del Puerto LLC", lease_starts="2026-07-01"),
    _row("040-000-000-13", zone="rural"),
]  # 040-000-000-03 is on the roll and not in the file


def test_a_dry_run_counts_and_lists_what_would_change_and_writes_nothing(world):
    before = _facts(world)
    import_id = _upload(world, _csv(FILE, delimiter=";", encoding="cp1252"))
    job = _run(world, import_id, dry_run=True)
    assert (job.done, job.total, job.result["status"]) == (6, 6, "valid")
    imp = _get(world, import_id)
    assert (imp.rows, imp.errors, imp.new_count, imp.changed_count, imp.same_count,
            imp.removed_count) == (6, 0, 4, 1, 1, 1)
    assert (imp.encoding, imp.delimiter) == ("cp1252", ";")
    assert _facts(world) == before  # the roll as it was
    with _uow(world["database"]) as uow:
        staff = uow.session.get(User, world["staff"])
        new = roll_import.changes_page(uow, staff, import_id, "new", limit=2)
        assert [(c.catastro, c.row) for c in new] == [("040-000-000-10", 4),
                                                       ("040-000-000-11", 5)]
        assert [c.catastro for c in roll_import.changes_page(uow, staff, import_id, "new",
                                                             limit=2, offset=2)] == [
            "040-000-000-12", "040-000-000-13"]
        [changed] = roll_import.changes_page(uow, staff, import_id, "changed")
        assert (changed.catastro, changed.changed) == ("040-000-000-02",
                                                       ("address", "benefit_units"))
        [removed] = roll_import.changes_page(uow, staff, import_id, "removed")
        assert removed.catastro == "040-000-000-03" and removed.row is None


def test_the_import_writes_parcels_owners_and_leases_and_the_same_file_twice_is_a_no_op(world):
    import_id = _upload(world, _csv(FILE))
    _run(world, import_id, dry_run=True)
    job = _run(world, import_id, dry_run=False)
    assert (job.done, job.total, job.result["status"]) == (12, 12, "imported")
    with _uow(world["database"]) as uow:
        s = uow.session
        by = {p.catastro: p for p in s.scalars(select(Parcel))}
        assert len(by) == 3 + 4
        assert by["040-000-000-02"].benefit_units == Decimal("12.5")  # R-A3's units updated
        assert by["040-000-000-02"].address == "Calle 2"
        assert by["040-000-000-12"].owner_kind == "authority"  # R-A2
        assert by["040-000-000-13"].zone == "rural"
        # One party per email: Ana's is the one already on file, José's is made once.
        emails = [p.email for p in s.scalars(select(Party).where(Party.email.is_not(None)))]
        assert sorted(emails) == ["ana@example.pr", "jose@example.pr"]
        shares = s.execute(select(Parcel.catastro, OwnershipShare.share, Party.email)
                           .join(OwnershipShare, OwnershipShare.parcel_id == Parcel.id)
                           .join(Party, Party.id == OwnershipShare.party_id)
                           .order_by(Parcel.catastro, Party.email)).all()
        assert [(c, str(sh), e) for c, sh, e in shares] == [
            ("040-000-000-10", "0.500000", "ana@example.pr"),
            ("040-000-000-10", "0.500000", "jose@example.pr"),
            ("040-000-000-11", "1.000000", "jose@example.pr"),
            ("040-000-000-12", "1.000000", None)]
        [lease] = s.scalars(select(Lease))
        assert (lease.parcel_id, lease.lessee_pays, lease.starts_on) == (
            by["040-000-000-12"].id, True, date(2026, 7, 1))  # R-A16: the lessee pays
        audit = s.scalars(select(AuditRecord).where(
            AuditRecord.action == "parcel.updated_by_import")).all()
        assert [(a.object_id, sorted(a.after)) for a in audit] == [
            (str(by["040-000-000-02"].id), ["address", "benefit_units", "import_id"])]
    once = _facts(world)
    again = _upload(world, _csv(FILE))  # the same file, uploaded again
    _run(world, again, dry_run=False)
    assert _facts(world) == once
    imp = _get(world, again)
    assert (imp.status, imp.new_count, imp.changed_count, imp.same_count) == (
        "imported", 0, 0, 6)


def test_a_file_with_an_error_changes_nothing_and_its_report_names_each_row(world):
    before = _facts(world)
    bad = FILE[:3] + [_row("040-000-000-11", units="mucho"), _row("040-000-000-10")] + FILE[4:]
    import_id = _upload(world, _csv(bad))
    _run(world, import_id, dry_run=True)
    imp = _get(world, import_id)
    assert (imp.status, imp.errors, imp.error_rows) == ("invalid", 2, 2)
    with _uow(world["database"]) as uow:
        staff = uow.session.get(User, world["staff"])
        report = roll_import.errors_page(uow, staff, import_id)
        assert [(e.row_number, e.column_name, e.value, e.code, e.figures) for e in report] == [
            (5, "unidades_beneficio", "mucho", "not_a_number", {}),
            (6, "catastro", "040-000-000-10", "duplicate", {"first": 4})]
        assert [e.row_number for e in roll_import.all_errors(uow, staff, import_id)] == [5, 6]
        with pytest.raises(Conflict) as exc:  # the import is refused at once
            runner.submit(uow, staff, "roll.import", {"import_id": import_id, "dry_run": False})
        assert exc.value.code == "import_has_errors"
    # Even run directly, pass 1 finds the errors again and pass 2 writes nothing.
    work = roll_import.ImportWork(None, import_id)
    with _uow(world["database"]) as uow:
        work.staff = uow.session.get(User, world["staff"])
        _force_status(uow, import_id, "valid")
        work.begin(uow)
        while work.step(uow):
            pass
        work.finish(uow)
    assert _get(world, import_id).status == "invalid"
    assert _facts(world) == before


def _force_status(uow, import_id: int, status: str) -> None:
    uow.session.get(RollImport, import_id).status = status
    uow.session.flush()


def test_a_batch_interrupted_leaves_nothing_half_written_and_the_job_goes_on(world, monkeypatch):
    import_id = _upload(world, _csv(FILE))
    _run(world, import_id, dry_run=True)
    with _uow(world["database"]) as uow:
        job_id = runner.submit(uow, uow.session.get(User, world["staff"]), "roll.import",
                             {"import_id": import_id, "dry_run": False}).id
    real, calls = bulk.insert_rows, []

    def dies(uow, model, rows, **kwargs):  # the second write batch dies at its leases
        table = getattr(model, "__tablename__", "")
        calls.append(table)
        if table == "leases" and calls.count("leases") == 2:
            raise Killed()
        return real(uow, model, rows, **kwargs)

    monkeypatch.setattr(bulk, "insert_rows", dies)
    with pytest.raises(Killed):
        runner.run(world["database"], job_id)
    monkeypatch.setattr(bulk, "insert_rows", real)
    # The first batch of three rows (same, changed, 040-000-000-10) is written whole; of the
    # second (-11, -12 and its lease, -13) nothing: no parcel without its owners or lease.
    facts = _facts(world)
    cats = [p[0] for p in facts["parcels"]]
    assert cats == ["040-000-000-01", "040-000-000-02", "040-000-000-03", "040-000-000-10"]
    assert (facts["shares"], facts["leases"]) == (2, 0)
    with clock.fixed(clock.now() + runner.STALE + timedelta(seconds=1)):
        assert runner.recover(world["database"]) == [job_id]
        job = runner.run(world["database"], job_id)
    assert (job.status, job.attempts) == ("succeeded", 2)
    imp = _get(world, import_id)
    assert (imp.status, imp.new_count, imp.same_count) == ("imported", 3, 3)
    assert len(_facts(world)["parcels"]) == 7 and _facts(world)["leases"] == 1


def test_a_file_changed_on_disk_or_not_a_csv_is_refused_as_a_whole(world):
    import_id = _upload(world, _csv(FILE))
    path = _get(world, import_id).stored_path
    with open(path, "ab") as fh:
        fh.write(b"040-000-000-99,x\r\n")
    _run(world, import_id, dry_run=True)
    imp = _get(world, import_id)
    assert (imp.status, imp.file_error) == ("invalid", "file_changed")
    other = _upload(world, b"PK\x03\x04\x00\x00\x00", "padron.xlsx")
    _run(world, other, dry_run=True)
    assert _get(world, other).file_error == "not_text"


def test_only_staff_see_or_start_an_import(world):
    import_id = _upload(world, _csv(FILE))
    with _uow(world["database"]) as uow:
        owner = uow.session.get(User, world["owner"])
        with pytest.raises((Forbidden, NotFound)):
            roll_import.get(uow, owner, import_id)
        with pytest.raises((Forbidden, NotFound)):
            runner.submit(uow, owner, "roll.import", {"import_id": import_id, "dry_run": True})
        with pytest.raises((Forbidden, NotFound)):
            roll_import.register(uow, owner, io.BytesIO(b"x"), "x.csv", world["folder"])
        staff = uow.session.get(User, world["staff"])
        with pytest.raises(NotFound):
            roll_import.get(uow, staff, import_id + 100)


def test_an_import_that_changes_r_a2_facts_has_the_rolls_reasons_counted_again(world,
                                                                                monkeypatch):
    """A parcel's owner kind or transfer changed: every roll's kept reasons are dropped
    (`review.parcels_changed`), so the review counts its exempt lines by reason again; a
    change of address or units leaves them."""
    calls = []
    monkeypatch.setattr(roll_import.review, "parcels_changed", lambda uow: calls.append(1))
    _run(world, _upload(world, _csv([_row("040-000-000-02", address="Calle 9")])), False)
    assert calls == []
    _run(world, _upload(world, _csv([_row("040-000-000-01", owner_kind="autoridad")]),
                        "padron-2.csv"), False)
    assert calls == [1]


def test_an_import_that_moves_a_parcel_to_another_municipality_says_so_to_the_lenders(
        world, monkeypatch):
    """A parcel's municipality changed: the loans on it are behind their lenders' kept
    totals (`fact_versions.parcels_moved`), whose municipalities the list reads again; a
    change of address moves nothing."""
    calls = []
    monkeypatch.setattr(roll_import.fact_versions, "parcels_moved",
                        lambda _conn, ids: calls.append(sorted(ids)))
    _run(world, _upload(world, _csv([_row("040-000-000-02", address="Calle 9")])), False)
    assert calls == [[]]
    moved = _row("040-000-000-01")
    moved[2] = "Culebra"
    _run(world, _upload(world, _csv([moved]), "padron-2.csv"), False)
    with _uow(world["database"]) as uow:
        pid = uow.session.scalar(select(Parcel.id).where(Parcel.catastro == "040-000-000-01"))
    assert calls[-1] == [pid]
