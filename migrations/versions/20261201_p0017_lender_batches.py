"""lender batches (placeholder: the part that needs it fills it in).

Revision ID: p0017
Revises: p0016
Create Date: 2026-12-01 20:00:00

"""
from collections.abc import Sequence

# revision identifiers, used by Alembic.
revision: str = 'p0017'
down_revision: str | Sequence[str] | None = 'p0016'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
