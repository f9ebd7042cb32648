"""exemption change reports (J6): moved, rented, sold, spouse died, use changed, other.

Revision ID: p0014
Revises: p0013
Create Date: 2026-12-01 16:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

# revision identifiers, used by Alembic.
revision: str = 'p0014'
down_revision: str | Sequence[str] | None = 'p0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
