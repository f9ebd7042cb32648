"""access: parcel_invitations (read access an owner gave to an email no account uses yet; it
becomes a parcel link when an account with that email is confirmed).

Revision ID: p0007
Revises: p0006
Create Date: 2026-12-01 13:25:56.557049

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision: str = 'p0007'
down_revision: str | Sequence[str] | None = 'p0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('parcel_invitations',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
    sa.Column('email', sa.String(length=254), nullable=False, comment='The invited email, normalised'),
    sa.Column('role', sa.String(length=10), nullable=False, comment='delegate or lessee'),
    sa.Column('granted_by_id', sa.Integer(), nullable=False, comment='Who gave the access'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('accepted_at', sa.DateTime(timezone=True), nullable=True, comment='When an account with the email confirmed it'),
    sa.Column('link_id', sa.Integer(), nullable=True, comment='The link it became'),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True, comment='When it was withdrawn'),
    sa.Column('revoked_by_id', sa.Integer(), nullable=True, comment='Who withdrew it'),
    sa.CheckConstraint("role IN ('lessee', 'delegate')", name=op.f('ck_parcel_invitations_role')),
    sa.ForeignKeyConstraint(['granted_by_id'], ['users.id'], name=op.f('fk_parcel_invitations_granted_by_id_users')),
    sa.ForeignKeyConstraint(['link_id'], ['parcel_links.id'], name=op.f('fk_parcel_invitations_link_id_parcel_links')),
    sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'], name=op.f('fk_parcel_invitations_parcel_id_parcels')),
    sa.ForeignKeyConstraint(['revoked_by_id'], ['users.id'], name=op.f('fk_parcel_invitations_revoked_by_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_parcel_invitations'))
    )
    with op.batch_alter_table('parcel_invitations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_parcel_invitations_email'), ['email'], unique=False)
        batch_op.create_index(batch_op.f('ix_parcel_invitations_parcel_id'), ['parcel_id'], unique=False)
        batch_op.create_index('uq_parcel_invitations_open', ['email', 'parcel_id'], unique=True, sqlite_where=sa.text('accepted_at IS NULL AND revoked_at IS NULL'), postgresql_where=sa.text('accepted_at IS NULL AND revoked_at IS NULL'))



def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('parcel_invitations', schema=None) as batch_op:
        batch_op.drop_index('uq_parcel_invitations_open', sqlite_where=sa.text('accepted_at IS NULL AND revoked_at IS NULL'), postgresql_where=sa.text('accepted_at IS NULL AND revoked_at IS NULL'))
        batch_op.drop_index(batch_op.f('ix_parcel_invitations_parcel_id'))
        batch_op.drop_index(batch_op.f('ix_parcel_invitations_email'))

    op.drop_table('parcel_invitations')
