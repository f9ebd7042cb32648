"""the demand letter kept as queued and the scheduled collections run (R-A17, revision 3):
`demand_documents` (the PDF in the file store and the facts it states, one per demand and
kind: the payer's demand, the owner's copy) and `demand_schedule` (one scheduled run a day).

Revision ID: coll261
Revises: guest1
Create Date: 2026-12-05 13:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'coll261'
down_revision: str | Sequence[str] | None = 'guest1'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'demand_documents',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('notice_id', sa.Integer(), nullable=False,
                  comment='The demand notice it belongs to'),
        sa.Column('kind', sa.String(length=12), nullable=False,
                  comment='demand (to the payer) or owner_copy'),
        sa.Column('addressee_party_id', sa.Integer(), nullable=True,
                  comment='To whom it is addressed'),
        sa.Column('language', sa.String(length=2), nullable=False,
                  comment='Its first language (es, en)'),
        sa.Column('queued_on', sa.Date(), nullable=False,
                  comment='The Puerto Rico day it was queued'),
        sa.Column('mail_by', sa.Date(), nullable=False,
                  comment='The last day to mail it (R-A17)'),
        sa.Column('channel', sa.String(length=10), nullable=False,
                  comment="certified (the demand), email or print (the owner's copy)"),
        sa.Column('storage_key', sa.String(length=64), nullable=False,
                  comment="The PDF's SHA-256 (the storage key)"),
        sa.Column('size', sa.Integer(), nullable=False, comment="The PDF's size in bytes"),
        sa.Column('facts', sa.JSON(), nullable=False, comment='What the letter states, frozen'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint("kind IN ('demand', 'owner_copy')",
                           name=op.f('ck_demand_documents_kind')),
        sa.CheckConstraint("channel IN ('certified', 'email', 'print')",
                           name=op.f('ck_demand_documents_channel')),
        sa.ForeignKeyConstraint(['notice_id'], ['notices.id'],
                                name=op.f('fk_demand_documents_notice_id_notices')),
        sa.ForeignKeyConstraint(['addressee_party_id'], ['parties.id'],
                                name=op.f('fk_demand_documents_addressee_party_id_parties')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_demand_documents')),
        sa.UniqueConstraint('notice_id', 'kind', name=op.f('uq_demand_documents_notice_id_kind')),
    )
    op.create_index('ix_demand_documents_queued_on', 'demand_documents', ['queued_on'],
                    unique=False)
    op.create_table(
        'demand_schedule',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('run_on', sa.Date(), nullable=False, comment="The run's day"),
        sa.Column('job_id', sa.Integer(), nullable=True, comment="The collections run's job"),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.ForeignKeyConstraint(['job_id'], ['jobs.id'],
                                name=op.f('fk_demand_schedule_job_id_jobs')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_demand_schedule')),
        sa.UniqueConstraint('run_on', name=op.f('uq_demand_schedule_run_on')),
    )


def downgrade() -> None:
    op.drop_table('demand_schedule')
    op.drop_index('ix_demand_documents_queued_on', table_name='demand_documents')
    op.drop_table('demand_documents')
