"""Background jobs: jobs (long work that leaves the request, e.g. computing and publishing the
roll: its kind, input and checksum, status, progress done/total, who started it, the error's
message id) (portal/models/jobs.py).

Revision ID: p0006
Revises: p0005
Create Date: 2026-12-01 13:24:41.026484

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision: str = 'p0006'
down_revision: str | Sequence[str] | None = 'p0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('jobs',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('kind', sa.String(length=40), nullable=False, comment='What it does, e.g. roll.compute'),
    sa.Column('params', sa.JSON(), nullable=False, comment='Its input (ids, dates)'),
    sa.Column('input_checksum', sa.String(length=64), nullable=False, comment='SHA-256 of the kind and the input'),
    sa.Column('active_key', sa.String(length=64), nullable=True, comment="The input's checksum while queued or running (null after): one job at a time"),
    sa.Column('status', sa.String(length=10), nullable=False, comment='queued, running, succeeded or failed'),
    sa.Column('done', sa.Integer(), nullable=False, comment='Items done (committed)'),
    sa.Column('total', sa.Integer(), nullable=True, comment='Items in all (null: not known)'),
    sa.Column('attempts', sa.Integer(), nullable=False, comment='Times it was started'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('created_by_id', sa.Integer(), nullable=True, comment='Who started it'),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True, comment='When its last attempt started (UTC)'),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=True, comment='When it last committed a batch (UTC)'),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True, comment='When it ended (UTC)'),
    sa.Column('error_code', sa.String(length=40), nullable=True, comment='Why it failed: a message id, translated when shown'),
    sa.Column('error_params', sa.JSON(), nullable=True, comment="The figures of the error's message"),
    sa.Column('result', sa.JSON(), nullable=True, comment="What it produced (e.g. the roll's id)"),
    sa.CheckConstraint("status IN ('queued', 'running', 'succeeded', 'failed')", name=op.f('ck_jobs_status')),
    sa.CheckConstraint('done >= 0', name=op.f('ck_jobs_done')),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'], name=op.f('fk_jobs_created_by_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_jobs')),
    sa.UniqueConstraint('active_key', name=op.f('uq_jobs_active_key'))
    )
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_jobs_created_by_id'), ['created_by_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_jobs_input_checksum'), ['input_checksum'], unique=False)
        batch_op.create_index(batch_op.f('ix_jobs_kind'), ['kind'], unique=False)



def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_jobs_kind'))
        batch_op.drop_index(batch_op.f('ix_jobs_input_checksum'))
        batch_op.drop_index(batch_op.f('ix_jobs_created_by_id'))

    op.drop_table('jobs')
