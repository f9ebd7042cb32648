"""lenders: organisations, their members and roles, API tokens (J7).

Revision ID: p0015
Revises: p0014
Create Date: 2026-12-01 17:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

# revision identifiers, used by Alembic.
revision: str = 'p0015'
down_revision: str | Sequence[str] | None = 'p0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
