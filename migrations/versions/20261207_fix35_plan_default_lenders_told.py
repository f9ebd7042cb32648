"""plan_defaults: how many of the lenders' users were emailed of the default
(`plan_default_lender`), stored with the default as whether the owner was; null for the
defaults found before it was kept (the emails were sent, not counted).

Revision ID: fix35
Revises: roll35
Create Date: 2026-12-07 04:10:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'fix35'
down_revision: str | Sequence[str] | None = 'roll35'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('plan_defaults', sa.Column(
        'lenders_told', sa.Integer(), nullable=True,
        comment="How many of the lenders' users were emailed (null: found before this was "
                "kept)"))


def downgrade() -> None:
    with op.batch_alter_table('plan_defaults', schema=None) as batch_op:
        batch_op.drop_column('lenders_told')
