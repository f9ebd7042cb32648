"""collections: demand letters of the delinquency run (R-A12, R-A17) and court claims (R-A13).

A demand's mailing and return receipt stay on its `notices` row (kind "demand"); lessee
deposit orders (R-A14) are the existing `deposit_orders` table.

Revision ID: p0012
Revises: p0011
Create Date: 2026-12-01 16:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0012'
down_revision: str | Sequence[str] | None = 'p0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _money(name: str, comment: str) -> sa.Column:
    return sa.Column(name, sa.Numeric(precision=14, scale=2), nullable=False, comment=comment)


def upgrade() -> None:
    op.create_table(
        'demand_letters',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('notice_id', sa.Integer(), nullable=False,
                  comment='The demand notice (mailing, receipt)'),
        sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
        sa.Column('fiscal_year_id', sa.Integer(), nullable=False,
                  comment='The fiscal year of the account'),
        sa.Column('run_on', sa.Date(), nullable=False, comment="The run's day (amounts as of it)"),
        sa.Column('job_id', sa.Integer(), nullable=True, comment="The collections run's job"),
        _money('interest', "Interest to the run's day (R-A8)"),
        _money('late_fees', 'Late fees owed (R-A7)'),
        _money('costs', 'Collection costs owed (R-A9)'),
        _money('delinquent_principal', 'Delinquent principal (R-A6)'),
        _money('credit', 'Credit on the account (R-A10)'),
        _money('total', 'All amounts then due (R-A12)'),
        sa.Column('installments', sa.String(length=200), nullable=False,
                  comment='Installment numbers demanded, e.g. 2,3'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint('interest >= 0 AND late_fees >= 0 AND costs >= 0 AND '
                           'delinquent_principal > 0 AND credit >= 0 AND total >= 0',
                           name=op.f('ck_demand_letters_amounts')),
        sa.ForeignKeyConstraint(['fiscal_year_id'], ['fiscal_years.id'],
                                name=op.f('fk_demand_letters_fiscal_year_id_fiscal_years')),
        sa.ForeignKeyConstraint(['job_id'], ['jobs.id'],
                                name=op.f('fk_demand_letters_job_id_jobs')),
        sa.ForeignKeyConstraint(['notice_id'], ['notices.id'],
                                name=op.f('fk_demand_letters_notice_id_notices')),
        sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'],
                                name=op.f('fk_demand_letters_parcel_id_parcels')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_demand_letters')),
        sa.UniqueConstraint('notice_id', name=op.f('uq_demand_letters_notice_id')),
        sa.UniqueConstraint('parcel_id', 'fiscal_year_id', 'run_on',
                            name=op.f('uq_demand_letters_parcel_id_fiscal_year_id_run_on')),
    )
    op.create_index('ix_demand_letters_run_on', 'demand_letters', ['run_on'], unique=False)
    op.create_table(
        'court_claims',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('notice_id', sa.Integer(), nullable=False, comment='The demand claimed'),
        sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
        sa.Column('fiscal_year_id', sa.Integer(), nullable=False,
                  comment='The fiscal year of the account'),
        sa.Column('filed_on', sa.Date(), nullable=False, comment='Day the claim was filed'),
        sa.Column('case_number', sa.String(length=40), nullable=False,
                  comment="The court's case number"),
        sa.Column('created_by_id', sa.Integer(), nullable=True,
                  comment='Staff who recorded it'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.ForeignKeyConstraint(['created_by_id'], ['users.id'],
                                name=op.f('fk_court_claims_created_by_id_users')),
        sa.ForeignKeyConstraint(['fiscal_year_id'], ['fiscal_years.id'],
                                name=op.f('fk_court_claims_fiscal_year_id_fiscal_years')),
        sa.ForeignKeyConstraint(['notice_id'], ['notices.id'],
                                name=op.f('fk_court_claims_notice_id_notices')),
        sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'],
                                name=op.f('fk_court_claims_parcel_id_parcels')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_court_claims')),
        sa.UniqueConstraint('notice_id', name=op.f('uq_court_claims_notice_id')),
    )


def downgrade() -> None:
    op.drop_table('court_claims')
    op.drop_index('ix_demand_letters_run_on', table_name='demand_letters')
    op.drop_table('demand_letters')
