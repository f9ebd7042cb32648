"""property-tax attachments and auctions (R-C1–R-C8): notices of attachment, auction records.

Revision ID: p0016
Revises: p0015
Create Date: 2026-12-01 17:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

# revision identifiers, used by Alembic.
revision: str = 'p0016'
down_revision: str | Sequence[str] | None = 'p0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
