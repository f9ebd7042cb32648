"""Snapshots of the staff's reports (docs/REPORTS.md): a report that reads the whole District
(payments by day and method, the assessment register, the aging, the court list) is computed
by the background worker, once a day and when staff ask, and its page reads the latest
snapshot: its figures and its rows, in order, a page at a time by key.

A snapshot is written in one transaction with all its rows, then the older snapshots of the
same report and parameters are deleted: a page sees a whole snapshot or the one before it.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Date, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base, UTCDateTime


class ReportSnapshot(Base):
    """One computation of a report: its figures, for the day it was computed on."""

    __tablename__ = "report_snapshots"
    __table_args__ = (Index("ix_report_snapshots_name_key", "name", "params_key", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    name: Mapped[str] = mapped_column(String(20), comment="The report's name, e.g. morosidad")
    params_key: Mapped[str] = mapped_column(
        String(40), default="", comment="Its parameters, e.g. ano=2026-07-01 (empty: none)")
    day: Mapped[date] = mapped_column(Date, comment="The Puerto Rico day it is computed for")
    computed_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), comment="When its computation finished (UTC)")
    figures: Mapped[list[Any]] = mapped_column(JSON, comment="Its figures, as on the page")
    row_count: Mapped[int] = mapped_column(Integer, comment="How many rows it has")
    job_id: Mapped[int | None] = mapped_column(ForeignKey("jobs.id"),
                                               comment="The job that computed it")


class ReportSnapshotRow(Base):
    """One row of a snapshot, in the report's order (`seq` from 1)."""

    __tablename__ = "report_snapshot_rows"

    snapshot_id: Mapped[int] = mapped_column(ForeignKey("report_snapshots.id"),
                                             primary_key=True, comment="Its snapshot")
    seq: Mapped[int] = mapped_column(Integer, primary_key=True,
                                     comment="Its place in the report (from 1)")
    cells: Mapped[list[Any]] = mapped_column(JSON, comment="Its values (tagged JSON)")
