"""lenders: acquisitions of a new structure (R-B10 iii) and intents to pay (J7).

Revision ID: p0018
Revises: p0017
Create Date: 2026-12-01 20:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0018'
down_revision: str | Sequence[str] | None = 'p0017'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('lender_acquisitions',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('lender_id', sa.Integer(), nullable=False, comment='The lender'),
    sa.Column('loan_id', sa.Integer(), nullable=False, comment='The loan'),
    sa.Column('parcel_id', sa.Integer(), nullable=False, comment="The loan's parcel"),
    sa.Column('acquired_on', sa.Date(), nullable=False, comment='The deed date (the acquisition)'),
    sa.Column('certification_id', sa.Integer(), nullable=True, comment="The owner's certification delivered with it, if any"),
    sa.Column('reported_by_id', sa.Integer(), nullable=True, comment="The lender's user who reported"),
    sa.Column('reported_by_token_id', sa.Integer(), nullable=True, comment='The API token that reported'),
    sa.Column('reported_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.CheckConstraint('reported_by_id IS NOT NULL OR reported_by_token_id IS NOT NULL', name=op.f('ck_lender_acquisitions_reporter')),
    sa.ForeignKeyConstraint(['certification_id'], ['exemption_certifications.id'], name=op.f('fk_lender_acquisitions_certification_id_exemption_certifications')),
    sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'], name=op.f('fk_lender_acquisitions_lender_id_lenders')),
    sa.ForeignKeyConstraint(['loan_id'], ['loans.id'], name=op.f('fk_lender_acquisitions_loan_id_loans')),
    sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'], name=op.f('fk_lender_acquisitions_parcel_id_parcels')),
    sa.ForeignKeyConstraint(['reported_by_id'], ['users.id'], name=op.f('fk_lender_acquisitions_reported_by_id_users')),
    sa.ForeignKeyConstraint(['reported_by_token_id'], ['lender_api_tokens.id'], name=op.f('fk_lender_acquisitions_reported_by_token_id_lender_api_tokens')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_lender_acquisitions'))
    )
    with op.batch_alter_table('lender_acquisitions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_lender_acquisitions_lender_id'), ['lender_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_lender_acquisitions_parcel_id'), ['parcel_id'], unique=False)
        batch_op.create_index('ix_lender_acquisitions_loan', ['loan_id', 'acquired_on'], unique=False)

    op.create_table('lender_intents',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('lender_id', sa.Integer(), nullable=False, comment='The lender'),
    sa.Column('loan_id', sa.Integer(), nullable=False, comment='The loan'),
    sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
    sa.Column('fiscal_year_id', sa.Integer(), nullable=False, comment='The fiscal year'),
    sa.Column('kind', sa.String(length=24), nullable=False, comment='crim_bill, district_due_now or district_installment'),
    sa.Column('crim_half', sa.SmallInteger(), nullable=True, comment='The CRIM bill: 1 (July 1) or 2 (January 1)'),
    sa.Column('installment_id', sa.Integer(), nullable=True, comment='The District installment'),
    sa.Column('amount', sa.Numeric(precision=14, scale=2), nullable=False, comment="The core's amount when marked"),
    sa.Column('marked_by_id', sa.Integer(), nullable=False, comment="The lender's user who marked it"),
    sa.Column('marked_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True, comment='When it was withdrawn'),
    sa.Column('withdrawn_by_id', sa.Integer(), nullable=True, comment='Who withdrew it'),
    sa.CheckConstraint("kind IN ('crim_bill', 'district_due_now', 'district_installment')", name=op.f('ck_lender_intents_kind')),
    sa.CheckConstraint("(kind = 'crim_bill') = (crim_half IS NOT NULL)", name=op.f('ck_lender_intents_crim_half')),
    sa.CheckConstraint('crim_half IS NULL OR crim_half IN (1, 2)', name=op.f('ck_lender_intents_crim_half_value')),
    sa.CheckConstraint("(kind = 'district_installment') = (installment_id IS NOT NULL)", name=op.f('ck_lender_intents_installment')),
    sa.CheckConstraint('amount >= 0', name=op.f('ck_lender_intents_amount')),
    sa.ForeignKeyConstraint(['fiscal_year_id'], ['fiscal_years.id'], name=op.f('fk_lender_intents_fiscal_year_id_fiscal_years')),
    sa.ForeignKeyConstraint(['installment_id'], ['installments.id'], name=op.f('fk_lender_intents_installment_id_installments')),
    sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'], name=op.f('fk_lender_intents_lender_id_lenders')),
    sa.ForeignKeyConstraint(['loan_id'], ['loans.id'], name=op.f('fk_lender_intents_loan_id_loans')),
    sa.ForeignKeyConstraint(['marked_by_id'], ['users.id'], name=op.f('fk_lender_intents_marked_by_id_users')),
    sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'], name=op.f('fk_lender_intents_parcel_id_parcels')),
    sa.ForeignKeyConstraint(['withdrawn_by_id'], ['users.id'], name=op.f('fk_lender_intents_withdrawn_by_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_lender_intents'))
    )
    with op.batch_alter_table('lender_intents', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_lender_intents_loan_id'), ['loan_id'], unique=False)
        batch_op.create_index('ix_lender_intents_parcel_fy', ['parcel_id', 'fiscal_year_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('lender_intents', schema=None) as batch_op:
        batch_op.drop_index('ix_lender_intents_parcel_fy')
        batch_op.drop_index(batch_op.f('ix_lender_intents_loan_id'))
    op.drop_table('lender_intents')
    with op.batch_alter_table('lender_acquisitions', schema=None) as batch_op:
        batch_op.drop_index('ix_lender_acquisitions_loan')
        batch_op.drop_index(batch_op.f('ix_lender_acquisitions_parcel_id'))
        batch_op.drop_index(batch_op.f('ix_lender_acquisitions_lender_id'))
    op.drop_table('lender_acquisitions')
