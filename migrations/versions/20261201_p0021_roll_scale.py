"""roll scale: no index that another index already holds, on the tables the roll's
publication writes millions of rows into; the index the import's pass 2 reads by.

Each of these indexes is the first column of a unique index of the same table, which serves
every look-up by that column (a B-tree is searched by any leading part of its key), so the
three only cost writes: 16.7 M installments, 1.4 M assessments and 1.5 M roll lines on the
island's roll (bench/roll_bench.py).

- `ix_installments_assessment_id`: `uq_installments_assessment_id_number`
  (assessment_id, number);
- `ix_assessments_parcel_id`: `uq_assessments_parcel_id_budget_version_id`
  (parcel_id, budget_version_id);
- `ix_roll_lines_roll_id`: `uq_roll_lines_roll_id_parcel_id` (roll_id, parcel_id).

And one index added: `ix_roll_import_rows_import_id` (import_id, id), by which the import's
pass 2 reads its staged rows a batch at a time (`import_id = ? AND id > ? ORDER BY id LIMIT
?`): without it PostgreSQL read every staged row of the import for each batch (a bitmap scan
of the import's rows, then the first ones by id: EXPLAIN ANALYZE, 200,000 rows read for a
batch of 5,000), a cost that grew with the square of the file's size.

Revision ID: p0021
Revises: p0020
Create Date: 2026-12-01 20:00:00

"""
from collections.abc import Sequence

from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0021'
down_revision: str | Sequence[str] | None = 'p0020'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: (index, table, column): each the leading column of a unique index of its table.
HELD = (
    ('ix_installments_assessment_id', 'installments', 'assessment_id'),
    ('ix_assessments_parcel_id', 'assessments', 'parcel_id'),
    ('ix_roll_lines_roll_id', 'roll_lines', 'roll_id'),
)


def upgrade() -> None:
    for name, table, _column in HELD:
        op.drop_index(name, table_name=table)
    op.create_index('ix_roll_import_rows_import_id', 'roll_import_rows', ['import_id', 'id'],
                    unique=False)


def downgrade() -> None:
    op.drop_index('ix_roll_import_rows_import_id', table_name='roll_import_rows')
    for name, table, column in HELD:
        op.create_index(name, table, [column], unique=False)
