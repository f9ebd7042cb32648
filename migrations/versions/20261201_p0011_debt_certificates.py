"""certificates: payoff certificates (certificación de deuda) with verification codes.

Revision ID: p0011
Revises: p0010
Create Date: 2026-12-01 16:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0011'
down_revision: str | Sequence[str] | None = 'p0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('debt_certificates',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel certified'),
    sa.Column('issued_at', sa.DateTime(timezone=True), nullable=False, comment='When it was issued (UTC)'),
    sa.Column('issued_on', sa.Date(), nullable=False, comment='Puerto Rico date of issue'),
    sa.Column('issued_by_id', sa.Integer(), nullable=False, comment='Who asked for it (the owner or staff)'),
    sa.Column('good_through', sa.Date(), nullable=False, comment='Last day its amounts hold'),
    sa.Column('total_due', sa.Numeric(precision=14, scale=2), nullable=False, comment='Past due and due on the good-through date, all years'),
    sa.Column('upcoming', sa.Numeric(precision=14, scale=2), nullable=False, comment='Principal of installments not yet due then (apart)'),
    sa.Column('payoff', sa.Numeric(precision=14, scale=2), nullable=False, comment='Pay-off amount good through that date: the two above'),
    sa.Column('language', sa.String(length=2), nullable=False, comment='Language of the document issued'),
    sa.Column('code_digest', sa.String(length=64), nullable=False, comment='SHA-256 (hex) of the verification code, normalised'),
    sa.Column('content', sa.Text(), nullable=False, comment='What it says (R-A19), as JSON'),
    sa.Column('document', sa.LargeBinary(), nullable=False, comment='The PDF as issued'),
    sa.Column('last_entry_id', sa.Integer(), nullable=False, comment="The parcel's last ledger entry id at issue (0: none)"),
    sa.Column('last_assessment_id', sa.Integer(), nullable=False, comment="The parcel's last assessment id at issue (0: none)"),
    sa.CheckConstraint('total_due >= 0', name=op.f('ck_debt_certificates_total_due')),
    sa.CheckConstraint('upcoming >= 0', name=op.f('ck_debt_certificates_upcoming')),
    sa.CheckConstraint('payoff >= 0', name=op.f('ck_debt_certificates_payoff')),
    sa.CheckConstraint('good_through >= issued_on', name=op.f('ck_debt_certificates_good_through')),
    sa.CheckConstraint("language IN ('es', 'en')", name=op.f('ck_debt_certificates_language')),
    sa.ForeignKeyConstraint(['issued_by_id'], ['users.id'], name=op.f('fk_debt_certificates_issued_by_id_users')),
    sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'], name=op.f('fk_debt_certificates_parcel_id_parcels')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_debt_certificates')),
    sa.UniqueConstraint('code_digest', name=op.f('uq_debt_certificates_code_digest'))
    )
    with op.batch_alter_table('debt_certificates', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_debt_certificates_parcel_id'), ['parcel_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('debt_certificates', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_debt_certificates_parcel_id'))

    op.drop_table('debt_certificates')
