"""Payments: refund_failures (a recorded refund the provider later reports failed, undone
once by a ledger reversal) and provider_disputes (a payer's dispute of a charge, shown to
staff) (portal/models/checkouts.py).

Revision ID: p0004
Revises: p0003
Create Date: 2026-12-01 10:08:30

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision: str = 'p0004'
down_revision: str | Sequence[str] | None = 'p0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('provider_disputes',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('provider', sa.String(length=8), nullable=False, comment='stripe'),
    sa.Column('dispute_id', sa.String(length=255), nullable=False, comment="The provider's dispute id"),
    sa.Column('checkout_id', sa.Integer(), nullable=True, comment='The checkout disputed (null: unknown)'),
    sa.Column('payment_intent', sa.String(length=255), nullable=True, comment="The provider's payment intent id"),
    sa.Column('amount', sa.Numeric(precision=14, scale=2), nullable=False, comment='Amount disputed'),
    sa.Column('currency', sa.String(length=3), nullable=False, comment='usd'),
    sa.Column('reason', sa.String(length=40), nullable=False, comment="The payer's reason, e.g. fraudulent"),
    sa.Column('status', sa.String(length=30), nullable=False, comment='needs_response, won, lost ...'),
    sa.Column('evidence_due_by', sa.DateTime(timezone=True), nullable=True, comment='Last moment to answer it at the provider (UTC)'),
    sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False, comment='When the payer opened it (UTC)'),
    sa.Column('status_at', sa.DateTime(timezone=True), nullable=False, comment='Time of the event that set the status (older ones ignored)'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.CheckConstraint('amount >= 0', name=op.f('ck_provider_disputes_amount')),
    sa.ForeignKeyConstraint(['checkout_id'], ['checkouts.id'], name=op.f('fk_provider_disputes_checkout_id_checkouts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_provider_disputes')),
    sa.UniqueConstraint('provider', 'dispute_id', name=op.f('uq_provider_disputes_provider_dispute_id'))
    )
    with op.batch_alter_table('provider_disputes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_provider_disputes_checkout_id'), ['checkout_id'], unique=False)

    op.create_table('refund_failures',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('payment_refund_id', sa.Integer(), nullable=False, comment='The refund part undone'),
    sa.Column('checkout_id', sa.Integer(), nullable=False, comment='The checkout it was refunded from'),
    sa.Column('payment_id', sa.Integer(), nullable=False, comment="The account's payment"),
    sa.Column('amount', sa.Numeric(precision=14, scale=2), nullable=False, comment='Amount that did not go back'),
    sa.Column('provider_refund_id', sa.String(length=255), nullable=True, comment="The provider's refund id"),
    sa.Column('failure_reason', sa.String(length=40), nullable=False, comment="The provider's reason, e.g. expired_or_canceled_card"),
    sa.Column('reversal_entry_id', sa.Integer(), nullable=False, comment='The ledger entry reversing the refund'),
    sa.Column('failed_at', sa.DateTime(timezone=True), nullable=False, comment='When the provider reported the failure (its event, UTC)'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.CheckConstraint('amount > 0', name=op.f('ck_refund_failures_amount')),
    sa.ForeignKeyConstraint(['checkout_id'], ['checkouts.id'], name=op.f('fk_refund_failures_checkout_id_checkouts')),
    sa.ForeignKeyConstraint(['payment_id'], ['payments.id'], name=op.f('fk_refund_failures_payment_id_payments')),
    sa.ForeignKeyConstraint(['payment_refund_id'], ['payment_refunds.id'], name=op.f('fk_refund_failures_payment_refund_id_payment_refunds')),
    sa.ForeignKeyConstraint(['reversal_entry_id'], ['ledger_entries.id'], name=op.f('fk_refund_failures_reversal_entry_id_ledger_entries')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_refund_failures')),
    sa.UniqueConstraint('payment_refund_id', name=op.f('uq_refund_failures_payment_refund_id'))
    )
    with op.batch_alter_table('refund_failures', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_refund_failures_checkout_id'), ['checkout_id'], unique=False)



def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('refund_failures', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_refund_failures_checkout_id'))

    op.drop_table('refund_failures')
    with op.batch_alter_table('provider_disputes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_provider_disputes_checkout_id'))

    op.drop_table('provider_disputes')
