"""loan_figures: the rest of what the dashboard shows of a loan's parcel, from the same offer
the core computes at a refresh (how many installments are due now, the next payment's amount,
count and last day on time, the one-payment option of R-A11 while it is open), so that a
lender's dashboard reads its loans' rows from here while their figures are fresh. The cached
figures are dropped so that every loan's are computed again, with them, on its next read.

Revision ID: lend33
Revises: lend32
Create Date: 2026-12-07 00:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'lend33'
down_revision: str | Sequence[str] | None = 'lend32'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MONEY = sa.Numeric(14, 2, asdecimal=True)


def _columns() -> list[sa.Column]:
    return [
        sa.Column('due_now_count', sa.Integer(), nullable=False,
                  comment='How many installments what is due now covers (0: nothing due)'),
        sa.Column('next_amount', MONEY, nullable=True,
                  comment='What the next payment asks (null: nothing else is due this year)'),
        sa.Column('next_count', sa.Integer(), nullable=False,
                  comment='How many installments the next payment covers (0: none)'),
        sa.Column('next_last_day', sa.Date(), nullable=True,
                  comment="The next payment's last day to pay on time (R-A6)"),
        sa.Column('lump_amount', MONEY, nullable=True,
                  comment='R-A11: the whole year in one payment today (null: the option is '
                          'not open)'),
        sa.Column('lump_discount', MONEY, nullable=True,
                  comment='R-A11: what paying the whole year in one payment saves'),
        sa.Column('lump_by', sa.Date(), nullable=True,
                  comment='R-A11: the last day of the one-payment option'),
    ]


def upgrade() -> None:
    op.execute(sa.text("DELETE FROM loan_figures"))  # a cache of the day: computed again
    if op.get_bind().dialect.name == "sqlite":  # no NOT NULL column added without a default
        with op.batch_alter_table('loan_figures', schema=None, recreate="always") as batch_op:
            for column in _columns():
                batch_op.add_column(column)
    else:
        for column in _columns():
            op.add_column('loan_figures', column)


def downgrade() -> None:
    with op.batch_alter_table('loan_figures', schema=None) as batch_op:
        for name in ('lump_by', 'lump_discount', 'lump_amount', 'next_last_day', 'next_count',
                     'next_amount', 'due_now_count'):
            batch_op.drop_column(name)
