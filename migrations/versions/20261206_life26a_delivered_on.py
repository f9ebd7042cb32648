"""exemption_certifications.delivered_on: the day the owner delivered a lender's filing to
the lender, its filing date (R-B13, R-B21; docs/LENDERS.md); lender_batches.source also
"form" (the lender's form of one certification); coop_elections: a housing
cooperative's election of a year, the cooperative's own, its units' certifications pointing
to it (R-B4, R-B20).

Revision ID: life26a
Revises: ops24c1
Create Date: 2026-12-06 07:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'life26a'
down_revision: str | Sequence[str] | None = 'ops24c1'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'coop_elections',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('fiscal_year_start', sa.Date(), nullable=False,
                  comment='July 1 opening the FY'),
        sa.Column('cooperative_name', sa.String(length=200), nullable=False,
                  comment='The housing cooperative, as written'),
        sa.Column('name_key', sa.String(length=200), nullable=False,
                  comment='The name as compared (no accents, case or spaces)'),
        sa.Column('election', sa.String(length=16), nullable=False,
                  comment='residential or cooperative_law (R-B4)'),
        sa.Column('lender_id', sa.Integer(), nullable=True,
                  comment='The lender that recorded it'),
        sa.Column('recorded_by_id', sa.Integer(), nullable=False,
                  comment='The user who recorded it'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint("election IN ('residential', 'cooperative_law')",
                           name=op.f('ck_coop_elections_election')),
        sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'],
                                name=op.f('fk_coop_elections_lender_id_lenders')),
        sa.ForeignKeyConstraint(['recorded_by_id'], ['users.id'],
                                name=op.f('fk_coop_elections_recorded_by_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_coop_elections')),
        sa.UniqueConstraint('fiscal_year_start', 'name_key',
                            name=op.f('uq_coop_elections_fiscal_year_start_name_key')),
    )
    with op.batch_alter_table('exemption_certifications') as batch:
        batch.add_column(sa.Column(
            'coop_election_id', sa.Integer(), nullable=True,
            comment="A cooperative's unit: the cooperative's election it is filed under (R-B4)"))
        batch.add_column(sa.Column(
            'delivered_on', sa.Date(), nullable=True,
            comment='A lender\'s filing: the day the owner delivered the certification to the '
                    'lender, its filing date (R-B13, R-B21)'))
        batch.create_index(batch.f('ix_exemption_certifications_coop_election_id'),
                           ['coop_election_id'], unique=False)
        batch.create_foreign_key(
            batch.f('fk_exemption_certifications_coop_election_id_coop_elections'),
            'coop_elections', ['coop_election_id'], ['id'])
    with op.batch_alter_table('lender_batches') as batch:
        batch.drop_constraint(op.f('ck_lender_batches_source'), type_='check')
        batch.create_check_constraint(op.f('ck_lender_batches_source'),
                                      "source IN ('csv', 'api', 'form')")
        batch.alter_column('source', existing_type=sa.String(length=4), existing_nullable=False,
                           comment='csv, api or form')


def downgrade() -> None:
    with op.batch_alter_table('lender_batches') as batch:
        batch.drop_constraint(op.f('ck_lender_batches_source'), type_='check')
        batch.create_check_constraint(op.f('ck_lender_batches_source'),
                                      "source IN ('csv', 'api')")
        batch.alter_column('source', existing_type=sa.String(length=4), existing_nullable=False,
                           comment='csv or api')
    with op.batch_alter_table('exemption_certifications') as batch:
        batch.drop_constraint(
            batch.f('fk_exemption_certifications_coop_election_id_coop_elections'),
            type_='foreignkey')
        batch.drop_index(batch.f('ix_exemption_certifications_coop_election_id'))
        batch.drop_column('delivered_on')
        batch.drop_column('coop_election_id')
    op.drop_table('coop_elections')
