"""lender batches (J7, R-B9, R-B21): a lender's bulk residential-exemption certifications, by
CSV or the API, and each row's outcome.

Revision ID: p0017
Revises: p0016
Create Date: 2026-12-01 20:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0017'
down_revision: str | Sequence[str] | None = 'p0016'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f'{target}.id'],
                                   name=op.f(f'fk_{table}_{column}_{target}'))


def _count(name: str, comment: str) -> sa.Column:
    return sa.Column(name, sa.Integer(), nullable=False, comment=comment)


def _money(name: str, comment: str) -> sa.Column:
    return sa.Column(name, sa.Numeric(precision=14, scale=2), nullable=True, comment=comment)


def upgrade() -> None:
    op.create_table(
        'lender_batches',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('lender_id', sa.Integer(), nullable=False, comment='The lender it is for'),
        sa.Column('created_by_id', sa.Integer(), nullable=True,
                  comment="The lender's user who sent it"),
        sa.Column('token_id', sa.Integer(), nullable=True, comment='The API token that sent it'),
        sa.Column('source', sa.String(length=4), nullable=False, comment='csv or api'),
        sa.Column('filename', sa.String(length=255), nullable=True,
                  comment="The uploaded file's name"),
        sa.Column('idempotency_key', sa.String(length=255), nullable=True,
                  comment="The API's Idempotency-Key (one batch per key and lender)"),
        sa.Column('body_hash', sa.String(length=64), nullable=True,
                  comment="SHA-256 of the API request's body"),
        sa.Column('status', sa.String(length=8), nullable=False,
                  comment='queued, running, done or failed'),
        sa.Column('job_id', sa.Integer(), nullable=True,
                  comment='The background job processing it'),
        _count('total', 'Rows sent'),
        _count('processed', 'Rows processed'),
        _count('accepted', 'Rows filed'),
        _count('rejected', 'Rows refused'),
        _count('duplicates', 'Rows already filed with the same answers'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True,
                  comment='When it was processed'),
        sa.CheckConstraint("status IN ('queued', 'running', 'done', 'failed')",
                           name=op.f('ck_lender_batches_status')),
        sa.CheckConstraint("source IN ('csv', 'api')", name=op.f('ck_lender_batches_source')),
        sa.CheckConstraint('total >= 0 AND processed >= 0 AND accepted >= 0 AND rejected >= 0 '
                           'AND duplicates >= 0', name=op.f('ck_lender_batches_counts')),
        _fk('lender_batches', 'lender_id', 'lenders'),
        _fk('lender_batches', 'created_by_id', 'users'),
        _fk('lender_batches', 'token_id', 'lender_api_tokens'),
        _fk('lender_batches', 'job_id', 'jobs'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_lender_batches')),
        sa.UniqueConstraint('lender_id', 'idempotency_key',
                            name=op.f('uq_lender_batches_lender_id_idempotency_key')),
    )
    op.create_index(op.f('ix_lender_batches_lender_id'), 'lender_batches', ['lender_id'],
                    unique=False)
    op.create_index(op.f('ix_lender_batches_created_by_id'), 'lender_batches',
                    ['created_by_id'], unique=False)
    op.create_table(
        'lender_batch_rows',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('batch_id', sa.Integer(), nullable=False, comment='The batch'),
        sa.Column('row_number', sa.Integer(), nullable=False,
                  comment="The row's number (a file's header is row 1, as a spreadsheet "
                          "counts)"),
        sa.Column('loan_number', sa.String(length=40), nullable=False, comment='As sent'),
        sa.Column('catastro', sa.String(length=40), nullable=False, comment='As sent'),
        sa.Column('fiscal_year', sa.String(length=20), nullable=False, comment='As sent'),
        sa.Column('raw_values', sa.JSON(), nullable=False, comment='Every field as sent'),
        sa.Column('outcome', sa.String(length=9), nullable=True,
                  comment='accepted, rejected or duplicate (null: not processed yet)'),
        sa.Column('error_column', sa.String(length=40), nullable=True,
                  comment='The field a rejection is about'),
        sa.Column('reason', sa.String(length=40), nullable=True,
                  comment='Why it was rejected: a message id, worded when shown'),
        sa.Column('reason_params', sa.JSON(), nullable=True,
                  comment="The figures of the reason's message"),
        _money('exemption_amount',
               "The residential exemption computed (the core's), for an accepted row"),
        _money('net_tax',
               "The year's property tax with the exemption (the core's), for an accepted row"),
        sa.Column('certification_id', sa.Integer(), nullable=True,
                  comment='The certification filed (or already on file, for a duplicate)'),
        sa.CheckConstraint("outcome IS NULL OR outcome IN ('accepted', 'rejected', "
                           "'duplicate')", name=op.f('ck_lender_batch_rows_outcome')),
        _fk('lender_batch_rows', 'batch_id', 'lender_batches'),
        _fk('lender_batch_rows', 'certification_id', 'exemption_certifications'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_lender_batch_rows')),
        sa.UniqueConstraint('batch_id', 'row_number',
                            name=op.f('uq_lender_batch_rows_batch_id_row_number')),
    )
    op.create_index('ix_lender_batch_rows_batch_id_outcome', 'lender_batch_rows',
                    ['batch_id', 'outcome'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_lender_batch_rows_batch_id_outcome', table_name='lender_batch_rows')
    op.drop_table('lender_batch_rows')
    op.drop_index(op.f('ix_lender_batches_created_by_id'), table_name='lender_batches')
    op.drop_index(op.f('ix_lender_batches_lender_id'), table_name='lender_batches')
    op.drop_table('lender_batches')
