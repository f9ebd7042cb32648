"""users.totp_last_step: the time step of the last authenticator code accepted, so that a
code is consumed by one conditional UPDATE (`... WHERE totp_last_step IS NULL OR
totp_last_step < :step`): one acceptance per code and user, even for requests at the same
instant (portal/people/two_factor.py, docs/SECURITY.md).

Revision ID: sec311
Revises: mail241
Create Date: 2026-12-05 06:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'sec311'
down_revision: str | Sequence[str] | None = 'mail241'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('users', sa.Column(
        'totp_last_step', sa.BigInteger(), nullable=True,
        comment='Time step of the last authenticator code accepted (null: none yet)'))


def downgrade() -> None:
    op.drop_column('users', 'totp_last_step')
