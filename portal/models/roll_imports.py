"""The parcel roll's imports: an uploaded CSV file (kept in the instance
folder, named by its id), its check's report (the rows refused and why) and its staged rows
(each valid row, parsed, with what it would change on the roll). See docs/ROLL_IMPORT.md."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Date,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base, UTCDateTime, created_at
from portal.models.parties import Party

IMPORT_STATUSES = ("uploaded", "checking", "invalid", "valid", "importing", "imported")
CHANGES = ("new", "changed", "same")


class RollImport(Base):
    """One uploaded roll file and what its last check and import found."""

    __tablename__ = "roll_imports"
    __table_args__ = (
        CheckConstraint("status IN ('uploaded', 'checking', 'invalid', 'valid', 'importing', "
                        "'imported')", name="status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    filename: Mapped[str] = mapped_column(String(200), comment="The file's name as uploaded")
    stored_path: Mapped[str] = mapped_column(Text, comment="Where the file is kept (instance)")
    sha256: Mapped[str] = mapped_column(String(64), index=True,
                                        comment="SHA-256 of the file's bytes")
    size_bytes: Mapped[int] = mapped_column(BigInteger, comment="The file's size in bytes")
    encoding: Mapped[str | None] = mapped_column(String(12),
                                                 comment="utf-8-sig or cp1252, once checked")
    delimiter: Mapped[str | None] = mapped_column(String(1), comment=", or ;, once checked")
    status: Mapped[str] = mapped_column(
        String(10), default="uploaded",
        comment="uploaded, checking, invalid, valid, importing or imported")
    rows: Mapped[int] = mapped_column(Integer, default=0, comment="Data rows read")
    error_rows: Mapped[int] = mapped_column(Integer, default=0, comment="Rows refused")
    errors: Mapped[int] = mapped_column(Integer, default=0,
                                        comment="Errors found (the report keeps the first ones)")
    new_count: Mapped[int] = mapped_column(Integer, default=0,
                                           comment="Parcels the file adds to the roll")
    changed_count: Mapped[int] = mapped_column(Integer, default=0,
                                               comment="Parcels whose facts it changes")
    same_count: Mapped[int] = mapped_column(Integer, default=0,
                                            comment="Parcels it leaves as they are")
    removed_count: Mapped[int] = mapped_column(
        Integer, default=0, comment="Parcels on the roll the file does not list")
    file_error: Mapped[str | None] = mapped_column(
        String(40), comment="Why the file as a whole was refused (a message id)")
    file_error_params: Mapped[dict[str, Any] | None] = mapped_column(
        JSON, comment="The figures of that message")
    as_of: Mapped[date | None] = mapped_column(
        Date, comment="The day new owners' shares start (the import's day)")
    created_at: Mapped[datetime] = created_at()
    created_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                               comment="Staff who uploaded it")
    checked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="When its last check ended")
    imported_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                         comment="When it was last imported")


class RollImportError(Base):
    """One reason a row (or the file) was refused: row, column, value and a message id."""

    __tablename__ = "roll_import_errors"
    __table_args__ = (Index("ix_roll_import_errors_import_row", "import_id", "row_number",
                            "id"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    import_id: Mapped[int] = mapped_column(ForeignKey("roll_imports.id"),
                                           comment="The import")
    row_number: Mapped[int] = mapped_column(Integer,
                                            comment="Row in the file (the header is row 1)")
    column_name: Mapped[str] = mapped_column(String(60),
                                             comment="The column as the header spells it")
    value: Mapped[str] = mapped_column(String(200), comment="The value as written (cut)")
    code: Mapped[str] = mapped_column(String(40), comment="Why: a message id")
    params: Mapped[str | None] = mapped_column(Text, comment="The message's figures (JSON)")

    @property
    def figures(self) -> dict[str, Any]:
        return json.loads(self.params) if self.params else {}


class RollImportRow(Base):
    """A valid row of an import, parsed (JSON), with what it would change on the roll."""

    __tablename__ = "roll_import_rows"
    __table_args__ = (
        CheckConstraint("change IN ('new', 'changed', 'same')", name="change"),
        Index("ix_roll_import_rows_import_catastro", "import_id", "catastro"),
        Index("ix_roll_import_rows_import_change", "import_id", "change", "row_number"),
        # pass 2 walks an import's rows by id, a batch at a time (migration p0021)
        Index("ix_roll_import_rows_import_id", "import_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    import_id: Mapped[int] = mapped_column(ForeignKey("roll_imports.id"),
                                           comment="The import")
    row_number: Mapped[int] = mapped_column(Integer, comment="Row in the file")
    catastro: Mapped[str] = mapped_column(String(32), comment="Catastro number, normalised")
    change: Mapped[str] = mapped_column(String(8), comment="new, changed or same")
    parcel_id: Mapped[int | None] = mapped_column(
        Integer, comment="The parcel on the roll with this catastro, when there is one")
    changed: Mapped[str] = mapped_column(String(300), default="",
                                         comment="The parcel's columns it changes, by name")
    data: Mapped[str] = mapped_column(Text, comment="The row parsed (JSON)")


#: The import finds an owner's or a lessee's party by email, a batch of rows at a time; on a
#: roll of 1.5 M parcels (as many parties) that needs an index. Declared here, with the
#: import that needs it (migration p0013), on the parties table.
PARTY_EMAIL_INDEX = Index("ix_parties_email", Party.email)
