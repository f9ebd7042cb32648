"""A lender's kept totals (`lender_figures`: its active loans' count, amounts due now and
assessments of the year summed, and their parcels' municipalities, of one day and District
version) and each loan's `figures_version` (the facts version its lender's totals include;
-1: not included), with the partial index `ix_loans_figures_behind` over the loans behind
their lender's totals only, so the portfolio's first page reads the totals and one probe of
that index instead of a pass over every loan (models.fact_versions). No totals are kept
yet: each lender's are computed on its list's next view.

Revision ID: lendtot38
Revises: lendver35
Create Date: 2026-12-07 12:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'lendtot38'
down_revision: str | Sequence[str] | None = 'lendver35'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The partial index's predicate (models.lenders.BEHIND): a difference, on which PostgreSQL
#: keeps statistics (so that its planner knows how few loans match and takes the index).
BEHIND = "(facts_version - figures_version) != 0"


def upgrade() -> None:
    op.create_table(
        'lender_figures',
        sa.Column('lender_id', sa.Integer(), nullable=False, comment='The lender'),
        sa.Column('as_of', sa.Date(), nullable=True,
                  comment='The day of the figures summed (null: never computed)'),
        sa.Column('district_version', sa.BigInteger(), nullable=True,
                  comment="The District's version (facts_versions) read before computing"),
        sa.Column('loans', sa.Integer(), nullable=False, comment='Active loans on as_of'),
        sa.Column('due_now', sa.Numeric(precision=14, scale=2), nullable=False,
                  comment='Their amounts due now, summed'),
        sa.Column('annual', sa.Numeric(precision=14, scale=2), nullable=False,
                  comment="Their parcels' assessments of the year, summed"),
        sa.Column('municipalities', sa.Text(), nullable=False,
                  comment="The municipalities of their parcels (a JSON list, in the "
                          "database's order)"),
        sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'],
                                name=op.f('fk_lender_figures_lender_id_lenders')),
        sa.PrimaryKeyConstraint('lender_id', name=op.f('pk_lender_figures')))
    with op.batch_alter_table('loans', schema=None) as batch_op:
        batch_op.add_column(sa.Column(
            'figures_version', sa.Integer(), server_default='-1', nullable=False,
            comment="The facts_version its lender's kept totals (lender_figures) include; -1: "
                    "not included (a new or changed loan, figures computed since)"))
    op.create_index('ix_loans_figures_behind', 'loans', ['lender_id'], unique=False,
                    sqlite_where=sa.text(BEHIND), postgresql_where=sa.text(BEHIND))
    if op.get_bind().dialect.name == "postgresql":
        op.execute(sa.text("CREATE STATISTICS loans_figures_behind "
                           "ON (facts_version - figures_version) FROM loans"))


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(sa.text("DROP STATISTICS IF EXISTS loans_figures_behind"))
    op.drop_index('ix_loans_figures_behind', table_name='loans',
                  sqlite_where=sa.text(BEHIND), postgresql_where=sa.text(BEHIND))
    with op.batch_alter_table('loans', schema=None) as batch_op:
        batch_op.drop_column('figures_version')
    op.drop_table('lender_figures')
