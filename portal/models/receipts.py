"""`receipt_sequences`: the last receipt number issued in each year (one row per year).

Every receipt, a checkout's or a payment's recorded without one (the office, the demo), is
"YYYY-NNNNNN": the Puerto Rico legal date's year of the success and the next number of that
year's counter. The counter is incremented in one statement (INSERT ... ON CONFLICT DO UPDATE
... RETURNING, `accounts.ledger.next_receipt_numbers`) inside the transaction that records
the success: a rollback gives the number back, and concurrent successes wait on the row.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, Integer
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base


class ReceiptSequence(Base):
    """The last receipt number issued in a year."""

    __tablename__ = "receipt_sequences"
    __table_args__ = (CheckConstraint("last >= 0", name="last"),)

    year: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False,
                                      comment="Year of the success's Puerto Rico legal date")
    last: Mapped[int] = mapped_column(Integer, comment="Last number issued that year")
