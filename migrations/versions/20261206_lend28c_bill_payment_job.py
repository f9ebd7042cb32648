"""bill_payments.job_id: the job that starts a prepared payment (its checkout written and
its provider session opened outside the request); bill_files.source: a file made by the
bank from the bill file page or the API ("file"), or from the loans page's filters
("loans": only the loans those filters select).

Revision ID: lend28c1
Revises: rb16plan
Create Date: 2026-12-06 07:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'lend28c1'
down_revision: str | Sequence[str] | None = 'rb16plan'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('bill_payments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('job_id', sa.Integer(), nullable=True,
                                      comment='The job that starts it (null: not started '
                                              'by a job)'))
        batch_op.create_foreign_key(batch_op.f('fk_bill_payments_job_id_jobs'), 'jobs',
                                    ['job_id'], ['id'])
    with op.batch_alter_table('bill_files', schema=None) as batch_op:
        batch_op.add_column(sa.Column(
            'source', sa.String(length=10), nullable=False, server_default='file',
            comment='file: the bill file page or the API; loans: the loans page\'s filters'))


def downgrade() -> None:
    with op.batch_alter_table('bill_files', schema=None) as batch_op:
        batch_op.drop_column('source')
    with op.batch_alter_table('bill_payments', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_bill_payments_job_id_jobs'), type_='foreignkey')
        batch_op.drop_column('job_id')
