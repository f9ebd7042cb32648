"""loan_number_lists: the loan numbers of a CSV a lender uploaded to pay, loaded in chunks
so a bill file of just those loans is made by a join (docs/LENDERS.md).

Revision ID: lend28d1
Revises: life26a
Create Date: 2026-12-06 08:20:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'lend28d1'
down_revision: str | Sequence[str] | None = 'life26a'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'loan_number_lists',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('list_key', sa.String(length=64), nullable=False,
                  comment='SHA-256 of the lender and the numbers listed'),
        sa.Column('lender_id', sa.Integer(), nullable=False,
                  comment='The lender that uploaded it'),
        sa.Column('loan_number', sa.String(length=40), nullable=False,
                  comment='A loan number, as listed'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'],
                                name=op.f('fk_loan_number_lists_lender_id_lenders')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_loan_number_lists')),
        sa.UniqueConstraint('list_key', 'loan_number',
                            name=op.f('uq_loan_number_lists_list_key_loan_number')),
    )
    with op.batch_alter_table('loan_number_lists', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_loan_number_lists_lender_id'), ['lender_id'],
                              unique=False)
        batch_op.create_index(batch_op.f('ix_loan_number_lists_list_key'), ['list_key'],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table('loan_number_lists', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_loan_number_lists_list_key'))
        batch_op.drop_index(batch_op.f('ix_loan_number_lists_lender_id'))
    op.drop_table('loan_number_lists')
