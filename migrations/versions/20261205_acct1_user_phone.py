"""users.phone: the telephone the person gives on their account page, in E.164 (+17875550142),
shown in the national format (portal/people/profile.py; docs/ACCOUNT.md).

Revision ID: acct1
Revises: port01
Create Date: 2026-12-05 13:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'acct1'
down_revision: str | Sequence[str] | None = 'port01'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('users', sa.Column(
        'phone', sa.String(length=16), nullable=True,
        comment='Telephone in E.164 (null: none given)'))


def downgrade() -> None:
    op.drop_column('users', 'phone')
