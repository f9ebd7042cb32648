"""autopay: saved payment methods, enrolments, debits, messages, the sandbox's setups

Revision ID: auto271
Revises: bo281
Create Date: 2026-12-05 13:06:54.216412

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision: str = 'auto271'
down_revision: str | Sequence[str] | None = 'bo281'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('sandbox_setups',
    sa.Column('id', sa.String(length=64), nullable=False, comment='seti_sandbox_...'),
    sa.Column('idempotency_key', sa.String(length=80), nullable=False, comment="The attempt's key"),
    sa.Column('customer_id', sa.String(length=64), nullable=False, comment='cus_sandbox_...'),
    sa.Column('reference', sa.String(length=40), nullable=False, comment="Our setup's id, as text"),
    sa.Column('locale', sa.String(length=5), nullable=False, comment='es or en'),
    sa.Column('success_url', sa.Text(), nullable=False, comment='Back to the portal when saved'),
    sa.Column('cancel_url', sa.Text(), nullable=False, comment='Back to the portal when cancelled'),
    sa.Column('status', sa.String(length=10), nullable=False, comment='open, complete or expired'),
    sa.Column('method_id', sa.String(length=64), nullable=True, comment='pm_sandbox_...'),
    sa.Column('method', sa.String(length=20), nullable=True, comment='card or us_bank_account'),
    sa.Column('last4', sa.String(length=4), nullable=True, comment='Test card or account digits'),
    sa.Column('bank_name', sa.String(length=100), nullable=True, comment='Test bank'),
    sa.Column('detached', sa.Boolean(), nullable=False, comment='Removed by the payer'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sandbox_setups')),
    sa.UniqueConstraint('idempotency_key', name=op.f('uq_sandbox_setups_idempotency_key')),
    sa.UniqueConstraint('method_id', name=op.f('uq_sandbox_setups_method_id'))
    )
    op.create_table('payment_method_setups',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('user_id', sa.Integer(), nullable=False, comment='The payer saving it'),
    sa.Column('provider', sa.String(length=8), nullable=False, comment='stripe or sandbox'),
    sa.Column('customer_id', sa.String(length=255), nullable=True, comment="The provider's customer"),
    sa.Column('provider_session_id', sa.String(length=255), nullable=True, comment="The provider's setup session"),
    sa.Column('idempotency_key', sa.String(length=80), nullable=False, comment='Stable key of this attempt'),
    sa.Column('return_to', sa.Integer(), nullable=True, comment='The parcel whose autopay page asked for it'),
    sa.Column('language', sa.String(length=2), nullable=False, comment='es or en'),
    sa.Column('status', sa.String(length=10), nullable=False, comment='open, complete or expired'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.CheckConstraint("language IN ('es', 'en')", name=op.f('ck_payment_method_setups_language')),
    sa.CheckConstraint("status IN ('open', 'complete', 'expired')", name=op.f('ck_payment_method_setups_status')),
    sa.ForeignKeyConstraint(['return_to'], ['parcels.id'], name=op.f('fk_payment_method_setups_return_to_parcels')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_payment_method_setups_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_payment_method_setups')),
    sa.UniqueConstraint('idempotency_key', name=op.f('uq_payment_method_setups_idempotency_key')),
    sa.UniqueConstraint('provider_session_id', name=op.f('uq_payment_method_setups_provider_session_id'))
    )
    with op.batch_alter_table('payment_method_setups', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_payment_method_setups_user_id'), ['user_id'], unique=False)

    op.create_table('saved_payment_methods',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('user_id', sa.Integer(), nullable=False, comment='The payer who saved it'),
    sa.Column('setup_id', sa.Integer(), nullable=True, comment='The setup that saved it'),
    sa.Column('provider', sa.String(length=8), nullable=False, comment='stripe or sandbox'),
    sa.Column('customer_id', sa.String(length=255), nullable=False, comment="The provider's customer"),
    sa.Column('provider_method_id', sa.String(length=255), nullable=False, comment="The provider's payment method"),
    sa.Column('kind', sa.String(length=8), nullable=False, comment='card or bank'),
    sa.Column('brand', sa.String(length=20), nullable=True, comment='Card brand, e.g. visa'),
    sa.Column('bank_name', sa.String(length=100), nullable=True, comment='Bank of the account'),
    sa.Column('last4', sa.String(length=4), nullable=True, comment='Last four digits'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('removed_at', sa.DateTime(timezone=True), nullable=True, comment='When the payer removed it'),
    sa.CheckConstraint("kind IN ('card', 'bank')", name=op.f('ck_saved_payment_methods_kind')),
    sa.ForeignKeyConstraint(['setup_id'], ['payment_method_setups.id'], name=op.f('fk_saved_payment_methods_setup_id_payment_method_setups')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_saved_payment_methods_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_saved_payment_methods')),
    sa.UniqueConstraint('provider', 'provider_method_id', name=op.f('uq_saved_payment_methods_provider_provider_method_id'))
    )
    with op.batch_alter_table('saved_payment_methods', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_saved_payment_methods_user_id'), ['user_id'], unique=False)

    op.create_table('autopay_enrolments',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('user_id', sa.Integer(), nullable=False, comment='The payer who enrolled'),
    sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
    sa.Column('method_id', sa.Integer(), nullable=False, comment='The saved method debited'),
    sa.Column('plan', sa.String(length=12), nullable=False, comment='installments or lump_sum'),
    sa.Column('lump_sum_on', sa.Date(), nullable=True, comment="The lump sum's debit day (Puerto Rico date)"),
    sa.Column('starts_on', sa.Date(), nullable=False, comment='Enrolled on (Puerto Rico date)'),
    sa.Column('language', sa.String(length=2), nullable=False, comment="The payer's language for its emails"),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True, comment='When it ended'),
    sa.Column('ended_on', sa.Date(), nullable=True, comment='First day with no debit (Puerto Rico date)'),
    sa.Column('end_reason', sa.String(length=16), nullable=True, comment='cancelled, lost_parcel, escrow or method_removed'),
    sa.Column('ended_by_id', sa.Integer(), nullable=True, comment='Who cancelled it (null: the portal)'),
    sa.CheckConstraint("(plan = 'lump_sum') = (lump_sum_on IS NOT NULL)", name=op.f('ck_autopay_enrolments_lump_sum_on')),
    sa.CheckConstraint("end_reason IS NULL OR end_reason IN ('cancelled', 'lost_parcel', 'escrow', 'method_removed')", name=op.f('ck_autopay_enrolments_end_reason')),
    sa.CheckConstraint("language IN ('es', 'en')", name=op.f('ck_autopay_enrolments_language')),
    sa.CheckConstraint("plan IN ('installments', 'lump_sum')", name=op.f('ck_autopay_enrolments_plan')),
    sa.CheckConstraint('(ended_at IS NULL) = (end_reason IS NULL)', name=op.f('ck_autopay_enrolments_ended')),
    sa.ForeignKeyConstraint(['ended_by_id'], ['users.id'], name=op.f('fk_autopay_enrolments_ended_by_id_users')),
    sa.ForeignKeyConstraint(['method_id'], ['saved_payment_methods.id'], name=op.f('fk_autopay_enrolments_method_id_saved_payment_methods')),
    sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'], name=op.f('fk_autopay_enrolments_parcel_id_parcels')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_autopay_enrolments_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_autopay_enrolments'))
    )
    with op.batch_alter_table('autopay_enrolments', schema=None) as batch_op:
        batch_op.create_index('ix_autopay_enrolments_parcel', ['parcel_id', 'ended_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_autopay_enrolments_user_id'), ['user_id'], unique=False)

    op.create_table('autopay_debits',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('enrolment_id', sa.Integer(), nullable=False, comment='The enrolment'),
    sa.Column('fiscal_year_id', sa.Integer(), nullable=False, comment="The account's fiscal year"),
    sa.Column('target', sa.String(length=16), nullable=False, comment='through-N or lump_sum'),
    sa.Column('numbers', sa.JSON(), nullable=False, comment='The installments it pays'),
    sa.Column('attempt', sa.Integer(), nullable=False, comment='1, or 2: the one retry'),
    sa.Column('day', sa.Date(), nullable=False, comment="The debit's day (Puerto Rico date)"),
    sa.Column('amount', sa.Numeric(precision=14, scale=2), nullable=False, comment="Amount debited: the offer's that day"),
    sa.Column('status', sa.String(length=12), nullable=False, comment='created, processing, succeeded or failed'),
    sa.Column('checkout_id', sa.Integer(), nullable=True, comment='The payment that carried it'),
    sa.Column('failure_code', sa.String(length=60), nullable=True, comment='Why it failed, if it did'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.CheckConstraint("status IN ('created', 'processing', 'succeeded', 'failed')", name=op.f('ck_autopay_debits_status')),
    sa.CheckConstraint('amount > 0', name=op.f('ck_autopay_debits_amount')),
    sa.CheckConstraint('attempt IN (1, 2)', name=op.f('ck_autopay_debits_attempt')),
    sa.ForeignKeyConstraint(['checkout_id'], ['checkouts.id'], name=op.f('fk_autopay_debits_checkout_id_checkouts')),
    sa.ForeignKeyConstraint(['enrolment_id'], ['autopay_enrolments.id'], name=op.f('fk_autopay_debits_enrolment_id_autopay_enrolments')),
    sa.ForeignKeyConstraint(['fiscal_year_id'], ['fiscal_years.id'], name=op.f('fk_autopay_debits_fiscal_year_id_fiscal_years')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_autopay_debits')),
    sa.UniqueConstraint('checkout_id', name=op.f('uq_autopay_debits_checkout_id')),
    sa.UniqueConstraint('enrolment_id', 'fiscal_year_id', 'target', 'attempt', name=op.f('uq_autopay_debits_enrolment_id_fiscal_year_id_target_attempt'))
    )
    with op.batch_alter_table('autopay_debits', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_autopay_debits_enrolment_id'), ['enrolment_id'], unique=False)

    op.create_table('autopay_messages',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('enrolment_id', sa.Integer(), nullable=False, comment='The enrolment'),
    sa.Column('fiscal_year_id', sa.Integer(), nullable=True, comment="The account's fiscal year"),
    sa.Column('target', sa.String(length=24), nullable=False, comment='through-N, lump_sum (or -2)'),
    sa.Column('kind', sa.String(length=10), nullable=False, comment='notice, debited, failed or ended'),
    sa.Column('day', sa.Date(), nullable=False, comment='The day it was sent for'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.CheckConstraint("kind IN ('notice', 'debited', 'failed', 'ended')", name=op.f('ck_autopay_messages_kind')),
    sa.ForeignKeyConstraint(['enrolment_id'], ['autopay_enrolments.id'], name=op.f('fk_autopay_messages_enrolment_id_autopay_enrolments')),
    sa.ForeignKeyConstraint(['fiscal_year_id'], ['fiscal_years.id'], name=op.f('fk_autopay_messages_fiscal_year_id_fiscal_years')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_autopay_messages')),
    sa.UniqueConstraint('enrolment_id', 'fiscal_year_id', 'target', 'kind', name=op.f('uq_autopay_messages_enrolment_id_fiscal_year_id_target_kind'))
    )
    with op.batch_alter_table('autopay_messages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_autopay_messages_enrolment_id'), ['enrolment_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('autopay_messages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_autopay_messages_enrolment_id'))

    op.drop_table('autopay_messages')
    with op.batch_alter_table('autopay_debits', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_autopay_debits_enrolment_id'))

    op.drop_table('autopay_debits')
    with op.batch_alter_table('autopay_enrolments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_autopay_enrolments_user_id'))
        batch_op.drop_index('ix_autopay_enrolments_parcel')

    op.drop_table('autopay_enrolments')
    with op.batch_alter_table('saved_payment_methods', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_saved_payment_methods_user_id'))

    op.drop_table('saved_payment_methods')
    with op.batch_alter_table('payment_method_setups', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_payment_method_setups_user_id'))

    op.drop_table('payment_method_setups')
    op.drop_table('sandbox_setups')
