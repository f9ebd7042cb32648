"""A bill file's payments, kept as prepared: what each pays (bill_payment_items, written a
batch at a time, so one payment covers a whole file) and its exceptions report
(bill_payment_exceptions), read and downloaded later; bill_payments.checkout_id once started.

Revision ID: lend28
Revises: acct1
Create Date: 2026-12-06 04:10:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'lend28'
down_revision: str | Sequence[str] | None = 'acct1'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MONEY = sa.Numeric(precision=14, scale=2)


def upgrade() -> None:
    op.create_table('bill_payments',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('file_id', sa.Integer(), nullable=False, comment='The bill file'),
    sa.Column('created_by_id', sa.Integer(), nullable=True, comment='Who prepared it'),
    sa.Column('q', sa.String(length=40), nullable=False, comment='Filter: the start of a loan or catastro number'),
    sa.Column('by', sa.Date(), nullable=True, comment='Filter: last timely day by'),
    sa.Column('as_of', sa.Date(), nullable=False, comment='The day its amounts are good for'),
    sa.Column('items', sa.Integer(), nullable=False, comment='Accounts it pays'),
    sa.Column('exceptions', sa.Integer(), nullable=False, comment='Lines in its exceptions report'),
    sa.Column('billed', MONEY, nullable=False, comment="The file's amounts of the lines it pays"),
    sa.Column('total', MONEY, nullable=False, comment="Today's amounts of the lines it pays"),
    sa.Column('checkout_id', sa.Integer(), nullable=True, comment='Its checkout, once started'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.ForeignKeyConstraint(['file_id'], ['bill_files.id'], name=op.f('fk_bill_payments_file_id_bill_files')),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'], name=op.f('fk_bill_payments_created_by_id_users')),
    sa.ForeignKeyConstraint(['checkout_id'], ['checkouts.id'], name=op.f('fk_bill_payments_checkout_id_checkouts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bill_payments'))
    )
    with op.batch_alter_table('bill_payments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_bill_payments_file_id'), ['file_id'], unique=False)
    op.create_table('bill_payment_items',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('payment_id', sa.Integer(), nullable=False, comment='The bill payment'),
    sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
    sa.Column('fiscal_year_id', sa.Integer(), nullable=False, comment='The fiscal year'),
    sa.Column('through', sa.Integer(), nullable=False, comment='Installments through this one'),
    sa.Column('amount', MONEY, nullable=False, comment='What it pays, as the offer said when prepared'),
    sa.ForeignKeyConstraint(['payment_id'], ['bill_payments.id'], name=op.f('fk_bill_payment_items_payment_id_bill_payments')),
    sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'], name=op.f('fk_bill_payment_items_parcel_id_parcels')),
    sa.ForeignKeyConstraint(['fiscal_year_id'], ['fiscal_years.id'], name=op.f('fk_bill_payment_items_fiscal_year_id_fiscal_years')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bill_payment_items')),
    sa.UniqueConstraint('payment_id', 'parcel_id', 'fiscal_year_id', name=op.f('uq_bill_payment_items_payment_id_parcel_id_fiscal_year_id'))
    )
    op.create_table('bill_payment_exceptions',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('payment_id', sa.Integer(), nullable=False, comment='The bill payment'),
    sa.Column('loan_id', sa.Integer(), nullable=False, comment='The loan'),
    sa.Column('loan_number', sa.String(length=40), nullable=False, comment='The loan number'),
    sa.Column('catastro', sa.String(length=32), nullable=False, comment='The catastro number'),
    sa.Column('billed', MONEY, nullable=False, comment='The amount in the file'),
    sa.Column('now', MONEY, nullable=False, comment='What was owed when the payment was prepared'),
    sa.Column('code', sa.String(length=20), nullable=False, comment='Why (a message id, worded when shown)'),
    sa.ForeignKeyConstraint(['payment_id'], ['bill_payments.id'], name=op.f('fk_bill_payment_exceptions_payment_id_bill_payments')),
    sa.ForeignKeyConstraint(['loan_id'], ['loans.id'], name=op.f('fk_bill_payment_exceptions_loan_id_loans')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bill_payment_exceptions'))
    )
    with op.batch_alter_table('bill_payment_exceptions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_bill_payment_exceptions_payment_id'), ['payment_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('bill_payment_exceptions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_bill_payment_exceptions_payment_id'))
    op.drop_table('bill_payment_exceptions')
    op.drop_table('bill_payment_items')
    with op.batch_alter_table('bill_payments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_bill_payments_file_id'))
    op.drop_table('bill_payments')
