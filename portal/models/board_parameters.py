"""The values the Board (or the Authority) adopted, recorded by staff (R-A7, R-A8, R-A11),
and the days the Board declared closed (docs/rules, Conventions). Append-only: a change is a new
row; a parameter's value for a fiscal year is its latest effective row."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import CheckConstraint, Date, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import AppendOnly, Base, created_at

#: The `name` of a row that declares a day closed (its `value` is the day, ISO).
CLOSED_DAY = "closed_day"


class BoardParameterValue(AppendOnly, Base):
    """One adopted value of a parameter for a fiscal year, or one declared closed day, with
    the resolution that set it, who recorded it and when."""

    __tablename__ = "board_parameter_values"
    __table_args__ = (
        CheckConstraint("name <> ''", name="name"),
        CheckConstraint("value <> ''", name="value"),
        CheckConstraint("resolution_number <> ''", name="resolution_number"),
        CheckConstraint(f"name <> '{CLOSED_DAY}' OR (reason_es <> '' AND reason_en <> '')",
                        name="closed_day_reason"),
        Index("ix_board_parameter_values_fiscal_year_name", "fiscal_year", "name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    fiscal_year: Mapped[str] = mapped_column(String(9), comment="e.g. 2026-2027")
    name: Mapped[str] = mapped_column(
        String(40), comment="The parameter (portal/core/parameters/*.toml), or closed_day")
    value: Mapped[str] = mapped_column(
        Text, comment="The value as text (0.07; for a closed day the day, YYYY-MM-DD)")
    effective_on: Mapped[date] = mapped_column(Date, comment="Day the value takes effect")
    resolution_number: Mapped[str] = mapped_column(String(40),
                                                   comment="The resolution that set it")
    resolution_date: Mapped[date] = mapped_column(Date, comment="Date of the resolution")
    reason_es: Mapped[str] = mapped_column(Text, default="",
                                           comment="A closed day's reason, in Spanish")
    reason_en: Mapped[str] = mapped_column(Text, default="",
                                           comment="A closed day's reason, in English")
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                      comment="Staff who recorded it")
    created_at: Mapped[datetime] = created_at()
