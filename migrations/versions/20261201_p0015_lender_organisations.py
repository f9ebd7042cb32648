"""lenders: organisations, their members and roles, API tokens (J7).

Revision ID: p0015
Revises: p0014
Create Date: 2026-12-01 17:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0015'
down_revision: str | Sequence[str] | None = 'p0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('lender_api_tokens',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('lender_id', sa.Integer(), nullable=False, comment='The lender it acts for'),
    sa.Column('name', sa.String(length=80), nullable=False, comment="The administrator's name for it"),
    sa.Column('prefix', sa.String(length=16), nullable=False, comment='Its first characters (shown)'),
    sa.Column('token_hash', sa.String(length=64), nullable=False, comment='SHA-256 of the secret'),
    sa.Column('scope', sa.String(length=8), nullable=False, comment='read or write'),
    sa.Column('created_by_id', sa.Integer(), nullable=False, comment='The administrator who created it'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False, comment='Refused from then'),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True, comment='When it was revoked'),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True, comment='Its last accepted request'),
    sa.CheckConstraint("scope IN ('read', 'write')", name=op.f('ck_lender_api_tokens_scope')),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'], name=op.f('fk_lender_api_tokens_created_by_id_users')),
    sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'], name=op.f('fk_lender_api_tokens_lender_id_lenders')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_lender_api_tokens')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_lender_api_tokens_token_hash'))
    )
    with op.batch_alter_table('lender_api_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_lender_api_tokens_lender_id'), ['lender_id'], unique=False)

    op.create_table('lender_invitations',
    sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
    sa.Column('lender_id', sa.Integer(), nullable=False, comment='The lender'),
    sa.Column('email', sa.String(length=254), nullable=False, comment='Whom it invites (lower case)'),
    sa.Column('role', sa.String(length=16), nullable=False, comment='administrator or employee (clerk)'),
    sa.Column('token_hash', sa.String(length=64), nullable=False, comment="SHA-256 of the link's secret"),
    sa.Column('invited_by_id', sa.Integer(), nullable=False, comment='The administrator who invited'),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False, comment='Good until'),
    sa.Column('accepted_at', sa.DateTime(timezone=True), nullable=True, comment='When it was accepted'),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True, comment='When it was withdrawn'),
    sa.CheckConstraint("role IN ('administrator', 'employee')", name=op.f('ck_lender_invitations_role')),
    sa.ForeignKeyConstraint(['invited_by_id'], ['users.id'], name=op.f('fk_lender_invitations_invited_by_id_users')),
    sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'], name=op.f('fk_lender_invitations_lender_id_lenders')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_lender_invitations')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_lender_invitations_token_hash'))
    )
    with op.batch_alter_table('lender_invitations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_lender_invitations_lender_id'), ['lender_id'], unique=False)

    op.create_table('loan_figures',
    sa.Column('loan_id', sa.Integer(), nullable=False, comment='The loan'),
    sa.Column('lender_id', sa.Integer(), nullable=False, comment="The loan's lender (the filters' key)"),
    sa.Column('as_of', sa.Date(), nullable=False, comment='The day the figures are for'),
    sa.Column('status', sa.String(length=16), nullable=False, comment='current, pending, overdue or none'),
    sa.Column('annual', sa.Numeric(precision=14, scale=2), nullable=True, comment="This fiscal year's assessment"),
    sa.Column('due_now', sa.Numeric(precision=14, scale=2), nullable=False, comment='What is due now'),
    sa.Column('next_due', sa.Date(), nullable=True, comment='The next due date'),
    sa.Column('computed_at', sa.DateTime(timezone=True), nullable=False, comment='When the row was written (UTC)'),
    sa.CheckConstraint("status IN ('current', 'pending', 'overdue', 'none')", name=op.f('ck_loan_figures_status')),
    sa.ForeignKeyConstraint(['lender_id'], ['lenders.id'], name=op.f('fk_loan_figures_lender_id_lenders')),
    sa.ForeignKeyConstraint(['loan_id'], ['loans.id'], name=op.f('fk_loan_figures_loan_id_loans')),
    sa.PrimaryKeyConstraint('loan_id', name=op.f('pk_loan_figures'))
    )
    with op.batch_alter_table('loan_figures', schema=None) as batch_op:
        batch_op.create_index('ix_loan_figures_lender_due', ['lender_id', 'due_now'], unique=False)
        batch_op.create_index('ix_loan_figures_lender_status', ['lender_id', 'status'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('loan_figures', schema=None) as batch_op:
        batch_op.drop_index('ix_loan_figures_lender_status')
        batch_op.drop_index('ix_loan_figures_lender_due')

    op.drop_table('loan_figures')
    with op.batch_alter_table('lender_invitations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_lender_invitations_lender_id'))

    op.drop_table('lender_invitations')
    with op.batch_alter_table('lender_api_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_lender_api_tokens_lender_id'))

    op.drop_table('lender_api_tokens')
