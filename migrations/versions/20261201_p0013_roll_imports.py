"""roll import: uploaded roll files (roll_imports), their reports (roll_import_errors) and
their staged rows (roll_import_rows) (portal/models/roll_imports.py).

Revision ID: p0013
Revises: p0012
Create Date: 2026-12-01 16:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0013'
down_revision: str | Sequence[str] | None = 'p0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('roll_imports',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('filename', sa.String(length=200), nullable=False, comment="The file's name as uploaded"),
    sa.Column('stored_path', sa.Text(), nullable=False, comment='Where the file is kept (instance)'),
    sa.Column('sha256', sa.String(length=64), nullable=False, comment="SHA-256 of the file's bytes"),
    sa.Column('size_bytes', sa.BigInteger(), nullable=False, comment="The file's size in bytes"),
    sa.Column('encoding', sa.String(length=12), nullable=True, comment='utf-8-sig or cp1252, once checked'),
    sa.Column('delimiter', sa.String(length=1), nullable=True, comment=', or ;, once checked'),
    sa.Column('status', sa.String(length=10), nullable=False, comment='uploaded, checking, invalid, valid, importing or imported'),
    sa.Column('rows', sa.Integer(), nullable=False, comment='Data rows read'),
    sa.Column('error_rows', sa.Integer(), nullable=False, comment='Rows refused'),
    sa.Column('errors', sa.Integer(), nullable=False, comment='Errors found (the report keeps the first ones)'),
    sa.Column('new_count', sa.Integer(), nullable=False, comment='Parcels the file adds to the roll'),
    sa.Column('changed_count', sa.Integer(), nullable=False, comment='Parcels whose facts it changes'),
    sa.Column('same_count', sa.Integer(), nullable=False, comment='Parcels it leaves as they are'),
    sa.Column('removed_count', sa.Integer(), nullable=False, comment='Parcels on the roll the file does not list'),
    sa.Column('file_error', sa.String(length=40), nullable=True, comment='Why the file as a whole was refused (a message id)'),
    sa.Column('file_error_params', sa.JSON(), nullable=True, comment='The figures of that message'),
    sa.Column('as_of', sa.Date(), nullable=True, comment="The day new owners' shares start (the import's day)"),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('created_by_id', sa.Integer(), nullable=False, comment='Staff who uploaded it'),
    sa.Column('checked_at', sa.DateTime(timezone=True), nullable=True, comment='When its last check ended'),
    sa.Column('imported_at', sa.DateTime(timezone=True), nullable=True, comment='When it was last imported'),
    sa.CheckConstraint("status IN ('uploaded', 'checking', 'invalid', 'valid', 'importing', 'imported')", name=op.f('ck_roll_imports_status')),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'], name=op.f('fk_roll_imports_created_by_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_roll_imports'))
    )
    op.create_index(op.f('ix_roll_imports_created_by_id'), 'roll_imports', ['created_by_id'], unique=False)
    op.create_index(op.f('ix_roll_imports_sha256'), 'roll_imports', ['sha256'], unique=False)
    op.create_table('roll_import_errors',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('import_id', sa.Integer(), nullable=False, comment='The import'),
    sa.Column('row_number', sa.Integer(), nullable=False, comment='Row in the file (the header is row 1)'),
    sa.Column('column_name', sa.String(length=60), nullable=False, comment='The column as the header spells it'),
    sa.Column('value', sa.String(length=200), nullable=False, comment='The value as written (cut)'),
    sa.Column('code', sa.String(length=40), nullable=False, comment='Why: a message id'),
    sa.Column('params', sa.Text(), nullable=True, comment="The message's figures (JSON)"),
    sa.ForeignKeyConstraint(['import_id'], ['roll_imports.id'], name=op.f('fk_roll_import_errors_import_id_roll_imports')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_roll_import_errors'))
    )
    op.create_index('ix_roll_import_errors_import_row', 'roll_import_errors', ['import_id', 'row_number', 'id'], unique=False)
    op.create_table('roll_import_rows',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('import_id', sa.Integer(), nullable=False, comment='The import'),
    sa.Column('row_number', sa.Integer(), nullable=False, comment='Row in the file'),
    sa.Column('catastro', sa.String(length=32), nullable=False, comment='Catastro number, normalised'),
    sa.Column('change', sa.String(length=8), nullable=False, comment='new, changed or same'),
    sa.Column('parcel_id', sa.Integer(), nullable=True, comment='The parcel on the roll with this catastro, when there is one'),
    sa.Column('changed', sa.String(length=300), nullable=False, comment="The parcel's columns it changes, by name"),
    sa.Column('data', sa.Text(), nullable=False, comment='The row parsed (JSON)'),
    sa.CheckConstraint("change IN ('new', 'changed', 'same')", name=op.f('ck_roll_import_rows_change')),
    sa.ForeignKeyConstraint(['import_id'], ['roll_imports.id'], name=op.f('fk_roll_import_rows_import_id_roll_imports')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_roll_import_rows'))
    )
    op.create_index('ix_roll_import_rows_import_catastro', 'roll_import_rows', ['import_id', 'catastro'], unique=False)
    op.create_index('ix_roll_import_rows_import_change', 'roll_import_rows', ['import_id', 'change', 'row_number'], unique=False)
    # The import finds parties by email (portal/models/roll_imports.py, PARTY_EMAIL_INDEX).
    op.create_index('ix_parties_email', 'parties', ['email'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_parties_email', table_name='parties')
    op.drop_index('ix_roll_import_rows_import_change', table_name='roll_import_rows')
    op.drop_index('ix_roll_import_rows_import_catastro', table_name='roll_import_rows')
    op.drop_table('roll_import_rows')
    op.drop_index('ix_roll_import_errors_import_row', table_name='roll_import_errors')
    op.drop_table('roll_import_errors')
    op.drop_index(op.f('ix_roll_imports_sha256'), table_name='roll_imports')
    op.drop_index(op.f('ix_roll_imports_created_by_id'), table_name='roll_imports')
    op.drop_table('roll_imports')
