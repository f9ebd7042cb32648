"""A lender's portfolio kept by the lender (issue 28): loans.owner_name and loans.escrow; the
add/delete files of loans and their rows (loan_change_files, loan_change_rows); the bill files
and their lines (bill_files, bill_lines).

Revision ID: port01
Revises: coll261
Create Date: 2026-12-05 13:06:16

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'port01'
down_revision: str | Sequence[str] | None = 'coll261'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('bill_files',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('lender_id', sa.Integer(), nullable=False, comment='The lender'),
    sa.Column('created_by_id', sa.Integer(), nullable=True, comment="Who made it (a lender's user or the token's maker)"),
    sa.Column('fiscal_year_id', sa.Integer(), nullable=False, comment='The fiscal year billed'),
    sa.Column('due_by', sa.Date(), nullable=True, comment='Only installments due on or before this day (null: the whole year)'),
    sa.Column('as_of', sa.Date(), nullable=False, comment='The day its amounts are good for'),
    sa.Column('lines', sa.Integer(), nullable=False, comment='Loans with a line'),
    sa.Column('total', sa.Numeric(precision=14, scale=2), nullable=False, comment="The lines' amounts, summed"),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'], name=op.f('fk_bill_files_created_by_id_users')),
    sa.ForeignKeyConstraint(['fiscal_year_id'], ['fiscal_years.id'], name=op.f('fk_bill_files_fiscal_year_id_fiscal_years')),
    sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'], name=op.f('fk_bill_files_lender_id_lenders')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bill_files'))
    )
    with op.batch_alter_table('bill_files', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_bill_files_lender_id'), ['lender_id'], unique=False)

    op.create_table('bill_lines',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('file_id', sa.Integer(), nullable=False, comment='The file'),
    sa.Column('loan_id', sa.Integer(), nullable=False, comment='The loan'),
    sa.Column('parcel_id', sa.Integer(), nullable=False, comment='Its parcel'),
    sa.Column('loan_number', sa.String(length=40), nullable=False, comment='The loan number then'),
    sa.Column('catastro', sa.String(length=32), nullable=False, comment='The catastro number'),
    sa.Column('through', sa.Integer(), nullable=True, comment='The installment it pays through (null: nothing owed)'),
    sa.Column('amount', sa.Numeric(precision=14, scale=2), nullable=False, comment='Amount due: every installment through `through`, with what R-A10 pays first'),
    sa.Column('last_timely_day', sa.Date(), nullable=True, comment='Last day to pay it on time (R-A6; today when already late)'),
    sa.Column('lump_sum', sa.Numeric(precision=14, scale=2), nullable=True, comment='The lump sum (R-A11) when eligible'),
    sa.Column('lump_sum_by', sa.Date(), nullable=True, comment='Its last day'),
    sa.CheckConstraint('amount >= 0', name=op.f('ck_bill_lines_amount')),
    sa.ForeignKeyConstraint(['file_id'], ['bill_files.id'], name=op.f('fk_bill_lines_file_id_bill_files')),
    sa.ForeignKeyConstraint(['loan_id'], ['loans.id'], name=op.f('fk_bill_lines_loan_id_loans')),
    sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'], name=op.f('fk_bill_lines_parcel_id_parcels')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bill_lines')),
    sa.UniqueConstraint('file_id', 'loan_id', name=op.f('uq_bill_lines_file_id_loan_id'))
    )
    op.create_table('loan_change_files',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('lender_id', sa.Integer(), nullable=False, comment='The lender'),
    sa.Column('created_by_id', sa.Integer(), nullable=True, comment="The lender's user who sent it (or the token's maker)"),
    sa.Column('token_id', sa.Integer(), nullable=True, comment='The API token that sent it'),
    sa.Column('source', sa.String(length=4), nullable=False, comment='csv, api or form'),
    sa.Column('filename', sa.String(length=255), nullable=True, comment="The file's name"),
    sa.Column('idempotency_key', sa.String(length=255), nullable=True, comment="The API's Idempotency-Key (one file per key and lender)"),
    sa.Column('body_hash', sa.String(length=64), nullable=True, comment="SHA-256 of the API's body"),
    sa.Column('status', sa.String(length=8), nullable=False, comment='queued, running, done or failed'),
    sa.Column('job_id', sa.Integer(), nullable=True, comment='The background job processing it'),
    sa.Column('total', sa.Integer(), nullable=False, comment='Rows sent'),
    sa.Column('processed', sa.Integer(), nullable=False, comment='Rows processed'),
    sa.Column('done', sa.Integer(), nullable=False, comment='Loans added or removed'),
    sa.Column('rejected', sa.Integer(), nullable=False, comment='Rows refused'),
    sa.Column('unchanged', sa.Integer(), nullable=False, comment='Rows already so (nothing to change)'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True, comment='When it was processed'),
    sa.CheckConstraint("source IN ('csv', 'api', 'form')", name=op.f('ck_loan_change_files_source')),
    sa.CheckConstraint("status IN ('queued', 'running', 'done', 'failed')", name=op.f('ck_loan_change_files_status')),
    sa.CheckConstraint('total >= 0 AND processed >= 0 AND done >= 0 AND rejected >= 0 AND unchanged >= 0', name=op.f('ck_loan_change_files_counts')),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'], name=op.f('fk_loan_change_files_created_by_id_users')),
    sa.ForeignKeyConstraint(['job_id'], ['jobs.id'], name=op.f('fk_loan_change_files_job_id_jobs')),
    sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'], name=op.f('fk_loan_change_files_lender_id_lenders')),
    sa.ForeignKeyConstraint(['token_id'], ['lender_api_tokens.id'], name=op.f('fk_loan_change_files_token_id_lender_api_tokens')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_loan_change_files')),
    sa.UniqueConstraint('lender_id', 'idempotency_key', name=op.f('uq_loan_change_files_lender_id_idempotency_key'))
    )
    with op.batch_alter_table('loan_change_files', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_loan_change_files_lender_id'), ['lender_id'], unique=False)

    op.create_table('loan_change_rows',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('file_id', sa.Integer(), nullable=False, comment='The file'),
    sa.Column('row_number', sa.Integer(), nullable=False, comment="The row's number (header: 1)"),
    sa.Column('raw_values', sa.JSON(), nullable=False, comment='Every field as sent'),
    sa.Column('outcome', sa.String(length=9), nullable=True, comment='done, rejected or unchanged (null: not processed yet)'),
    sa.Column('error_column', sa.String(length=40), nullable=True, comment='The field a rejection is about'),
    sa.Column('reason', sa.String(length=40), nullable=True, comment='Why (a message id, worded when shown)'),
    sa.Column('parcel_id', sa.Integer(), nullable=True, comment='The parcel matched on the roll'),
    sa.Column('loan_id', sa.Integer(), nullable=True, comment='The loan added or removed'),
    sa.CheckConstraint("outcome IS NULL OR outcome IN ('done', 'rejected', 'unchanged')", name=op.f('ck_loan_change_rows_outcome')),
    sa.ForeignKeyConstraint(['file_id'], ['loan_change_files.id'], name=op.f('fk_loan_change_rows_file_id_loan_change_files')),
    sa.ForeignKeyConstraint(['loan_id'], ['loans.id'], name=op.f('fk_loan_change_rows_loan_id_loans')),
    sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'], name=op.f('fk_loan_change_rows_parcel_id_parcels')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_loan_change_rows')),
    sa.UniqueConstraint('file_id', 'row_number', name=op.f('uq_loan_change_rows_file_id_row_number'))
    )
    with op.batch_alter_table('loan_change_rows', schema=None) as batch_op:
        batch_op.create_index('ix_loan_change_rows_file_id_outcome', ['file_id', 'outcome'], unique=False)

    with op.batch_alter_table('loans', schema=None) as batch_op:
        batch_op.add_column(sa.Column('owner_name', sa.String(length=200), nullable=True, comment="The borrower's name as the lender gave it (its portfolio file)"))
        batch_op.add_column(sa.Column('escrow', sa.Boolean(), nullable=True, comment='The lender pays the property charges from an escrow account (null: not said)'))



def downgrade() -> None:
    with op.batch_alter_table('loans', schema=None) as batch_op:
        batch_op.drop_column('escrow')
        batch_op.drop_column('owner_name')

    with op.batch_alter_table('loan_change_rows', schema=None) as batch_op:
        batch_op.drop_index('ix_loan_change_rows_file_id_outcome')

    op.drop_table('loan_change_rows')
    with op.batch_alter_table('loan_change_files', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_loan_change_files_lender_id'))

    op.drop_table('loan_change_files')
    op.drop_table('bill_lines')
    with op.batch_alter_table('bill_files', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_bill_files_lender_id'))

    op.drop_table('bill_files')
