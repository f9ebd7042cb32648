"""plan_entries: what the CRIM reports of an approved payment plan (R-B16): each payment
received and the auction notice costs after a default (docs/EXEMPTION.md).

Revision ID: rb16plan
Revises: rc7accr
Create Date: 2026-12-06 05:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'rb16plan'
down_revision: str | Sequence[str] | None = 'rc7accr'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'plan_entries',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('certification_id', sa.Integer(), nullable=False,
                  comment='The certification whose plan it is'),
        sa.Column('kind', sa.String(length=14), nullable=False,
                  comment='payment or notice_costs (R-B16)'),
        sa.Column('entry_on', sa.Date(), nullable=False,
                  comment='The day the CRIM received or charged it'),
        sa.Column('amount', sa.Numeric(precision=14, scale=2), nullable=False,
                  comment='The amount, as the CRIM reports it'),
        sa.Column('reference', sa.String(length=120), nullable=False,
                  comment="The CRIM's receipt or report"),
        sa.Column('created_by_id', sa.Integer(), nullable=True, comment='Staff who recorded it'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint("kind IN ('payment', 'notice_costs')",
                           name=op.f('ck_plan_entries_kind')),
        sa.CheckConstraint('amount > 0', name=op.f('ck_plan_entries_amount')),
        sa.ForeignKeyConstraint(['certification_id'], ['exemption_certifications.id'],
                                name=op.f('fk_plan_entries_certification_id_exemption_certifications')),
        sa.ForeignKeyConstraint(['created_by_id'], ['users.id'],
                                name=op.f('fk_plan_entries_created_by_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_plan_entries')),
    )
    op.create_index(op.f('ix_plan_entries_certification_id'), 'plan_entries',
                    ['certification_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_plan_entries_certification_id'), table_name='plan_entries')
    op.drop_table('plan_entries')
