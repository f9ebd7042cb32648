"""Fiscal years and the Board's budgets (R-A1): versions with lines, never edited once adopted."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import CheckConstraint, Date, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship

from portal.models.base import Base, ImmutableRowError, UTCDateTime, created_at, money

LINE_KINDS = ("project", "maintenance", "marketing", "operation", "center")
VERSION_STATUSES = ("draft", "adopted")


class FiscalYear(Base):
    """A fiscal year, July 1 to June 30, labelled "2026-2027"."""

    __tablename__ = "fiscal_years"
    __table_args__ = (CheckConstraint("ends_on > starts_on", name="period"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    label: Mapped[str] = mapped_column(String(9), unique=True, comment="e.g. 2026-2027")
    starts_on: Mapped[date] = mapped_column(Date, unique=True, comment="July 1")
    ends_on: Mapped[date] = mapped_column(Date, comment="June 30 of the next year")
    created_at: Mapped[datetime] = created_at()

    budget: Mapped[Budget | None] = relationship(back_populates="fiscal_year")


class Budget(Base):
    """The District's budget for a fiscal year; its content lives in versions."""

    __tablename__ = "budgets"

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"), unique=True,
                                                comment="The fiscal year budgeted")
    created_at: Mapped[datetime] = created_at()

    fiscal_year: Mapped[FiscalYear] = relationship(back_populates="budget")
    versions: Mapped[list[BudgetVersion]] = relationship(
        back_populates="budget", order_by="BudgetVersion.version")


class BudgetVersion(Base):
    """One version of a budget: 1 is the adopted budget, each amendment is the next (R-A1).

    A draft may change; once adopted, nothing in it (nor its lines) changes again.
    """

    __tablename__ = "budget_versions"
    __table_args__ = (
        UniqueConstraint("budget_id", "version"),
        CheckConstraint("version >= 1", name="version"),
        CheckConstraint("status IN ('draft', 'adopted')", name="status"),
        CheckConstraint("total_to_assess >= 0", name="total_to_assess"),
        CheckConstraint("status = 'draft' OR adopted_on IS NOT NULL", name="adopted_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    budget_id: Mapped[int] = mapped_column(ForeignKey("budgets.id"), index=True,
                                           comment="The budget")
    version: Mapped[int] = mapped_column(Integer, comment="1 = adopted budget; 2.. amendments")
    status: Mapped[str] = mapped_column(String(8), default="draft",
                                        comment="draft or adopted")
    adopted_on: Mapped[date | None] = mapped_column(Date,
                                                    comment="Date the Board adopted it")
    effective_on: Mapped[date | None] = mapped_column(
        Date, comment="For an amendment: installments due after this date change (R-A5)")
    reference: Mapped[str] = mapped_column(Text, default="",
                                           comment="The Board resolution that adopted it")
    total_to_assess: Mapped[Decimal] = money(
        "R-A1(3): total to be assessed = the lines' parts financed by assessments")
    created_at: Mapped[datetime] = created_at()
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                      comment="Staff who drafted it")
    adopted_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="When it was marked adopted")
    adopted_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                      comment="Staff who recorded the adoption")

    budget: Mapped[Budget] = relationship(back_populates="versions")
    lines: Mapped[list[BudgetLine]] = relationship(back_populates="version",
                                                   order_by="BudgetLine.position")
    fixed_amounts: Mapped[list[BudgetFixedAmount]] = relationship(
        back_populates="version", order_by="BudgetFixedAmount.id")

    #: What a correction of an adopted version may change: its adoption (and effective)
    #: date, before its notices go out (`roll.budgets.correct_adoption_date`, audited).
    CORRECTABLE = frozenset({"adopted_on", "effective_on"})

    def _check_update(self, changes: dict[str, tuple[Any, Any]]) -> None:
        old_status = changes.get("status", (self.status, self.status))[0]
        if old_status == "adopted" and not set(changes) <= self.CORRECTABLE:
            raise ImmutableRowError(self.__tablename__, "update",
                                    "an adopted version is never edited (R-A1)")

    def _check_delete(self) -> None:
        if self.status == "adopted":
            raise ImmutableRowError(self.__tablename__, "delete",
                                    "an adopted version is never deleted (R-A1)")


class _PartOfAVersion:
    """A row of a budget version (a line, a fixed amount): frozen with its version once it
    is adopted (R-A1) — never edited, deleted or added to. `_row_name` names it."""

    _row_name = "row"  # (the class sets `version`, `version_id` and `__tablename__`)

    def _frozen(self, session: Session) -> bool:
        version = self.version
        if version is None:
            version = session.get(BudgetVersion, self.version_id)
        return version is not None and version.status == "adopted" and version not in session.new

    def _check_update(self, changes: dict[str, tuple[Any, Any]]) -> None:
        if self.version is not None and self.version.status == "adopted":
            raise ImmutableRowError(self.__tablename__, "update",
                                    f"a {self._row_name} of an adopted version is never "
                                    "edited (R-A1)")

    def _check_delete(self) -> None:
        self._check_update({})

    def _check_insert(self, session: Session) -> None:
        if self._frozen(session):
            raise ImmutableRowError(self.__tablename__, "insert",
                                    f"an adopted version takes no new {self._row_name}s (R-A1)")


class BudgetLine(_PartOfAVersion, Base):
    """A line of a budget version (R-A1 (1), (2), (5)), with the part financed by assessments."""

    __tablename__ = "budget_lines"
    __table_args__ = (
        UniqueConstraint("version_id", "position"),
        CheckConstraint("kind IN ('project', 'maintenance', 'marketing', 'operation', "
                        "'center')", name="kind"),
        CheckConstraint("amount >= 0", name="amount"),
        CheckConstraint("financed_by_assessments >= 0 AND financed_by_assessments <= amount",
                        name="financed"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    version_id: Mapped[int] = mapped_column(ForeignKey("budget_versions.id"), index=True,
                                            comment="The budget version")
    position: Mapped[int] = mapped_column(Integer, comment="Order of the line in the budget")
    kind: Mapped[str] = mapped_column(
        String(12), comment="project, maintenance, marketing, operation or center (R-A1)")
    description_es: Mapped[str] = mapped_column(Text, comment="What it is, in Spanish")
    description_en: Mapped[str] = mapped_column(Text, comment="What it is, in English")
    amount: Mapped[Decimal] = money("Cost of the line")
    financed_by_assessments: Mapped[Decimal] = money("Part of the cost raised by assessments")

    version: Mapped[BudgetVersion] = relationship(back_populates="lines")

    def description(self, language: str) -> str:
        return self.description_en if language == "en" else self.description_es

    _row_name = "line"


class BudgetFixedAmount(_PartOfAVersion, Base):
    """A parcel's amount fixed directly by the Board in a budget version (R-A3); the rest of
    the total is shared by benefit units. Frozen with its version once adopted (R-A1)."""

    __tablename__ = "budget_fixed_amounts"
    __table_args__ = (
        UniqueConstraint("version_id", "parcel_id"),
        CheckConstraint("amount >= 0", name="amount"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    version_id: Mapped[int] = mapped_column(ForeignKey("budget_versions.id"), index=True,
                                            comment="The budget version")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel whose amount the Board fixed")
    amount: Mapped[Decimal] = money("R-A3: the parcel's annual amount, fixed by the Board")
    reason: Mapped[str] = mapped_column(Text, default="",
                                        comment="Why (the Board's words or resolution)")

    version: Mapped[BudgetVersion] = relationship(back_populates="fixed_amounts")

    _row_name = "fixed amount"
