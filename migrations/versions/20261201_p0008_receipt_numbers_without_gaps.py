"""payments: receipt numbers without gaps, in one scheme, assigned at success.

`receipt_sequences` holds the last number issued in each year; `payments.receipt_number` the
number of a payment recorded without a checkout (the office, the demo). Existing databases
keep their numbers: each year's counter starts after the highest number already issued that
year (checkouts' "YYYY-NNNNNN"), and existing succeeded payments without a checkout are
numbered after it, in the order they were completed.

Revision ID: p0008
Revises: p0007
Create Date: 2026-12-01 14:38:45.372573

"""
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0008'
down_revision: str | Sequence[str] | None = 'p0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Puerto Rico is UTC-4 all year (no daylight saving time): the legal date of an instant.
PR_OFFSET = timedelta(hours=-4)
NUMBER = re.compile(r"^(\d{4})-(\d+)$")
#: A payment that has succeeded (applied, or refunded since).
SUCCEEDED = ("processing", "succeeded", "partially_refunded", "refunded")


def _year(value: datetime | str) -> int:
    if isinstance(value, str):  # SQLite's text
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return (value.astimezone(UTC) + PR_OFFSET).year


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('receipt_sequences',
    sa.Column('year', sa.Integer(), autoincrement=False, nullable=False, comment="Year of the success's Puerto Rico legal date"),
    sa.Column('last', sa.Integer(), nullable=False, comment='Last number issued that year'),
    sa.CheckConstraint('last >= 0', name=op.f('ck_receipt_sequences_last')),
    sa.PrimaryKeyConstraint('year', name=op.f('pk_receipt_sequences'))
    )
    op.add_column('payments', sa.Column('receipt_number', sa.String(length=24), nullable=True, comment='Receipt number of a payment without a checkout, given when it succeeds'))
    op.create_index('uq_payments_receipt_number', 'payments', ['receipt_number'], unique=True)

    conn = op.get_bind()
    last: dict[int, int] = {}
    for (number,) in conn.execute(sa.text(
            "SELECT receipt_number FROM checkouts WHERE receipt_number IS NOT NULL")):
        m = NUMBER.match(number)
        if m:
            year, n = int(m.group(1)), int(m.group(2))
            last[year] = max(last.get(year, 0), n)
    rows = conn.execute(sa.text(
        "SELECT p.id, p.completed_at FROM payments p"
        " WHERE p.completed_at IS NOT NULL AND p.status IN :done"
        " AND NOT EXISTS (SELECT 1 FROM checkout_payments cp WHERE cp.payment_id = p.id)"
        " ORDER BY p.completed_at, p.id").bindparams(
            sa.bindparam("done", expanding=True)), {"done": list(SUCCEEDED)}).all()
    numbered = []
    for pid, completed_at in rows:
        year = _year(completed_at)
        last[year] = last.get(year, 0) + 1
        numbered.append({"id": pid, "number": f"{year}-{last[year]:06d}"})
    if numbered:
        conn.execute(sa.text("UPDATE payments SET receipt_number = :number WHERE id = :id"),
                     numbered)
    if last:
        conn.execute(sa.text("INSERT INTO receipt_sequences (year, last) VALUES (:year, :last)"),
                     [{"year": y, "last": n} for y, n in sorted(last.items())])


def downgrade() -> None:
    """Downgrade schema (payments without a checkout show their numbers no more)."""
    op.drop_index('uq_payments_receipt_number', table_name='payments')
    # A plain ALTER TABLE ... DROP COLUMN (SQLite 3.35+): no rebuild of a referenced table.
    op.drop_column('payments', 'receipt_number')
    op.drop_table('receipt_sequences')
