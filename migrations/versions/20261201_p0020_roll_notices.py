"""roll notices (J8, R-A4, R-A5, R-A16): the print files of a published roll's assessment
notices and each notice's deliveries (an email to a linked owner or paying lessee, a printing
for the mail with the access code of an unclaimed parcel).

Revision ID: p0020
Revises: p0019
Create Date: 2026-12-01 20:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0020'
down_revision: str | Sequence[str] | None = 'p0019'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f'{target}.id'],
                                   name=op.f(f'fk_{table}_{column}_{target}'))


def upgrade() -> None:
    op.create_table(
        'notice_print_files',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('roll_id', sa.Integer(), nullable=False,
                  comment='The published roll the notices are of'),
        sa.Column('storage_key', sa.String(length=64), nullable=False,
                  comment='SHA-256 of the PDF in the file store'),
        sa.Column('first_parcel_id', sa.Integer(), nullable=False,
                  comment="The batch's first parcel id"),
        sa.Column('last_parcel_id', sa.Integer(), nullable=False,
                  comment="The batch's last parcel id"),
        sa.Column('notices', sa.Integer(), nullable=False,
                  comment='How many notices the file holds'),
        sa.Column('codes', sa.Integer(), nullable=False,
                  comment='How many of them print a new access code'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.Column('created_by_id', sa.Integer(), nullable=True,
                  comment='Staff whose job made it'),
        sa.CheckConstraint('notices > 0', name=op.f('ck_notice_print_files_notices')),
        _fk('notice_print_files', 'roll_id', 'assessment_rolls'),
        _fk('notice_print_files', 'created_by_id', 'users'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_notice_print_files')),
    )
    op.create_index(op.f('ix_notice_print_files_roll_id'), 'notice_print_files', ['roll_id'],
                    unique=False)
    op.create_table(
        'notice_deliveries',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('notice_id', sa.Integer(), nullable=False,
                  comment='The assessment notice delivered'),
        sa.Column('channel', sa.String(length=5), nullable=False, comment='email or print'),
        sa.Column('user_id', sa.Integer(), nullable=True,
                  comment="The email's addressee (owner or paying lessee)"),
        sa.Column('email', sa.String(length=254), nullable=True,
                  comment='The address it was sent to'),
        sa.Column('print_file_id', sa.Integer(), nullable=True,
                  comment='The print file holding the notice'),
        sa.Column('access_code_id', sa.Integer(), nullable=True,
                  comment='The access code printed on it, if any'),
        sa.Column('language', sa.String(length=2), nullable=False,
                  comment='Language of the notice'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint("channel IN ('email', 'print')",
                           name=op.f('ck_notice_deliveries_channel')),
        sa.CheckConstraint("language IN ('es', 'en')",
                           name=op.f('ck_notice_deliveries_language')),
        sa.CheckConstraint("(channel = 'email') = (user_id IS NOT NULL)",
                           name=op.f('ck_notice_deliveries_addressee')),
        sa.CheckConstraint("(channel = 'print') = (print_file_id IS NOT NULL)",
                           name=op.f('ck_notice_deliveries_print_file')),
        _fk('notice_deliveries', 'notice_id', 'notices'),
        _fk('notice_deliveries', 'user_id', 'users'),
        _fk('notice_deliveries', 'print_file_id', 'notice_print_files'),
        _fk('notice_deliveries', 'access_code_id', 'access_codes'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_notice_deliveries')),
    )
    op.create_index(op.f('ix_notice_deliveries_notice_id'), 'notice_deliveries',
                    ['notice_id'], unique=False)
    op.create_index('uq_notice_deliveries_email', 'notice_deliveries',
                    ['notice_id', 'user_id'], unique=True,
                    sqlite_where=sa.text("channel = 'email'"),
                    postgresql_where=sa.text("channel = 'email'"))
    op.create_index('uq_notice_deliveries_print', 'notice_deliveries', ['notice_id'],
                    unique=True, sqlite_where=sa.text("channel = 'print'"),
                    postgresql_where=sa.text("channel = 'print'"))


def downgrade() -> None:
    op.drop_index('uq_notice_deliveries_print', table_name='notice_deliveries')
    op.drop_index('uq_notice_deliveries_email', table_name='notice_deliveries')
    op.drop_index(op.f('ix_notice_deliveries_notice_id'), table_name='notice_deliveries')
    op.drop_table('notice_deliveries')
    op.drop_index(op.f('ix_notice_print_files_roll_id'), table_name='notice_print_files')
    op.drop_table('notice_print_files')
