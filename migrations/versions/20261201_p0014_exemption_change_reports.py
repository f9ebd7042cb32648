"""exemption change reports (J6): moved, rented, sold, spouse died, use changed, other.

Revision ID: p0014
Revises: p0013
Create Date: 2026-12-01 16:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision: str = 'p0014'
down_revision: str | Sequence[str] | None = 'p0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('exemption_change_reports',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel whose exemption it concerns'),
    sa.Column('kind', sa.String(length=24), nullable=False, comment='moved, rented, sold_or_transferred, spouse_died, use_changed or other'),
    sa.Column('change_date', sa.Date(), nullable=False, comment='When the change happened'),
    sa.Column('details', sa.Text(), nullable=False, comment='The new facts, as written'),
    sa.Column('original_titleholder', sa.Boolean(), nullable=True, comment='spouse_died: the survivor is named on the certification (R-B5)'),
    sa.Column('residential_use_confirmed', sa.Boolean(), nullable=True, comment='spouse_died: the survivor confirms the home is still used as such'),
    sa.Column('reporter_id', sa.Integer(), nullable=False, comment='Who reported it'),
    sa.Column('attested_name', sa.String(length=200), nullable=False, comment='The full name typed to attest the report is true (R-B12)'),
    sa.Column('language', sa.String(length=2), nullable=False, comment="The reporter's language (its email)"),
    sa.Column('reported_at', sa.DateTime(timezone=True), nullable=False, comment='When it was reported (UTC)'),
    sa.Column('reported_on', sa.Date(), nullable=False, comment='The Puerto Rico day of the report'),
    sa.Column('deadline', sa.Date(), nullable=False, comment='Last good day: December 31 (R-B9)'),
    sa.Column('late', sa.Boolean(), nullable=False, comment='Reported after the deadline (flagged)'),
    sa.Column('lender_id', sa.Integer(), nullable=True, comment='The lender of a loan on the parcel that forwards it to the CRIM (R-B9)'),
    sa.Column('forwarded_at', sa.DateTime(timezone=True), nullable=True, comment='When the lender recorded forwarding it to the CRIM (R-B9)'),
    sa.Column('forwarded_by_id', sa.Integer(), nullable=True, comment="The lender's user who recorded it"),
    sa.Column('status', sa.String(length=16), nullable=False, comment='filed or acknowledged (forward only)'),
    sa.Column('acknowledged_at', sa.DateTime(timezone=True), nullable=True, comment='When staff acknowledged it'),
    sa.Column('acknowledged_by_id', sa.Integer(), nullable=True, comment='Staff who acknowledged it'),
    sa.CheckConstraint("(status = 'acknowledged') = (acknowledged_at IS NOT NULL)", name=op.f('ck_exemption_change_reports_acknowledged')),
    sa.CheckConstraint('forwarded_at IS NULL OR lender_id IS NOT NULL', name=op.f('ck_exemption_change_reports_forwarded')),
    sa.CheckConstraint("kind IN ('moved', 'rented', 'sold_or_transferred', 'spouse_died', 'use_changed', 'other')", name=op.f('ck_exemption_change_reports_kind')),
    sa.CheckConstraint("language IN ('es', 'en')", name=op.f('ck_exemption_change_reports_language')),
    sa.CheckConstraint("status IN ('filed', 'acknowledged')", name=op.f('ck_exemption_change_reports_status')),
    sa.CheckConstraint('change_date <= reported_on', name=op.f('ck_exemption_change_reports_change_before_report')),
    sa.ForeignKeyConstraint(['acknowledged_by_id'], ['users.id'], name=op.f('fk_exemption_change_reports_acknowledged_by_id_users')),
    sa.ForeignKeyConstraint(['forwarded_by_id'], ['users.id'], name=op.f('fk_exemption_change_reports_forwarded_by_id_users')),
    sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'], name=op.f('fk_exemption_change_reports_lender_id_lenders')),
    sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'], name=op.f('fk_exemption_change_reports_parcel_id_parcels')),
    sa.ForeignKeyConstraint(['reporter_id'], ['users.id'], name=op.f('fk_exemption_change_reports_reporter_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exemption_change_reports'))
    )
    with op.batch_alter_table('exemption_change_reports', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_exemption_change_reports_lender_id'), ['lender_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_exemption_change_reports_parcel_id'), ['parcel_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_exemption_change_reports_reporter_id'), ['reporter_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('exemption_change_reports', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_exemption_change_reports_reporter_id'))
        batch_op.drop_index(batch_op.f('ix_exemption_change_reports_parcel_id'))
        batch_op.drop_index(batch_op.f('ix_exemption_change_reports_lender_id'))

    op.drop_table('exemption_change_reports')
