"""roll notices (placeholder: the part that needs it fills it in).

Revision ID: p0020
Revises: p0019
Create Date: 2026-12-01 20:00:00

"""
from collections.abc import Sequence

# revision identifiers, used by Alembic.
revision: str = 'p0020'
down_revision: str | Sequence[str] | None = 'p0019'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
