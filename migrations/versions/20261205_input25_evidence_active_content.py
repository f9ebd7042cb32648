"""evidence active content and delegates who may pay: a PDF uploaded as evidence with scripts or automatic actions
(JavaScript, OpenAction, Launch ...) is accepted but flagged to the reviewer
(`exemption_evidence.active_content`, what was found; null for none); a delegate the owner
allows to pay the parcel online (`parcel_links.may_pay`, `parcel_invitations.may_pay`).

Revision ID: input251
Revises: p0021
Create Date: 2026-12-05 06:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'input251'
down_revision: str | Sequence[str] | None = 'p0021'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('exemption_evidence') as batch:
        batch.add_column(sa.Column(
            'active_content', sa.String(length=200), nullable=True,
            comment="A PDF's scripts or automatic actions found (JavaScript, OpenAction ...), "
                    "flagged to the reviewer; null for none"))


    for table, comment in (
            ('parcel_links', "A delegate the owner allows to pay the parcel online too"),
            ('parcel_invitations', "The delegate invited may pay the parcel online too")):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column('may_pay', sa.Boolean(), nullable=False,
                                       server_default=sa.false(), comment=comment))


def downgrade() -> None:
    for table in ('parcel_invitations', 'parcel_links'):
        with op.batch_alter_table(table) as batch:
            batch.drop_column('may_pay')
    with op.batch_alter_table('exemption_evidence') as batch:
        batch.drop_column('active_content')
