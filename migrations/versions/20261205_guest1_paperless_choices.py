"""paperless_choices: an owner's choice of email instead of paper for a parcel's notices and
statements (issue 27 item 5; portal/accounts/paperless.py, docs/ROLL.md).

Revision ID: guest1
Revises: rem271
Create Date: 2026-12-05 13:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'guest1'
down_revision: str | Sequence[str] | None = 'rem271'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'paperless_choices',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('user_id', sa.Integer(), nullable=False,
                  comment='The owner (or paying lessee) who chose'),
        sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
        sa.Column('paperless', sa.Boolean(), nullable=False,
                  comment='Email instead of paper (false: paper)'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
        sa.Column('changed_at', sa.DateTime(timezone=True), nullable=True, comment='Last change (UTC)'),
        sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'],
                                name=op.f('fk_paperless_choices_parcel_id_parcels')),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_paperless_choices_user_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_paperless_choices')),
        sa.UniqueConstraint('user_id', 'parcel_id',
                            name=op.f('uq_paperless_choices_user_id_parcel_id')),
    )
    op.create_index(op.f('ix_paperless_choices_parcel_id'), 'paperless_choices', ['parcel_id'])
    op.create_index(op.f('ix_paperless_choices_user_id'), 'paperless_choices', ['user_id'])


def downgrade() -> None:
    op.drop_index(op.f('ix_paperless_choices_user_id'), table_name='paperless_choices')
    op.drop_index(op.f('ix_paperless_choices_parcel_id'), table_name='paperless_choices')
    op.drop_table('paperless_choices')
