"""loan_figures.facts: how many facts (the parcel's ledger entries and assessments, the Board's
values, all append-only) each loan's figures were computed from, read before computing them; the
figures are out of date when the count now differs, so a fact committed after a refresh is never
hidden (a creation time taken before the refresh could be). The cached figures are dropped so
that every loan's are computed again, with it, on its next read.

Revision ID: lend32
Revises: reports31
Create Date: 2026-12-06 22:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'lend32'
down_revision: str | Sequence[str] | None = 'reports31'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(sa.text("DELETE FROM loan_figures"))  # a cache of the day: computed again
    column = sa.Column(
        'facts', sa.Integer(), nullable=False,
        comment="How many facts they were computed from (the parcel's ledger entries and "
                "assessments, the Board's values: append-only, so a later one changes it)")
    if op.get_bind().dialect.name == "sqlite":  # no NOT NULL column added without a default
        with op.batch_alter_table('loan_figures', schema=None, recreate="always") as batch_op:
            batch_op.add_column(column)
    else:
        op.add_column('loan_figures', column)


def downgrade() -> None:
    with op.batch_alter_table('loan_figures', schema=None) as batch_op:
        batch_op.drop_column('facts')
