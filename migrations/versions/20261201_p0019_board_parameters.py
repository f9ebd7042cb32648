"""board parameters: the values the Board (or the Authority) adopted per fiscal year and the
days it declared closed, recorded by staff with their resolution (R-A7, R-A8, R-A11;
RULES.md Conventions). Append-only: a change is a new row.

Revision ID: p0019
Revises: p0018
Create Date: 2026-12-01 20:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0019'
down_revision: str | Sequence[str] | None = 'p0018'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'board_parameter_values',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('fiscal_year', sa.String(length=9), nullable=False, comment='e.g. 2026-2027'),
        sa.Column('name', sa.String(length=40), nullable=False,
                  comment='The parameter (portal/core/parameters/*.toml), or closed_day'),
        sa.Column('value', sa.Text(), nullable=False,
                  comment='The value as text (0.07; for a closed day the day, YYYY-MM-DD)'),
        sa.Column('effective_on', sa.Date(), nullable=False,
                  comment='Day the value takes effect'),
        sa.Column('resolution_number', sa.String(length=40), nullable=False,
                  comment='The resolution that set it'),
        sa.Column('resolution_date', sa.Date(), nullable=False,
                  comment='Date of the resolution'),
        sa.Column('reason_es', sa.Text(), nullable=False,
                  comment="A closed day's reason, in Spanish"),
        sa.Column('reason_en', sa.Text(), nullable=False,
                  comment="A closed day's reason, in English"),
        sa.Column('created_by_id', sa.Integer(), nullable=True, comment='Staff who recorded it'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint("name <> ''", name=op.f('ck_board_parameter_values_name')),
        sa.CheckConstraint("value <> ''", name=op.f('ck_board_parameter_values_value')),
        sa.CheckConstraint("resolution_number <> ''",
                           name=op.f('ck_board_parameter_values_resolution_number')),
        sa.CheckConstraint("name <> 'closed_day' OR (reason_es <> '' AND reason_en <> '')",
                           name=op.f('ck_board_parameter_values_closed_day_reason')),
        sa.ForeignKeyConstraint(['created_by_id'], ['users.id'],
                                name=op.f('fk_board_parameter_values_created_by_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_board_parameter_values')),
    )
    op.create_index('ix_board_parameter_values_fiscal_year_name', 'board_parameter_values',
                    ['fiscal_year', 'name'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_board_parameter_values_fiscal_year_name',
                  table_name='board_parameter_values')
    op.drop_table('board_parameter_values')
