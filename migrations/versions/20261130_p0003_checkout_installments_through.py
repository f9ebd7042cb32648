"""Payments: checkout_payments.installments_through. The N of
"installments through N" chosen when the checkout is created, so a receipt names it even
before (or without) any receipt line: a failed, expired or processing payment.

Revision ID: p0003
Revises: p0002
Create Date: 2026-11-30 08:10:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0003'
down_revision: str | Sequence[str] | None = 'p0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('checkout_payments') as batch:
        batch.add_column(sa.Column(
            'installments_through', sa.Integer(), nullable=True,
            comment="For 'installments through N': the N chosen (shown without lines)"))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('checkout_payments') as batch:
        batch.drop_column('installments_through')
