"""staff: roles (administrator, reviewer, cashier, read-only); budgets: Board-fixed amounts.

`users.staff_role` names what a staff member may do (docs/STAFF.md); every staff account that
exists when this runs becomes an administrator (until now every staff member could do
everything), so nobody loses a power by the upgrade. `budget_fixed_amounts` holds the
parcels' amounts the Board fixes directly in a budget version (R-A3).

Revision ID: p0009
Revises: p0008
Create Date: 2026-12-01 16:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

# revision identifiers, used by Alembic.
revision: str = 'p0009'
down_revision: str | Sequence[str] | None = 'p0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


ROLE_CHECK = ("staff_role IS NULL OR staff_role IN ('administrator', 'reviewer', 'cashier', "
              "'read_only')")
ROLE_COMMENT = ("Staff's role: administrator, reviewer, cashier or read_only (null: none set, "
                "an administrator; see docs/STAFF.md)")


def upgrade() -> None:
    # Not a batch rebuild of users on SQLite (every other table references it: dropping it
    # fails once there is data): SQLite adds the column with its CHECK in one ALTER TABLE.
    if op.get_bind().dialect.name == "sqlite":
        op.execute(sa.text("ALTER TABLE users ADD COLUMN staff_role VARCHAR(13) "
                           f"CONSTRAINT ck_users_staff_role CHECK ({ROLE_CHECK})"))
    else:
        op.add_column('users', sa.Column('staff_role', sa.String(length=13), nullable=True,
                                         comment=ROLE_COMMENT))
        op.create_check_constraint(op.f('ck_users_staff_role'), 'users', ROLE_CHECK)
    op.execute(sa.text("UPDATE users SET staff_role = 'administrator' WHERE is_staff"))
    op.create_table(
        'budget_fixed_amounts',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('version_id', sa.Integer(), nullable=False, comment='The budget version'),
        sa.Column('parcel_id', sa.Integer(), nullable=False,
                  comment='The parcel whose amount the Board fixed'),
        sa.Column('amount', sa.Numeric(precision=14, scale=2), nullable=False,
                  comment="R-A3: the parcel's annual amount, fixed by the Board"),
        sa.Column('reason', sa.Text(), nullable=False,
                  comment="Why (the Board's words or resolution)"),
        sa.CheckConstraint('amount >= 0', name=op.f('ck_budget_fixed_amounts_amount')),
        sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'],
                                name=op.f('fk_budget_fixed_amounts_parcel_id_parcels')),
        sa.ForeignKeyConstraint(['version_id'], ['budget_versions.id'],
                                name=op.f('fk_budget_fixed_amounts_version_id_budget_versions')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_budget_fixed_amounts')),
        sa.UniqueConstraint('version_id', 'parcel_id',
                            name=op.f('uq_budget_fixed_amounts_version_id_parcel_id')),
    )
    with op.batch_alter_table('budget_fixed_amounts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_budget_fixed_amounts_parcel_id'), ['parcel_id'],
                              unique=False)
        batch_op.create_index(batch_op.f('ix_budget_fixed_amounts_version_id'), ['version_id'],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table('budget_fixed_amounts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_budget_fixed_amounts_version_id'))
        batch_op.drop_index(batch_op.f('ix_budget_fixed_amounts_parcel_id'))
    op.drop_table('budget_fixed_amounts')
    # A plain ALTER TABLE ... DROP COLUMN (SQLite 3.35+ too; its CHECK goes with it).
    op.drop_column('users', 'staff_role')
