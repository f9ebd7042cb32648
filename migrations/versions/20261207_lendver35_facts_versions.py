"""The versions of the facts a loan's kept figures are computed from, raised in the transaction
of each fact written (models.fact_versions): `loans.facts_version` (the parcel's ledger
entries, assessments and installments) and `facts_versions` (the District's: the Board's
values and closed days, the fiscal years, and any batch of facts). `loan_figures` keeps the
two versions its figures were computed from instead of a count of the facts, so the
portfolio's check compares versions without counting each loan's facts. The cached figures
are dropped so that every loan's are computed again on its next read.

Revision ID: lendver35
Revises: fix35
Create Date: 2026-12-07 04:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'lendver35'
down_revision: str | Sequence[str] | None = 'fix35'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'facts_versions',
        sa.Column('name', sa.String(length=16), nullable=False,
                  comment='Whose facts: district'),
        sa.Column('version', sa.BigInteger(), nullable=False,
                  comment='Raised by one in the transaction of each fact written'),
        sa.PrimaryKeyConstraint('name', name=op.f('pk_facts_versions')))
    op.execute(sa.text("INSERT INTO facts_versions (name, version) VALUES ('district', 0)"))
    with op.batch_alter_table('loans', schema=None) as batch_op:
        batch_op.add_column(sa.Column(
            'facts_version', sa.Integer(), server_default='0', nullable=False,
            comment="Raised with each fact of the parcel written (its ledger entries, "
                    "assessments and installments): the loan's kept figures are of this "
                    "version or out of date (models.fact_versions)"))
    op.execute(sa.text("DELETE FROM loan_figures"))  # a cache of the day: computed again
    columns = [
        sa.Column('loan_version', sa.Integer(), nullable=False,
                  comment="The loan's facts_version they were computed from (read before "
                          "the facts)"),
        sa.Column('district_version', sa.BigInteger(), nullable=False,
                  comment="The District's version (facts_versions) they were computed from"),
    ]
    if op.get_bind().dialect.name == "sqlite":  # no NOT NULL column added without a default
        with op.batch_alter_table('loan_figures', schema=None, recreate="always") as batch_op:
            batch_op.drop_column('facts')
            for column in columns:
                batch_op.add_column(column)
    else:
        op.drop_column('loan_figures', 'facts')
        for column in columns:
            op.add_column('loan_figures', column)


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM loan_figures"))
    with op.batch_alter_table('loan_figures', schema=None, recreate="always") as batch_op:
        batch_op.drop_column('district_version')
        batch_op.drop_column('loan_version')
        batch_op.add_column(sa.Column(
            'facts', sa.Integer(), nullable=False,
            comment="How many facts they were computed from (the parcel's ledger entries and "
                    "assessments, the Board's values: append-only, so a later one changes it)"))
    with op.batch_alter_table('loans', schema=None) as batch_op:
        batch_op.drop_column('facts_version')
    op.drop_table('facts_versions')
