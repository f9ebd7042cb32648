"""exemption_certifications.delivered_on: the day the owner delivered a lender's filing to
the lender, its filing date (R-B13, R-B21; docs/LENDERS.md); lender_batches.source also
"form" (the lender's form of one certification).

Revision ID: life26a
Revises: rb16plan
Create Date: 2026-12-06 07:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'life26a'
down_revision: str | Sequence[str] | None = 'rb16plan'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('exemption_certifications') as batch:
        batch.add_column(sa.Column(
            'delivered_on', sa.Date(), nullable=True,
            comment='A lender\'s filing: the day the owner delivered the certification to the '
                    'lender, its filing date (R-B13, R-B21)'))
    with op.batch_alter_table('lender_batches') as batch:
        batch.drop_constraint(op.f('ck_lender_batches_source'), type_='check')
        batch.create_check_constraint(op.f('ck_lender_batches_source'),
                                      "source IN ('csv', 'api', 'form')")
        batch.alter_column('source', existing_type=sa.String(length=4), existing_nullable=False,
                           comment='csv, api or form')


def downgrade() -> None:
    with op.batch_alter_table('lender_batches') as batch:
        batch.drop_constraint(op.f('ck_lender_batches_source'), type_='check')
        batch.create_check_constraint(op.f('ck_lender_batches_source'),
                                      "source IN ('csv', 'api')")
        batch.alter_column('source', existing_type=sa.String(length=4), existing_nullable=False,
                           comment='csv or api')
    with op.batch_alter_table('exemption_certifications') as batch:
        batch.drop_column('delivered_on')
