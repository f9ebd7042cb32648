"""a lender's webhooks (issue 28): `lender_webhooks` (the endpoints and their signing
secrets) and `webhook_deliveries` (each event for each endpoint, written in the unit of work
that caused it, posted by the worker, retried with a backoff: the bank's delivery log).

Revision ID: api281
Revises: auto271
Create Date: 2026-12-05 13:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'api281'
down_revision: str | Sequence[str] | None = 'auto271'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'lender_webhooks',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('lender_id', sa.Integer(), nullable=False, comment='The lender told'),
        sa.Column('url', sa.String(length=500), nullable=False,
                  comment='The https address posted to'),
        sa.Column('secret', sa.String(length=80), nullable=False,
                  comment='The signing secret (whsec_...; kept to sign, shown once)'),
        sa.Column('events', sa.JSON(), nullable=False, comment='The events it is sent'),
        sa.Column('created_by_id', sa.Integer(), nullable=False,
                  comment='The administrator who registered it'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True,
                  comment='When it was removed (nothing is sent to it from then)'),
        sa.ForeignKeyConstraint(['created_by_id'], ['users.id'],
                                name=op.f('fk_lender_webhooks_created_by_id_users')),
        sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'],
                                name=op.f('fk_lender_webhooks_lender_id_lenders')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_lender_webhooks')),
    )
    op.create_index(op.f('ix_lender_webhooks_lender_id'), 'lender_webhooks', ['lender_id'],
                    unique=False)
    op.create_table(
        'webhook_deliveries',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('webhook_id', sa.Integer(), nullable=False, comment='The endpoint'),
        sa.Column('lender_id', sa.Integer(), nullable=False, comment="The endpoint's lender"),
        sa.Column('event_id', sa.String(length=40), nullable=False,
                  comment="The event's id (evt_...), sent with it"),
        sa.Column('event', sa.String(length=40), nullable=False,
                  comment='batch.finished, ...'),
        sa.Column('payload', sa.JSON(), nullable=False, comment="The event's data"),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.Column('status', sa.String(length=10), nullable=False,
                  comment='pending, delivered or failed'),
        sa.Column('attempts', sa.Integer(), nullable=False, comment='Times it was posted'),
        sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False,
                  comment='Not to be posted before this instant (the backoff)'),
        sa.Column('claim_token', sa.String(length=32), nullable=True,
                  comment='The worker holding it (null: nobody)'),
        sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True,
                  comment="When the worker's claim lapses"),
        sa.Column('last_status', sa.Integer(), nullable=True,
                  comment="The endpoint's last HTTP status (null: no answer)"),
        sa.Column('last_error', sa.Text(), nullable=True,
                  comment='Why the last attempt failed (a status, a timeout)'),
        sa.Column('delivered_at', sa.DateTime(timezone=True), nullable=True,
                  comment='When the endpoint answered 2xx (UTC)'),
        sa.CheckConstraint("status IN ('pending', 'delivered', 'failed')",
                           name=op.f('ck_webhook_deliveries_status')),
        sa.CheckConstraint('attempts >= 0', name=op.f('ck_webhook_deliveries_attempts')),
        sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'],
                                name=op.f('fk_webhook_deliveries_lender_id_lenders')),
        sa.ForeignKeyConstraint(['webhook_id'], ['lender_webhooks.id'],
                                name=op.f('fk_webhook_deliveries_webhook_id_lender_webhooks')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_deliveries')),
        sa.UniqueConstraint('event_id', name=op.f('uq_webhook_deliveries_event_id')),
    )
    op.create_index('ix_webhook_deliveries_due', 'webhook_deliveries',
                    ['status', 'next_attempt_at'], unique=False)
    op.create_index('ix_webhook_deliveries_lender', 'webhook_deliveries',
                    ['lender_id', 'id'], unique=False)
    op.create_index(op.f('ix_webhook_deliveries_webhook_id'), 'webhook_deliveries',
                    ['webhook_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_webhook_deliveries_webhook_id'), table_name='webhook_deliveries')
    op.drop_index('ix_webhook_deliveries_lender', table_name='webhook_deliveries')
    op.drop_index('ix_webhook_deliveries_due', table_name='webhook_deliveries')
    op.drop_table('webhook_deliveries')
    op.drop_index(op.f('ix_lender_webhooks_lender_id'), table_name='lender_webhooks')
    op.drop_table('lender_webhooks')
