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

A lender's kept totals (`lender_figures`: its active loans' count, their amounts due now and
this year's assessments summed, the municipalities of their parcels, of one day and one
District version) spare the portfolio's first page a pass over every loan. They include a
loan's figures as of `loans.figures_version`; a loan whose `facts_version` differs (a fact
of its parcel written since; -1 for a new loan, one whose period, parcel or lender changed,
or one whose figures were computed again since: `portfolio.refresh`) is behind them, found
through the partial index `ix_loans_figures_behind` that holds only such loans. So the
totals hold while their day and District version are those of now and no loan of theirs is
behind (`portfolio`: one probe of that index). Here, the changes of a loan that the ORM
writes mark it behind (its flush, an ORM UPDATE through a session); a loan inserted in SQL
is behind by the column's default (-1); a loan deleted drops its lender's totals.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    BigInteger,
    Date,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    delete,
    event,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, Session, mapped_column

from portal.models.assessments import Assessment, Installment
from portal.models.base import MONEY, Base
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


class LenderFigures(Base):
    """A lender's kept totals over its active loans' kept figures (`loan_figures`) of one day,
    with the municipalities of their parcels: what the portfolio's first page shows above
    its rows, recomputed when out of date (see the module's docstring)."""

    __tablename__ = "lender_figures"

    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"), primary_key=True,
                                           comment="The lender")
    as_of: Mapped[date | None] = mapped_column(
        Date, comment="The day of the figures summed (null: never computed)")
    district_version: Mapped[int | None] = mapped_column(
        BigInteger, comment="The District's version (facts_versions) read before computing")
    loans: Mapped[int] = mapped_column(Integer, comment="Active loans on as_of")
    due_now: Mapped[Decimal] = mapped_column(MONEY, comment="Their amounts due now, summed")
    annual: Mapped[Decimal] = mapped_column(
        MONEY, comment="Their parcels' assessments of the year, summed")
    municipalities: Mapped[str] = mapped_column(
        Text, comment="The municipalities of their parcels (a JSON list, in the database's "
                      "order)")


#: The tables whose rows are facts of one parcel's figures, and those of the District's.
PARCEL_FACTS = frozenset({LedgerEntry.__tablename__, Assessment.__tablename__,
                          Installment.__tablename__})
DISTRICT_FACTS = frozenset({BoardParameterValue.__tablename__, FiscalYear.__tablename__})

_L, _A, _V = Loan.__table__, Assessment.__table__, FactsVersion.__table__
_K = LenderFigures.__table__
#: A loan's changes that move it in or out of its lender's totals or change its parcel.
_LOAN_PLACE = ("starts_on", "ends_on", "parcel_id", "lender_id")
_BEHIND = (update(_L).where(_L.c.id.in_(bindparam("ids", expanding=True)))
           .values(figures_version=-1))
_BEHIND_ON_PARCELS = (update(_L).where(_L.c.parcel_id.in_(bindparam("ids", expanding=True)))
                      .values(figures_version=-1))
_DROP_TOTALS = delete(_K).where(_K.c.lender_id.in_(bindparam("lenders", expanding=True)))
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


def parcels_moved(conn: Any, parcel_ids: Iterable[int]) -> None:
    """Parcels whose municipality changed (the roll's import): the loans on them are behind
    their lenders' kept totals, whose municipalities are read again on the next view."""
    ids = sorted(set(parcel_ids))
    if ids:
        conn.execute(_BEHIND_ON_PARCELS, {"ids": ids})


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
    _loans_changed(session)
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


def _loans_changed(session: Session) -> None:
    """Loans whose period, parcel or lender this flush changed are behind their lenders'
    kept totals; a loan deleted drops its lender's."""
    moved = [obj.id for obj in session.dirty if isinstance(obj, Loan)
             and any(_changed(obj, key) for key in _LOAN_PLACE)]
    gone = sorted({obj.lender_id for obj in session.deleted if isinstance(obj, Loan)})
    if not (moved or gone):
        return
    conn = session.connection()
    if moved:
        conn.execute(_BEHIND, {"ids": sorted(moved)})
    if gone:
        conn.execute(_DROP_TOTALS, {"lenders": gone})


def _changed(obj: Any, key: str) -> bool:
    from sqlalchemy import inspect
    return inspect(obj).attrs[key].history.has_changes()


@event.listens_for(Session, "do_orm_execute")
def _loan_update(state: Any) -> None:
    """An ORM UPDATE of loans through a session (`session.execute(update(Loan)...)`) marks the
    loans it changes behind their lenders' kept totals, in the same statement; an ORM
    DELETE of loans drops the totals of every lender (rare: no service deletes loans)."""
    if not (state.is_update or state.is_delete):
        return
    if not any(m.class_ is Loan for m in state.all_mappers):
        return
    if state.is_update:
        state.statement = state.statement.values(figures_version=-1)
    else:
        state.session.connection().execute(delete(_K))
