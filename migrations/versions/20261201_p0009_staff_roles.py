"""staff: roles (administrator, reviewer, cashier, read-only).

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


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
