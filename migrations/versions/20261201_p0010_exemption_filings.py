"""exemption: property-tax facts, certifications, evidence, change reports.

Revision ID: p0010
Revises: p0009
Create Date: 2026-12-01 16:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

# revision identifiers, used by Alembic.
revision: str = 'p0010'
down_revision: str | Sequence[str] | None = 'p0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
