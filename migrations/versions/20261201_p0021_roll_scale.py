"""roll scale (placeholder: the part that needs it fills it in).

Revision ID: p0021
Revises: p0020
Create Date: 2026-12-01 20:00:00

"""
from collections.abc import Sequence

# revision identifiers, used by Alembic.
revision: str = 'p0021'
down_revision: str | Sequence[str] | None = 'p0020'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
