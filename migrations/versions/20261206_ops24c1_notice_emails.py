"""users.notice_emails_off_at: when the person stopped the notices emailed in bulk (the
one-click unsubscribe of an assessment notice, a demand's owner copy or the lenders' digest;
the account page turns them back on). What the law requires is printed instead
(docs/MAIL.md, "Emailed notices").

Revision ID: ops24c1
Revises: plan261
Create Date: 2026-12-06 07:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'ops24c1'
down_revision: str | Sequence[str] | None = 'plan261'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('users', sa.Column(
        'notice_emails_off_at', sa.DateTime(timezone=True), nullable=True,
        comment='When the person stopped the notices emailed in bulk (one-click '
                'unsubscribe or the account page); null: they are emailed'))


def downgrade() -> None:
    op.drop_column('users', 'notice_emails_off_at')
