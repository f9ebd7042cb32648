"""The versions of the facts a loan's kept figures are computed from (J7, `loan_figures`):
raised in the same transaction as each fact is written, by the data layer itself, so that
no service that writes a fact can forget it.

A loan's figures (the core's statement and offer of its parcel) read two kinds of facts:

- the parcel's own: its ledger entries (payments, charges, costs, adjustments, reversals,
  refunds), its assessments (an amendment, R-A5) and their installments. Each raises the
  version of every loan on the parcel (`loans.facts_version`, one UPDATE through the index
  on `loans.parcel_id`: a parcel without a loan costs a probe and writes nothing);
- the District's: the values and closed days the Board adopted (`board_parameter_values`)
  and the fiscal years (`fiscal_years`). Each raises the one District version
  (`facts_versions`, the row `district`). So does any fact written a batch at a time
  (`accounts.bulk`: the roll's publication, the demo's load): every loan's figures are
  computed again, the right answer for a batch that touches every account.

A version only rises (`version + 1`, an UPDATE that waits for any other transaction raising
it and then adds to what that one committed, on PostgreSQL READ COMMITTED as on SQLite), and
it is raised in the fact's transaction: a reader that sees the fact committed sees its
version raised, and one that read the version before the fact's commit kept figures with
the older version, which no longer match. Not a watermark over the facts' ids: ids are
taken in one order and committed in another, so a fact with a lower id can commit after a
reader saw a higher one.

Where: an `after_flush` event of every ORM session (the objects a flush inserts) and
`accounts.bulk` (`bulk_written`), the two ways the portal writes rows; the fact tables are
append-only (`AppendOnly`), so an insert is the only change. Not database triggers: a
trigger on the fact tables would make the roll's publication update a row per assessment,
installment and entry, and its COPY would lose the foreign keys checked a batch at a time
(`accounts.bulk`: only for a table without a trigger of its own). See docs/WEB.md, "A
lender with many loans".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import BigInteger, String, bindparam, event, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, Session, mapped_column

from portal.models.assessments import Assessment, Installment
from portal.models.base import Base
from portal.models.board_parameters import BoardParameterValue
from portal.models.budgets import FiscalYear
from portal.models.ledger import LedgerEntry
from portal.models.lenders import Loan

#: The name of the District's version (`facts_versions.name`).
DISTRICT = "district"


class FactsVersion(Base):
    """A version of the facts every account reads (the Board's values and closed days, the
    fiscal years): raised with each such fact's write, never lowered."""

    __tablename__ = "facts_versions"

    name: Mapped[str] = mapped_column(String(16), primary_key=True,
                                      comment="Whose facts: district")
    version: Mapped[int] = mapped_column(
        BigInteger, comment="Raised by one in the transaction of each fact written")


#: The tables whose rows are facts of one parcel's figures, and those of the District's.
PARCEL_FACTS = frozenset({LedgerEntry.__tablename__, Assessment.__tablename__,
                          Installment.__tablename__})
DISTRICT_FACTS = frozenset({BoardParameterValue.__tablename__, FiscalYear.__tablename__})

_L, _A, _V = Loan.__table__, Assessment.__table__, FactsVersion.__table__
_RAISE_LOANS = (update(_L).where(_L.c.parcel_id.in_(bindparam("ids", expanding=True)))
                .values(facts_version=_L.c.facts_version + 1))
_RAISE_LOANS_OF_ASSESSMENTS = (
    update(_L).where(_L.c.parcel_id.in_(
        select(_A.c.parcel_id).where(_A.c.id.in_(bindparam("aids", expanding=True)))))
    .values(facts_version=_L.c.facts_version + 1))

#: SQL: the District's version now (0 before any raise).
district_version = (select(_V.c.version).where(_V.c.name == DISTRICT)
                    .scalar_subquery())


def raise_parcels(conn: Any, parcel_ids: Iterable[int]) -> None:
    """Raise the version of every loan on these parcels."""
    ids = sorted({int(p) for p in parcel_ids})
    if ids:
        conn.execute(_RAISE_LOANS, {"ids": ids})


def raise_district(conn: Any) -> None:
    """Raise the District's version (the row is made at the first raise if missing)."""
    insert = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(_V)
    conn.execute(insert.values(name=DISTRICT, version=1).on_conflict_do_update(
        index_elements=[_V.c.name], set_={"version": _V.c.version + 1}))


def bulk_written(conn: Any, table_name: str) -> None:
    """Facts written a batch at a time (`accounts.bulk`) into `table_name`: the District's
    version, so every loan's figures are computed again."""
    if table_name in PARCEL_FACTS or table_name in DISTRICT_FACTS:
        raise_district(conn)


@event.listens_for(Session, "after_flush")
def _raise_versions(session: Session, _ctx: Any) -> None:
    """The versions of the facts this flush inserted, on the flush's connection (the same
    transaction)."""
    parcels: set[int] = set()
    assessments: set[int] = set()
    installments: set[int] = set()
    district = False
    for obj in session.new:
        if isinstance(obj, LedgerEntry):
            parcels.add(obj.parcel_id)
        elif isinstance(obj, Assessment):
            parcels.add(obj.parcel_id)
            assessments.add(obj.id)
        elif isinstance(obj, Installment):
            installments.add(obj.assessment_id)
        elif isinstance(obj, BoardParameterValue | FiscalYear):
            district = True
    if not (parcels or installments or district):
        return
    conn = session.connection()
    raise_parcels(conn, parcels)
    installments -= assessments  # (the assessment's own insert raised them)
    if installments:
        conn.execute(_RAISE_LOANS_OF_ASSESSMENTS, {"aids": sorted(installments)})
    if district:
        raise_district(conn)
