"""exemption: property-tax facts, certifications, evidence, change reports.

Revision ID: p0010
Revises: p0009
Create Date: 2026-12-01 16:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0010'
down_revision: str | Sequence[str] | None = 'p0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """property_tax_facts, exemption_certifications and their owners, evidence, events."""
    op.create_table('property_tax_facts',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
    sa.Column('fiscal_year_start', sa.Date(), nullable=False, comment='July 1 opening the FY'),
    sa.Column('municipality', sa.String(length=60), nullable=False, comment='Municipality (its tax rate)'),
    sa.Column('zone', sa.String(length=10), nullable=False, comment='urban, suburban or rural (R-B7)'),
    sa.Column('land_area_cuerdas', sa.Numeric(precision=12, scale=6), nullable=False, comment='Land area in cuerdas'),
    sa.Column('land_valuation', sa.Numeric(precision=14, scale=2), nullable=False, comment='CRIM valuation of the land (1957 basis)'),
    sa.Column('structure_valuation', sa.Numeric(precision=14, scale=2), nullable=False, comment='CRIM valuation of the structures'),
    sa.Column('residential_valuation', sa.Numeric(precision=14, scale=2), nullable=True, comment='CRIM valuation of the residential part, lot included, where it has one (R-B2)'),
    sa.Column('debt_on_january_1', sa.Numeric(precision=14, scale=2), nullable=False, comment='Property tax on this parcel past due on the January 1 before the FY (R-B11, R-B16)'),
    sa.Column('illustrative', sa.Boolean(), nullable=False, comment="Demo values, not the CRIM's"),
    sa.Column('source', sa.String(length=200), nullable=False, comment='Where the facts come from'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.CheckConstraint("zone IN ('urban', 'suburban', 'rural')", name=op.f('ck_property_tax_facts_zone')),
    sa.CheckConstraint('debt_on_january_1 >= 0', name=op.f('ck_property_tax_facts_debt')),
    sa.CheckConstraint('land_area_cuerdas >= 0', name=op.f('ck_property_tax_facts_land_area')),
    sa.CheckConstraint('land_valuation >= 0 AND structure_valuation >= 0', name=op.f('ck_property_tax_facts_valuation')),
    sa.CheckConstraint('residential_valuation IS NULL OR residential_valuation >= 0', name=op.f('ck_property_tax_facts_residential_valuation')),
    sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'], name=op.f('fk_property_tax_facts_parcel_id_parcels')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_property_tax_facts')),
    sa.UniqueConstraint('parcel_id', 'fiscal_year_start', name=op.f('uq_property_tax_facts_parcel_id_fiscal_year_start'))
    )
    with op.batch_alter_table('property_tax_facts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_property_tax_facts_parcel_id'), ['parcel_id'], unique=False)

    op.create_table('exemption_certifications',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
    sa.Column('fiscal_year_start', sa.Date(), nullable=False, comment='July 1 opening the FY (R-B15)'),
    sa.Column('status', sa.String(length=14), nullable=False, comment='draft, filed, under_review, returned, resubmitted, approved or withdrawn'),
    sa.Column('created_by_id', sa.Integer(), nullable=False, comment='The user who files it'),
    sa.Column('language', sa.String(length=2), nullable=False, comment="The filer's language (receipt, emails)"),
    sa.Column('answers', sa.JSON(), nullable=False, comment="The wizard's answers (R-B14)"),
    sa.Column('step', sa.String(length=20), nullable=False, comment="The wizard's step to resume at"),
    sa.Column('filing_number', sa.String(length=24), nullable=True, comment='Given at filing'),
    sa.Column('filed_at', sa.DateTime(timezone=True), nullable=True, comment='When filed'),
    sa.Column('filed_on', sa.Date(), nullable=True, comment='Filing date: the Puerto Rico day submitted (R-B13)'),
    sa.Column('loan_id', sa.Integer(), nullable=True, comment='The loan whose lender receives it (R-B9, R-B13)'),
    sa.Column('attested_name', sa.String(length=200), nullable=True, comment='Full name typed (R-B12)'),
    sa.Column('attested_at', sa.DateTime(timezone=True), nullable=True, comment='When it was attested'),
    sa.Column('plan_payments', sa.Integer(), nullable=True, comment='Payment plan requested: monthly payments (R-B11, R-B16)'),
    sa.Column('plan_first_due', sa.Date(), nullable=True, comment='Payment plan requested: first due date'),
    sa.Column('returned_steps', sa.JSON(), nullable=False, comment='The steps a return asks to fix (only these are editable)'),
    sa.Column('decided_by_id', sa.Integer(), nullable=True, comment='The reviewer of the last decision (R-B13)'),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True, comment='When it was last decided'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False, comment='When the row last changed (UTC)'),
    sa.CheckConstraint("status IN ('draft', 'filed', 'under_review', 'returned', 'resubmitted', 'approved', 'withdrawn')", name=op.f('ck_exemption_certifications_status')),
    sa.CheckConstraint('plan_payments IS NULL OR plan_payments >= 1', name=op.f('ck_exemption_certifications_plan_payments')),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'], name=op.f('fk_exemption_certifications_created_by_id_users')),
    sa.ForeignKeyConstraint(['decided_by_id'], ['users.id'], name=op.f('fk_exemption_certifications_decided_by_id_users')),
    sa.ForeignKeyConstraint(['loan_id'], ['loans.id'], name=op.f('fk_exemption_certifications_loan_id_loans')),
    sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'], name=op.f('fk_exemption_certifications_parcel_id_parcels')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exemption_certifications')),
    sa.UniqueConstraint('filing_number', name=op.f('uq_exemption_certifications_filing_number'))
    )
    with op.batch_alter_table('exemption_certifications', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_exemption_certifications_created_by_id'), ['created_by_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_exemption_certifications_fiscal_year_start'), ['fiscal_year_start'], unique=False)
        batch_op.create_index(batch_op.f('ix_exemption_certifications_parcel_id'), ['parcel_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_exemption_certifications_status'), ['status'], unique=False)

    op.create_table('exemption_events',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('certification_id', sa.Integer(), nullable=False, comment='The certification'),
    sa.Column('from_status', sa.String(length=14), nullable=False, comment='State before'),
    sa.Column('to_status', sa.String(length=14), nullable=False, comment='State after'),
    sa.Column('actor_id', sa.Integer(), nullable=True, comment='Who made the change'),
    sa.Column('reasons', sa.JSON(), nullable=False, comment='Return reasons (codes)'),
    sa.Column('note', sa.Text(), nullable=False, comment="The reviewer's free text"),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.ForeignKeyConstraint(['actor_id'], ['users.id'], name=op.f('fk_exemption_events_actor_id_users')),
    sa.ForeignKeyConstraint(['certification_id'], ['exemption_certifications.id'], name=op.f('fk_exemption_events_certification_id_exemption_certifications')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exemption_events'))
    )
    with op.batch_alter_table('exemption_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_exemption_events_certification_id'), ['certification_id'], unique=False)

    op.create_table('exemption_evidence',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('certification_id', sa.Integer(), nullable=False, comment='The certification'),
    sa.Column('sha256', sa.String(length=64), nullable=False, comment='Content hash (the storage key)'),
    sa.Column('content_type', sa.String(length=40), nullable=False, comment='Type read from the content'),
    sa.Column('size_bytes', sa.Integer(), nullable=False, comment='Size in bytes'),
    sa.Column('filename', sa.String(length=200), nullable=False, comment='The name it was uploaded with'),
    sa.Column('uploaded_by_id', sa.Integer(), nullable=False, comment='Who uploaded it'),
    sa.Column('removed_at', sa.DateTime(timezone=True), nullable=True, comment='When its owner removed it before filing or resubmitting'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.CheckConstraint("content_type IN ('application/pdf', 'image/jpeg', 'image/png')", name=op.f('ck_exemption_evidence_content_type')),
    sa.CheckConstraint('size_bytes > 0', name=op.f('ck_exemption_evidence_size')),
    sa.ForeignKeyConstraint(['certification_id'], ['exemption_certifications.id'], name=op.f('fk_exemption_evidence_certification_id_exemption_certifications')),
    sa.ForeignKeyConstraint(['uploaded_by_id'], ['users.id'], name=op.f('fk_exemption_evidence_uploaded_by_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exemption_evidence'))
    )
    with op.batch_alter_table('exemption_evidence', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_exemption_evidence_certification_id'), ['certification_id'], unique=False)

    op.create_table('exemption_owners',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('certification_id', sa.Integer(), nullable=False, comment='The certification'),
    sa.Column('party_id', sa.Integer(), nullable=False, comment='The owner (a party of the registry)'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.ForeignKeyConstraint(['certification_id'], ['exemption_certifications.id'], name=op.f('fk_exemption_owners_certification_id_exemption_certifications')),
    sa.ForeignKeyConstraint(['party_id'], ['parties.id'], name=op.f('fk_exemption_owners_party_id_parties')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_exemption_owners')),
    sa.UniqueConstraint('certification_id', 'party_id', name=op.f('uq_exemption_owners_certification_id_party_id'))
    )
    with op.batch_alter_table('exemption_owners', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_exemption_owners_certification_id'), ['certification_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_exemption_owners_party_id'), ['party_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('exemption_owners', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_exemption_owners_party_id'))
        batch_op.drop_index(batch_op.f('ix_exemption_owners_certification_id'))

    op.drop_table('exemption_owners')
    with op.batch_alter_table('exemption_evidence', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_exemption_evidence_certification_id'))

    op.drop_table('exemption_evidence')
    with op.batch_alter_table('exemption_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_exemption_events_certification_id'))

    op.drop_table('exemption_events')
    with op.batch_alter_table('exemption_certifications', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_exemption_certifications_status'))
        batch_op.drop_index(batch_op.f('ix_exemption_certifications_parcel_id'))
        batch_op.drop_index(batch_op.f('ix_exemption_certifications_fiscal_year_start'))
        batch_op.drop_index(batch_op.f('ix_exemption_certifications_created_by_id'))

    op.drop_table('exemption_certifications')
    with op.batch_alter_table('property_tax_facts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_property_tax_facts_parcel_id'))

    op.drop_table('property_tax_facts')
