"""the mail outbox and jobs that know their owner: `outbox_messages` (every email a row,
written in the unit of work that caused it, sent by the worker) and, on `jobs`, the worker's
claim token and heartbeat.

Revision ID: mail241
Revises: input251
Create Date: 2026-12-05 06:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'mail241'
down_revision: str | Sequence[str] | None = 'input251'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'outbox_messages',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
        sa.Column('template', sa.String(length=60), nullable=False,
                  comment="The email's template (its kind)"),
        sa.Column('recipient', sa.String(length=320), nullable=False, comment='The To address'),
        sa.Column('subject', sa.String(length=300), nullable=False,
                  comment='The subject, as sent'),
        sa.Column('message_id', sa.String(length=300), nullable=False,
                  comment='The Message-ID header (on our domain)'),
        sa.Column('bulk', sa.Boolean(), nullable=False,
                  comment='A bulk notice (List-Unsubscribe set)'),
        sa.Column('raw', sa.LargeBinary(), nullable=False,
                  comment='The message (RFC 5322 bytes)'),
        sa.Column('status', sa.String(length=10), nullable=False,
                  comment='pending, sent or failed'),
        sa.Column('attempts', sa.Integer(), nullable=False, comment='Times a send was tried'),
        sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False,
                  comment='Not to be tried before this instant (the backoff)'),
        sa.Column('claim_token', sa.String(length=32), nullable=True,
                  comment='The sender holding it (null: nobody)'),
        sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True,
                  comment="When the sender's claim lapses"),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True,
                  comment='When the relay accepted it (UTC)'),
        sa.Column('last_error', sa.Text(), nullable=True,
                  comment="The relay's last refusal or the connection's error"),
        sa.CheckConstraint("status IN ('pending', 'sent', 'failed')",
                           name=op.f('ck_outbox_messages_status')),
        sa.CheckConstraint('attempts >= 0', name=op.f('ck_outbox_messages_attempts')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox_messages')),
        sa.UniqueConstraint('message_id', name=op.f('uq_outbox_messages_message_id')),
    )
    op.create_index('ix_outbox_messages_due', 'outbox_messages',
                    ['status', 'next_attempt_at'], unique=False)
    with op.batch_alter_table('jobs') as batch:
        batch.add_column(sa.Column(
            'worker_token', sa.String(length=32), nullable=True,
            comment='The worker running it (its claim); every write it makes checks it'))
        batch.add_column(sa.Column(
            'heartbeat_at', sa.DateTime(timezone=True), nullable=True,
            comment='When its worker last said it is alive (UTC)'))


def downgrade() -> None:
    with op.batch_alter_table('jobs') as batch:
        batch.drop_column('heartbeat_at')
        batch.drop_column('worker_token')
    op.drop_index('ix_outbox_messages_due', table_name='outbox_messages')
    op.drop_table('outbox_messages')
