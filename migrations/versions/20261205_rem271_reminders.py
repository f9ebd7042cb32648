"""reminders and the calendar (issue 27): an account's choices (`rem_settings`), parcels
turned off (`rem_parcels_off`), relatives who get a parcel's reminders by email
(`rem_relatives`) and each reminder sent, once per parcel, kind, day and recipient
(`rem_sent`).

Revision ID: rem271
Revises: api281
Create Date: 2026-12-05 13:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'rem271'
down_revision: str | Sequence[str] | None = 'api281'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'rem_settings',
        sa.Column('user_id', sa.Integer(), nullable=False, comment='The account'),
        sa.Column('enabled', sa.Boolean(), nullable=False,
                  comment='Reminders by email on or off'),
        sa.Column('days_before', sa.SmallInteger(), nullable=False,
                  comment='Days before a day its reminder goes'),
        sa.Column('chosen_at', sa.DateTime(timezone=True), nullable=True,
                  comment='When the owner saved a choice (null: the defaults, untold)'),
        sa.Column('unsubscribe_token', sa.String(length=64), nullable=False,
                  comment="The one-click unsubscribe link's secret"),
        sa.Column('calendar_token', sa.String(length=64), nullable=False,
                  comment="The calendar feed's secret (reset by the owner)"),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint('days_before >= 0 AND days_before <= 60',
                           name=op.f('ck_rem_settings_days_before')),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_rem_settings_user_id_users')),
        sa.PrimaryKeyConstraint('user_id', name=op.f('pk_rem_settings')),
        sa.UniqueConstraint('calendar_token', name=op.f('uq_rem_settings_calendar_token')),
        sa.UniqueConstraint('unsubscribe_token',
                            name=op.f('uq_rem_settings_unsubscribe_token')),
    )
    op.create_table(
        'rem_parcels_off',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('user_id', sa.Integer(), nullable=False, comment='The account'),
        sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'],
                                name=op.f('fk_rem_parcels_off_parcel_id_parcels')),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_rem_parcels_off_user_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_rem_parcels_off')),
        sa.UniqueConstraint('user_id', 'parcel_id',
                            name=op.f('uq_rem_parcels_off_user_id_parcel_id')),
    )
    op.create_table(
        'rem_relatives',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
        sa.Column('email', sa.String(length=254), nullable=False,
                  comment="The relative's email, lower case"),
        sa.Column('language', sa.String(length=2), nullable=False,
                  comment="The reminders' language: 'es' or 'en'"),
        sa.Column('added_by_id', sa.Integer(), nullable=False,
                  comment="The parcel's manager who added it"),
        sa.Column('confirm_token', sa.String(length=64), nullable=False,
                  comment="The confirmation link's secret"),
        sa.Column('unsubscribe_token', sa.String(length=64), nullable=False,
                  comment="The one-click unsubscribe link's secret"),
        sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True,
                  comment='When the relative confirmed (null: nothing is sent)'),
        sa.Column('stopped_at', sa.DateTime(timezone=True), nullable=True,
                  comment='When the relative unsubscribed or the manager removed them'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint("language IN ('es', 'en')", name=op.f('ck_rem_relatives_language')),
        sa.CheckConstraint('email = lower(email)',
                           name=op.f('ck_rem_relatives_email_lowercase')),
        sa.ForeignKeyConstraint(['added_by_id'], ['users.id'],
                                name=op.f('fk_rem_relatives_added_by_id_users')),
        sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'],
                                name=op.f('fk_rem_relatives_parcel_id_parcels')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_rem_relatives')),
        sa.UniqueConstraint('confirm_token', name=op.f('uq_rem_relatives_confirm_token')),
        sa.UniqueConstraint('unsubscribe_token',
                            name=op.f('uq_rem_relatives_unsubscribe_token')),
    )
    op.create_index('ix_rem_relatives_parcel', 'rem_relatives', ['parcel_id'], unique=False)
    op.create_table(
        'rem_sent',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel'),
        sa.Column('kind', sa.String(length=20), nullable=False, comment="The reminder's kind"),
        sa.Column('day', sa.Date(), nullable=False,
                  comment='The day it is about (e.g. the last timely day)'),
        sa.Column('recipient', sa.String(length=254), nullable=False,
                  comment='The email it went to'),
        sa.Column('sent_on', sa.Date(), nullable=False,
                  comment='The Puerto Rico day it was queued'),
        sa.Column('outbox_id', sa.Integer(), nullable=True, comment='The email in the outbox'),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint("kind IN ('installment_due', 'lump_sum_deadline', "
                           "'installment_late', 'demand_last_day')",
                           name=op.f('ck_rem_sent_kind')),
        sa.ForeignKeyConstraint(['outbox_id'], ['outbox_messages.id'],
                                name=op.f('fk_rem_sent_outbox_id_outbox_messages')),
        sa.ForeignKeyConstraint(['parcel_id'], ['parcels.id'],
                                name=op.f('fk_rem_sent_parcel_id_parcels')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_rem_sent')),
        sa.UniqueConstraint('parcel_id', 'kind', 'day', 'recipient',
                            name=op.f('uq_rem_sent_parcel_id_kind_day_recipient')),
    )


def downgrade() -> None:
    op.drop_table('rem_sent')
    op.drop_index('ix_rem_relatives_parcel', table_name='rem_relatives')
    op.drop_table('rem_relatives')
    op.drop_table('rem_parcels_off')
    op.drop_table('rem_settings')
