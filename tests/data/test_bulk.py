"""Bulk inserts (`accounts.bulk`): a row whose foreign key names no row is refused and its
batch writes nothing, on SQLite and on PostgreSQL — where a COPY may check its foreign keys a
batch at a time instead of a trigger per row (the same check, the same lock); ids come back
in row order; COPY text goes in as written."""

from __future__ import annotations

import sqlite3
from datetime import date
from decimal import Decimal

import psycopg
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError

from portal.accounts import bulk
from portal.db import UnitOfWork
from portal.models import Parcel, Party
from portal.models.parcels import OwnershipShare

#: What a refused key raises: the batch check's, or the database's own (a raw cursor's).
ON = "sole\t2026-07-01\t2026-07-01 00:00:00+00\n"  # kind, starts_on, created_at
REFUSED = (IntegrityError, sqlite3.IntegrityError, psycopg.IntegrityError)


def _parcels(n: int, start: int = 0) -> list[dict]:
    return [{"catastro": f"042-000-{start + k:03d}-00", "address": f"Calle {k}",
             "municipality": "San Juan", "owner_kind": "private", "transferred": False,
             "tax_incentive_exempt": False, "benefit_units": Decimal(5)} for k in range(n)]


def _count(database, model) -> int:
    with UnitOfWork(database) as uow:
        return uow.session.scalar(select(func.count()).select_from(model))


def _share(parcel_id: int, party_id: int) -> dict:
    return {"parcel_id": parcel_id, "party_id": party_id, "share": Decimal(1),
            "kind": "sole", "starts_on": date(2026, 7, 1), "ends_on": None}


@pytest.mark.parametrize("by_batch", [True, False], ids=["keys-by-batch", "keys-by-row"])
def test_rows_with_their_ids_and_a_missing_key_refuses_the_whole_batch(database, monkeypatch,
                                                                       by_batch):
    if not by_batch:  # a role that may not set session_replication_role: the per-row checks
        monkeypatch.setattr(bulk, "_keys_by_batch", lambda conn, table: False)
    with UnitOfWork(database) as uow:
        parcel_ids = bulk.insert_rows(uow, Parcel, _parcels(3), return_ids=True)
        [party_id] = bulk.insert_rows(uow, Party, [{"kind": "person", "name": "Ana",
                                                    "email": None, "language": "es"}],
                                      return_ids=True)
        bulk.insert_rows(uow, OwnershipShare, [_share(p, party_id) for p in parcel_ids])
        catastros = dict(uow.session.execute(select(Parcel.id, Parcel.catastro)).all())
    assert [catastros[p] for p in parcel_ids] == [f"042-000-{k:03d}-00" for k in range(3)]
    with pytest.raises(REFUSED), UnitOfWork(database) as uow:
        more = bulk.insert_rows(uow, Parcel, _parcels(2, start=10), return_ids=True)
        bulk.insert_rows(uow, OwnershipShare, [_share(more[0], party_id),
                                               _share(more[1], party_id + 1000)])
    assert (_count(database, Parcel), _count(database, OwnershipShare)) == (3, 3)


def test_copy_text_goes_in_as_written_and_its_keys_are_checked(database):
    if database.engine.dialect.name != "postgresql":
        pytest.skip("COPY text is PostgreSQL's")
    with UnitOfWork(database) as uow:
        parcel_ids = bulk.insert_rows(uow, Parcel, _parcels(2), return_ids=True)
        [party_id] = bulk.insert_rows(uow, Party, [{"kind": "person", "name": "Ana",
                                                    "email": None, "language": "es"}],
                                      return_ids=True)
        cols = ("parcel_id", "party_id", "share", "kind", "starts_on", "created_at")
        bulk.copy_lines(uow, OwnershipShare, cols,
                        (f"{p}\t{party_id}\t0.500000\t{ON}" for p in parcel_ids),
                        {"parcel_id": parcel_ids, "party_id": [party_id]})
        shares = uow.session.execute(text(
            "SELECT share, starts_on FROM ownership_shares ORDER BY id")).all()
    assert shares == [(Decimal("0.500000"), date(2026, 7, 1))] * 2
    with pytest.raises(REFUSED), UnitOfWork(database) as uow:
        bulk.copy_lines(uow, OwnershipShare, cols,
                        [f"{parcel_ids[0] + 1000}\t{party_id}\t1.000000\t{ON}"],
                        {"parcel_id": [parcel_ids[0] + 1000], "party_id": [party_id]})
    with pytest.raises(ValueError), UnitOfWork(database) as uow:  # every key's values given
        bulk.copy_lines(uow, OwnershipShare, cols, [], {"parcel_id": parcel_ids})
    assert _count(database, OwnershipShare) == 2


def test_numbers_days_and_instants_go_in_as_given_and_known_keys_are_not_looked_up(database):
    """The values `insert_rows` gives COPY as text come back as they went in; a key the
    caller names as written by its own transaction (`known`) is taken as it is, while the
    row's other keys are still checked."""
    from datetime import UTC, datetime
    at = datetime(2026, 7, 1, 13, 45, 30, 123456, tzinfo=UTC)
    with UnitOfWork(database) as uow:
        parcel_ids = bulk.insert_rows(uow, Parcel, _parcels(2), return_ids=True)
        [party_id] = bulk.insert_rows(uow, Party, [{"kind": "person", "name": "Ana",
                                                    "email": None, "language": "es"}],
                                      return_ids=True)
        bulk.insert_rows(uow, OwnershipShare,
                         [{**_share(p, party_id), "share": Decimal("0.5"), "created_at": at}
                          for p in parcel_ids],
                         known={"parcel_id": parcel_ids, "party_id": [party_id]})
        got = uow.session.execute(select(OwnershipShare.share, OwnershipShare.starts_on,
                                         OwnershipShare.created_at)
                                  .order_by(OwnershipShare.id)).all()
    assert got == [(Decimal("0.500000"), date(2026, 7, 1), at)] * 2
    with pytest.raises(REFUSED), UnitOfWork(database) as uow:
        more = bulk.insert_rows(uow, Parcel, _parcels(1, start=20), return_ids=True)
        bulk.insert_rows(uow, OwnershipShare, [_share(more[0], party_id + 1000)],
                         known={"parcel_id": more})
    assert (_count(database, Parcel), _count(database, OwnershipShare)) == (2, 2)
