"""coop_election_corrections: staff corrections of a housing cooperative's election
recorded in error (R-B4, R-B20), append-only, the latest one in force, each with its reason
and the staff member who made it.

Revision ID: stafffix1
Revises: lend28d1
Create Date: 2026-12-06 18:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'stafffix1'
down_revision: str | Sequence[str] | None = 'lend28d1'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'coop_election_corrections',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('coop_election_id', sa.Integer(), nullable=False,
                  comment='The election corrected'),
        sa.Column('election', sa.String(length=16), nullable=False,
                  comment='residential or cooperative_law, corrected'),
        sa.Column('reason', sa.Text(), nullable=False, comment='Why staff corrected it'),
        sa.Column('corrected_by_id', sa.Integer(), nullable=False,
                  comment='The staff member who corrected it'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint("election IN ('residential', 'cooperative_law')",
                           name=op.f('ck_coop_election_corrections_election')),
        sa.ForeignKeyConstraint(
            ['coop_election_id'], ['coop_elections.id'],
            name=op.f('fk_coop_election_corrections_coop_election_id_coop_elections')),
        sa.ForeignKeyConstraint(['corrected_by_id'], ['users.id'],
                                name=op.f('fk_coop_election_corrections_corrected_by_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_coop_election_corrections')),
    )
    with op.batch_alter_table('coop_election_corrections') as batch:
        batch.create_index(batch.f('ix_coop_election_corrections_coop_election_id'),
                           ['coop_election_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('coop_election_corrections') as batch:
        batch.drop_index(batch.f('ix_coop_election_corrections_coop_election_id'))
    op.drop_table('coop_election_corrections')
