"""attachment_accruals: what the Treasury states accrued on a notice's debt after the notice of
attachment, to a day (R-C7): interest, surcharges and penalties since the notice, what each
later day adds and the custody costs to that day (docs/ATTACHMENTS.md).

Revision ID: rc7accr
Revises: lend25
Create Date: 2026-12-06 04:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'rc7accr'
down_revision: str | Sequence[str] | None = 'lend25'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _money(name: str, comment: str) -> sa.Column:
    return sa.Column(name, sa.Numeric(precision=14, scale=2), nullable=False, comment=comment)


def upgrade() -> None:
    op.create_table(
        'attachment_accruals',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('notice_id', sa.Integer(), nullable=False,
                  comment='The notice of attachment'),
        sa.Column('stated_on', sa.Date(), nullable=False,
                  comment="The day the Treasury's figures run to (R-C7)"),
        _money('accrued',
               'Interest, surcharges and penalties accrued from the notice to stated_on (R-C7)'),
        _money('per_day', 'What each day after stated_on adds, as stated (R-C7)'),
        _money('custody_costs',
               'Custody and deposit costs to stated_on, at cost: the total (R-C3, R-C7)'),
        sa.Column('reference', sa.String(length=120), nullable=False,
                  comment="The Treasury's statement it comes from"),
        sa.Column('created_by_id', sa.Integer(), nullable=True, comment='Staff who recorded it'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint('accrued >= 0 AND per_day >= 0 AND custody_costs >= 0',
                           name=op.f('ck_attachment_accruals_amounts')),
        sa.ForeignKeyConstraint(['created_by_id'], ['users.id'],
                                name=op.f('fk_attachment_accruals_created_by_id_users')),
        sa.ForeignKeyConstraint(['notice_id'], ['attachment_notices.id'],
                                name=op.f('fk_attachment_accruals_notice_id_attachment_notices')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_attachment_accruals')),
    )
    op.create_index(op.f('ix_attachment_accruals_notice_id'), 'attachment_accruals',
                    ['notice_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_attachment_accruals_notice_id'), table_name='attachment_accruals')
    op.drop_table('attachment_accruals')
