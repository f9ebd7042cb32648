"""The CRIM's file of plan payments (R-B16): each receipt recorded once per plan and kind,
the defaults found by the daily task (the owner told once) and the staff API tokens a
system uses to send the file (docs/EXEMPTION.md).

Revision ID: plan261
Revises: revoke26a
Create Date: 2026-12-06 07:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'plan261'
down_revision: str | Sequence[str] | None = 'revoke26a'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index('uq_plan_entries_receipt', 'plan_entries',
                    ['certification_id', 'kind', 'reference'], unique=True,
                    sqlite_where=sa.text("reference <> ''"),
                    postgresql_where=sa.text("reference <> ''"))
    op.create_table(
        'plan_defaults',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('certification_id', sa.Integer(), nullable=False,
                  comment='The certification whose plan went into default'),
        sa.Column('defaulted_on', sa.Date(), nullable=False,
                  comment="The day after the missed payment's last day"),
        sa.Column('missed', sa.Integer(), nullable=False,
                  comment='The number of the payment missed'),
        sa.Column('due_now', sa.Numeric(precision=14, scale=2), nullable=False,
                  comment='The balance then due with the notice costs (R-B16)'),
        sa.Column('found_on', sa.Date(), nullable=False,
                  comment='The day the daily task found it'),
        sa.Column('owner_told', sa.Boolean(), nullable=False,
                  comment='Whether an email to the filer was queued (false: no address)'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.ForeignKeyConstraint(['certification_id'], ['exemption_certifications.id'],
                                name=op.f('fk_plan_defaults_certification_id_exemption_certifications')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_plan_defaults')),
        sa.UniqueConstraint('certification_id', name=op.f('uq_plan_defaults_certification_id')),
    )
    op.create_table(
        'staff_api_tokens',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('user_id', sa.Integer(), nullable=False, comment='The staff member it acts as'),
        sa.Column('name', sa.String(length=80), nullable=False,
                  comment="What it is for (the system's name)"),
        sa.Column('prefix', sa.String(length=16), nullable=False,
                  comment='Its first characters (shown)'),
        sa.Column('token_hash', sa.String(length=64), nullable=False,
                  comment='SHA-256 of the secret'),
        sa.Column('scope', sa.String(length=16), nullable=False,
                  comment='What it may do: plan_payments'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False,
                  comment='Refused from then'),
        sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True,
                  comment='When it was revoked'),
        sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True,
                  comment='Its last accepted request'),
        sa.CheckConstraint("scope IN ('plan_payments')", name=op.f('ck_staff_api_tokens_scope')),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_staff_api_tokens_user_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_staff_api_tokens')),
        sa.UniqueConstraint('token_hash', name=op.f('uq_staff_api_tokens_token_hash')),
    )
    op.create_index(op.f('ix_staff_api_tokens_user_id'), 'staff_api_tokens', ['user_id'],
                    unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_staff_api_tokens_user_id'), table_name='staff_api_tokens')
    op.drop_table('staff_api_tokens')
    op.drop_table('plan_defaults')
    op.drop_index('uq_plan_entries_receipt', table_name='plan_entries')
