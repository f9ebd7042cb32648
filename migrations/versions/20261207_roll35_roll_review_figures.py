"""roll_review_figures: what the roll's review shows of a computed roll (its lines' counts,
sum, smallest and largest share, the histogram's counts, the largest shares, the exempt lines
by reason, an amendment's totals), kept when its computation ends so that a view reads one
row instead of aggregates over every line. Rolls computed before get theirs on their first
view (not here: a roll may have 1.5 million lines).

Revision ID: roll35
Revises: lend33
Create Date: 2026-12-07 04:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'roll35'
down_revision: str | Sequence[str] | None = 'lend33'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MONEY = sa.Numeric(14, 2)
SUM = sa.Numeric(16, 2)


def upgrade() -> None:
    op.create_table(
        'roll_review_figures',
        sa.Column('roll_id', sa.Integer(), nullable=False, comment='The computed roll'),
        sa.Column('lines', sa.Integer(), nullable=False, comment='Its lines'),
        sa.Column('exempt', sa.Integer(), nullable=False, comment='Its exempt lines (R-A2)'),
        sa.Column('total_assessed', SUM, nullable=False, comment='The sum of the shares'),
        sa.Column('low', MONEY, nullable=True,
                  comment='The smallest share (null: no parcel assessed)'),
        sa.Column('high', MONEY, nullable=True, comment='The largest share'),
        sa.Column('bins', sa.JSON(), nullable=False,
                  comment='The shares counted per bin of the histogram (core.bin_edges)'),
        sa.Column('top', sa.JSON(), nullable=False,
                  comment='The largest shares: [parcel id, catastro, cents, benefit units]'),
        sa.Column('reasons', sa.JSON(), nullable=True,
                  comment='The exempt lines by reason: [code, count] (null: to read again)'),
        sa.Column('seen', sa.BigInteger(), nullable=True,
                  comment="The greatest assessment id when the amendment's part was read"),
        sa.Column('amends', sa.Boolean(), nullable=True,
                  comment='Whether an earlier version of its year has published assessments'),
        sa.Column('changed', sa.Integer(), nullable=True,
                  comment='Parcels whose amount changes'),
        sa.Column('increased', sa.Integer(), nullable=True,
                  comment='Parcels whose amount rises'),
        sa.Column('decreased', sa.Integer(), nullable=True,
                  comment='Parcels whose amount falls'),
        sa.Column('increases', SUM, nullable=True, comment="The increases' sum"),
        sa.Column('decreases', SUM, nullable=True, comment="The decreases' sum"),
        sa.Column('total_before', MONEY, nullable=True,
                  comment="The earlier version's total to assess (R-A5's net change)"),
        sa.Column('earlier', SUM, nullable=True, comment='The earlier assessments in force'),
        sa.Column('outside_roll', SUM, nullable=True,
                  comment='The part of them charged outside the earlier roll'),
        sa.Column('removed', SUM, nullable=True,
                  comment='The part of them whose parcel has no line in this roll'),
        sa.Column('assessed_after', SUM, nullable=True,
                  comment='What this roll assesses (exempt lines 0)'),
        sa.ForeignKeyConstraint(['roll_id'], ['assessment_rolls.id'],
                                name=op.f('fk_roll_review_figures_roll_id_assessment_rolls')),
        sa.PrimaryKeyConstraint('roll_id', name=op.f('pk_roll_review_figures')),
    )


def downgrade() -> None:
    op.drop_table('roll_review_figures')
