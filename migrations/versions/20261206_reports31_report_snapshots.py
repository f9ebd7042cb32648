"""report_snapshots: the staff's reports that read the whole District, computed by the
worker (daily and on request) and read by their pages (docs/REPORTS.md).

Revision ID: reports31
Revises: stafffix1
Create Date: 2026-12-06 21:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'reports31'
down_revision: str | Sequence[str] | None = 'stafffix1'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'report_snapshots',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('name', sa.String(length=20), nullable=False,
                  comment="The report's name, e.g. morosidad"),
        sa.Column('params_key', sa.String(length=40), nullable=False,
                  comment='Its parameters, e.g. ano=2026-07-01 (empty: none)'),
        sa.Column('day', sa.Date(), nullable=False,
                  comment='The Puerto Rico day it is computed for'),
        sa.Column('computed_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When its computation finished (UTC)'),
        sa.Column('figures', sa.JSON(), nullable=False, comment='Its figures, as on the page'),
        sa.Column('row_count', sa.Integer(), nullable=False, comment='How many rows it has'),
        sa.Column('job_id', sa.Integer(), nullable=True, comment='The job that computed it'),
        sa.ForeignKeyConstraint(['job_id'], ['jobs.id'],
                                name=op.f('fk_report_snapshots_job_id_jobs')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_report_snapshots')),
    )
    with op.batch_alter_table('report_snapshots') as batch:
        batch.create_index('ix_report_snapshots_name_key', ['name', 'params_key', 'id'],
                           unique=False)
    op.create_table(
        'report_snapshot_rows',
        sa.Column('snapshot_id', sa.Integer(), nullable=False, comment='Its snapshot'),
        sa.Column('seq', sa.Integer(), nullable=False,
                  comment='Its place in the report (from 1)'),
        sa.Column('cells', sa.JSON(), nullable=False, comment='Its values (tagged JSON)'),
        sa.ForeignKeyConstraint(['snapshot_id'], ['report_snapshots.id'],
                                name=op.f('fk_report_snapshot_rows_snapshot_id_report_snapshots')),
        sa.PrimaryKeyConstraint('snapshot_id', 'seq', name=op.f('pk_report_snapshot_rows')),
    )


def downgrade() -> None:
    op.drop_table('report_snapshot_rows')
    with op.batch_alter_table('report_snapshots') as batch:
        batch.drop_index('ix_report_snapshots_name_key')
    op.drop_table('report_snapshots')
