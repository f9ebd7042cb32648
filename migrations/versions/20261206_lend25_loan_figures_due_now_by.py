"""loan_figures.due_now_by: the last day to pay what is due now on time, kept beside due_now
(the offer's `due_now_by`, computed once in the core); the cached figures are dropped so that
every loan's are computed again, with it, on its next read.

Revision ID: lend25
Revises: lend28
Create Date: 2026-12-06 04:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'lend25'
down_revision: str | Sequence[str] | None = 'lend28'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(sa.text("DELETE FROM loan_figures"))  # a cache of the day: computed again
    op.add_column('loan_figures', sa.Column(
        'due_now_by', sa.Date(), nullable=True,
        comment='The last day to pay what is due now on time (null: nothing due)'))


def downgrade() -> None:
    with op.batch_alter_table('loan_figures', schema=None) as batch_op:
        batch_op.drop_column('due_now_by')
