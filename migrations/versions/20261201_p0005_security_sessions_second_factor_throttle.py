"""Sign-in security: web_sessions (server-side sessions: the cookie holds a token, the row its
hash), recovery_codes (staff's second factor), throttle_hits (the sign-in throttle's counters,
shared by every worker) and users.totp_enabled_at (portal/models/security.py).

Revision ID: p0005
Revises: p0004
Create Date: 2026-12-01 10:57:44.315936

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision: str = 'p0005'
down_revision: str | Sequence[str] | None = 'p0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('throttle_hits',
    sa.Column('key', sa.String(length=200), nullable=False, comment='What is counted: the limit and who'),
    sa.Column('window_start', sa.Integer(), autoincrement=False, nullable=False, comment='Window start, seconds since the epoch'),
    sa.Column('hits', sa.Integer(), nullable=False, comment='Hits in the window'),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False, comment='When the row may be deleted (UTC)'),
    sa.PrimaryKeyConstraint('key', 'window_start', name=op.f('pk_throttle_hits'))
    )
    with op.batch_alter_table('throttle_hits', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_throttle_hits_expires_at'), ['expires_at'], unique=False)

    op.create_table('recovery_codes',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('user_id', sa.Integer(), nullable=False, comment='Whose code'),
    sa.Column('code_hash', sa.String(length=255), nullable=False, comment="The code's hash"),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True, comment='When it was used (null: still usable)'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_recovery_codes_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_recovery_codes'))
    )
    with op.batch_alter_table('recovery_codes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_recovery_codes_user_id'), ['user_id'], unique=False)

    op.create_table('web_sessions',
    sa.Column('id', sa.String(length=64), nullable=False, comment="SHA-256 of the cookie's token, hex"),
    sa.Column('user_id', sa.Integer(), nullable=True, comment='The user signed in (null: none)'),
    sa.Column('data', sa.Text(), nullable=False, comment="The session's data, JSON"),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=False, comment='Last request (UTC): the idle timeout counts from it'),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False, comment='Absolute end of the session (UTC)'),
    sa.Column('address', sa.String(length=45), nullable=False, comment='The address it was opened from'),
    sa.Column('user_agent', sa.String(length=200), nullable=False, comment='The browser it was opened from'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_web_sessions_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_web_sessions'))
    )
    with op.batch_alter_table('web_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_web_sessions_expires_at'), ['expires_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_web_sessions_user_id'), ['user_id'], unique=False)

    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('totp_enabled_at', sa.DateTime(timezone=True), nullable=True, comment='When two-factor sign-in was confirmed (null: not enrolled)'))



def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('web_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_web_sessions_user_id'))
        batch_op.drop_index(batch_op.f('ix_web_sessions_expires_at'))

    op.drop_table('web_sessions')
    with op.batch_alter_table('recovery_codes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_recovery_codes_user_id'))

    op.drop_table('recovery_codes')
    with op.batch_alter_table('throttle_hits', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_throttle_hits_expires_at'))

    op.drop_table('throttle_hits')
    # A plain ALTER TABLE ... DROP COLUMN (SQLite 3.35+ too): a batch rebuild of users would
    # drop the table that every other table references.
    op.drop_column('users', 'totp_enabled_at')
