"""exemption change reports: R-B17's eight kinds, their evidence, and the revoked state of
an exemption reached from an acknowledged report (R-B15, R-B18).

Revision ID: revoke26a
Revises: lend28c1
Create Date: 2026-12-06 08:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'revoke26a'
down_revision: str | Sequence[str] | None = 'lend28c1'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KINDS_OLD = ("moved", "rented", "sold_or_transferred", "spouse_died", "use_changed", "other")
KINDS = ("moved", "rented", "use_changed", "sold_or_transferred", "co_owner_changed",
         "spouse_died", "divorce", "other")
STATUSES_OLD = ("draft", "filed", "under_review", "returned", "resubmitted", "approved",
                "withdrawn")
STATUSES = (*STATUSES_OLD, "revoked")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def upgrade() -> None:
    with op.batch_alter_table('exemption_change_reports') as b:
        b.drop_constraint(op.f('ck_exemption_change_reports_kind'), type_='check')
        b.create_check_constraint(op.f('ck_exemption_change_reports_kind'), _in('kind', KINDS))
        b.alter_column('kind', existing_type=sa.String(length=24), existing_nullable=False,
                       comment='moved, rented, use_changed, sold_or_transferred, '
                               'co_owner_changed, spouse_died, divorce or other (R-B17)',
                       existing_comment='moved, rented, sold_or_transferred, spouse_died, '
                                        'use_changed or other')
        b.add_column(sa.Column('decision', sa.String(length=10), nullable=True,
                               comment='On acknowledgement: revoked or continues (R-B15, R-B18)'))
        b.create_check_constraint(op.f('ck_exemption_change_reports_decision'),
                                  "decision IS NULL OR decision IN ('revoked', 'continues')")
        b.create_check_constraint(op.f('ck_exemption_change_reports_decided'),
                                  "decision IS NULL OR status = 'acknowledged'")
    with op.batch_alter_table('exemption_certifications') as b:
        b.drop_constraint(op.f('ck_exemption_certifications_status'), type_='check')
        b.create_check_constraint(op.f('ck_exemption_certifications_status'),
                                  _in('status', STATUSES))
        b.alter_column('status', existing_type=sa.String(length=14), existing_nullable=False,
                       comment='draft, filed, under_review, returned, resubmitted, approved, '
                               'withdrawn or revoked',
                       existing_comment='draft, filed, under_review, returned, resubmitted, '
                                        'approved or withdrawn')
        b.add_column(sa.Column('revoked_from', sa.Date(), nullable=True,
                               comment='Revoked: July 1 of the first fiscal year without the '
                                       'exemption (R-B15, R-B18)'))
        b.add_column(sa.Column('revoked_through', sa.Date(), nullable=True,
                               comment='Revoked: July 1 of the last fiscal year billed again '
                                       'without it'))
        b.add_column(sa.Column('revoked_by_report_id', sa.Integer(), nullable=True,
                               comment='Revoked: the acknowledged change report that ended it'))
        b.create_foreign_key(
            op.f('fk_exemption_certifications_revoked_by_report_id_exemption_change_reports'),
            'exemption_change_reports', ['revoked_by_report_id'], ['id'])
        b.create_check_constraint(op.f('ck_exemption_certifications_revoked'),
                                  "(status = 'revoked') = (revoked_from IS NOT NULL)")
    op.create_table(
        'exemption_change_evidence',
        sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key'),
        sa.Column('report_id', sa.Integer(), nullable=False, comment='The change report'),
        sa.Column('sha256', sa.String(length=64), nullable=False,
                  comment='Content hash (the storage key)'),
        sa.Column('content_type', sa.String(length=40), nullable=False,
                  comment='Type read from the content'),
        sa.Column('size_bytes', sa.Integer(), nullable=False, comment='Size in bytes'),
        sa.Column('filename', sa.String(length=200), nullable=False,
                  comment='The name it was uploaded with'),
        sa.Column('uploaded_by_id', sa.Integer(), nullable=False, comment='Who uploaded it'),
        sa.Column('active_content', sa.String(length=200), nullable=True,
                  comment="A PDF's scripts or automatic actions found, flagged to the "
                          "reviewer; null for none"),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                  comment='When the row was written (UTC)'),
        sa.CheckConstraint('size_bytes > 0', name=op.f('ck_exemption_change_evidence_size')),
        sa.CheckConstraint("content_type IN ('application/pdf', 'image/jpeg', 'image/png')",
                           name=op.f('ck_exemption_change_evidence_content_type')),
        sa.ForeignKeyConstraint(
            ['report_id'], ['exemption_change_reports.id'],
            name=op.f('fk_exemption_change_evidence_report_id_exemption_change_reports')),
        sa.ForeignKeyConstraint(['uploaded_by_id'], ['users.id'],
                                name=op.f('fk_exemption_change_evidence_uploaded_by_id_users')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_exemption_change_evidence')),
    )
    op.create_index(op.f('ix_exemption_change_evidence_report_id'),
                    'exemption_change_evidence', ['report_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_exemption_change_evidence_report_id'),
                  table_name='exemption_change_evidence')
    op.drop_table('exemption_change_evidence')
    with op.batch_alter_table('exemption_certifications') as b:
        b.drop_constraint(op.f('ck_exemption_certifications_revoked'), type_='check')
        b.drop_constraint(
            op.f('fk_exemption_certifications_revoked_by_report_id_exemption_change_reports'),
            type_='foreignkey')
        b.drop_column('revoked_by_report_id')
        b.drop_column('revoked_through')
        b.drop_column('revoked_from')
        b.drop_constraint(op.f('ck_exemption_certifications_status'), type_='check')
        b.create_check_constraint(op.f('ck_exemption_certifications_status'),
                                  _in('status', STATUSES_OLD))
        b.alter_column('status', existing_type=sa.String(length=14), existing_nullable=False,
                       comment='draft, filed, under_review, returned, resubmitted, approved '
                               'or withdrawn')
    with op.batch_alter_table('exemption_change_reports') as b:
        b.drop_constraint(op.f('ck_exemption_change_reports_decided'), type_='check')
        b.drop_constraint(op.f('ck_exemption_change_reports_decision'), type_='check')
        b.drop_column('decision')
        b.drop_constraint(op.f('ck_exemption_change_reports_kind'), type_='check')
        b.create_check_constraint(op.f('ck_exemption_change_reports_kind'),
                                  _in('kind', KINDS_OLD))
        b.alter_column('kind', existing_type=sa.String(length=24), existing_nullable=False,
                       comment='moved, rented, sold_or_transferred, spouse_died, use_changed '
                               'or other')
