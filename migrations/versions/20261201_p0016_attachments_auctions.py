"""property-tax attachments and auctions (R-C1–R-C8): the debts, the Treasury's notices of
attachment, the CRIM's auctions and their results. Lessee deposit orders (R-A14) are the
existing `deposit_orders` table.

Revision ID: p0016
Revises: p0015
Create Date: 2026-12-01 17:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'p0016'
down_revision: str | Sequence[str] | None = 'p0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _money(name: str, comment: str) -> sa.Column:
    return sa.Column(name, sa.Numeric(precision=14, scale=2), nullable=False, comment=comment)


def _id() -> sa.Column:
    return sa.Column('id', sa.Integer(), nullable=False, comment='Surrogate key')


def _by(table: str) -> list:
    return [sa.Column('created_by_id', sa.Integer(), nullable=True,
                      comment='Staff who recorded it'),
            sa.Column('created_at', sa.DateTime(timezone=True), nullable=False,
                      comment='When the row was written (UTC)'),
            sa.ForeignKeyConstraint(['created_by_id'], ['users.id'],
                                    name=op.f(f'fk_{table}_created_by_id_users'))]


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f'{target}.id'],
                                   name=op.f(f'fk_{table}_{column}_{target}'))


def upgrade() -> None:
    op.create_table(
        'tax_debts', _id(),
        sa.Column('parcel_id', sa.Integer(), nullable=False,
                  comment='The parcel the debt is on'),
        sa.Column('creditor', sa.String(length=10), nullable=False,
                  comment='crim or treasury (RULES.md section C)'),
        sa.Column('fiscal_years', sa.String(length=120), nullable=False,
                  comment='The fiscal years owed, e.g. 2024-2025'),
        _money('taxes', 'Tax principal owed (R-C1, R-C3 base)'),
        _money('surcharges', 'Surcharges owed (R-C1)'),
        _money('interest', 'Interest owed (R-C1)'),
        _money('penalties', 'Penalties owed (R-C1)'),
        _money('levies', 'Levies owed (R-C1)'),
        _money('fines', 'Fines owed (R-C1)'),
        _money('costs', 'Collection costs owed (R-C4 credit)'),
        sa.Column('paid_on', sa.Date(), nullable=True, comment='Day it was paid in full'),
        *_by('tax_debts'),
        sa.CheckConstraint("creditor IN ('crim', 'treasury')",
                           name=op.f('ck_tax_debts_creditor')),
        sa.CheckConstraint('taxes >= 0 AND surcharges >= 0 AND interest >= 0 AND '
                           'penalties >= 0 AND levies >= 0 AND fines >= 0 AND costs >= 0',
                           name=op.f('ck_tax_debts_amounts')),
        _fk('tax_debts', 'parcel_id', 'parcels'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tax_debts')),
    )
    op.create_index(op.f('ix_tax_debts_parcel_id'), 'tax_debts', ['parcel_id'], unique=False)
    op.create_table(
        'attachment_notices', _id(),
        sa.Column('debt_id', sa.Integer(), nullable=False, comment='The debt attached'),
        sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel attached'),
        sa.Column('notified_on', sa.Date(), nullable=False,
                  comment='Notice date: personal delivery or certified mailing (R-C7)'),
        sa.Column('delivery', sa.String(length=16), nullable=False,
                  comment='personal or certified_mail (R-C7)'),
        sa.Column('certified_mail_number', sa.String(length=40), nullable=True,
                  comment='The certified-mail number, when mailed'),
        _money('custody_costs', 'Custody and deposit costs, at cost (R-C3)'),
        _money('dunning_fee', "Dunning agent's fee with custody costs (R-C3)"),
        _money('total', 'Everything the notice states as due (R-C1)'),
        sa.Column('last_day', sa.Date(), nullable=False,
                  comment='Last day to pay in full (R-C2)'),
        sa.Column('earliest_sale_on', sa.Date(), nullable=False,
                  comment='First day of a possible sale (R-C2)'),
        *_by('attachment_notices'),
        sa.CheckConstraint("delivery IN ('personal', 'certified_mail')",
                           name=op.f('ck_attachment_notices_delivery')),
        sa.CheckConstraint('custody_costs >= 0 AND dunning_fee >= 0 AND total >= 0',
                           name=op.f('ck_attachment_notices_amounts')),
        sa.CheckConstraint('last_day >= notified_on AND earliest_sale_on > last_day',
                           name=op.f('ck_attachment_notices_term')),
        _fk('attachment_notices', 'debt_id', 'tax_debts'),
        _fk('attachment_notices', 'parcel_id', 'parcels'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_attachment_notices')),
        sa.UniqueConstraint('debt_id', name=op.f('uq_attachment_notices_debt_id')),
    )
    op.create_index(op.f('ix_attachment_notices_parcel_id'), 'attachment_notices',
                    ['parcel_id'], unique=False)
    op.create_table(
        'auctions', _id(),
        sa.Column('debt_id', sa.Integer(), nullable=False,
                  comment="The CRIM's debt the auction collects"),
        sa.Column('parcel_id', sa.Integer(), nullable=False, comment='The parcel auctioned'),
        sa.Column('auction_number', sa.Integer(), nullable=False,
                  comment="Which auction of the sale (R-C8: selects the regulation's minimum)"),
        sa.Column('appraised_on', sa.Date(), nullable=False,
                  comment="The CRIM's appraisal date (R-C4)"),
        _money('real_value', "Real value by the CRIM's appraisal (R-C4)"),
        _money('mortgage_amount',
               'Outstanding balance of the recorded mortgages at the appraisal date (R-C8)'),
        _money('equity', 'Equity: value less mortgage, not below 0 (R-C4)'),
        _money('credit', 'Credit: taxes, surcharges, interest, penalties, costs'),
        _money('floor', 'Taxes, surcharges and interest owed by the property'),
        _money('minimum', 'The auction minimum (R-C4); confidential (R-C5)'),
        *_by('auctions'),
        sa.CheckConstraint('auction_number >= 1', name=op.f('ck_auctions_number')),
        sa.CheckConstraint('real_value >= 0 AND mortgage_amount >= 0 AND minimum >= 0',
                           name=op.f('ck_auctions_amounts')),
        _fk('auctions', 'debt_id', 'tax_debts'),
        _fk('auctions', 'parcel_id', 'parcels'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_auctions')),
        sa.UniqueConstraint('debt_id', 'auction_number',
                            name=op.f('uq_auctions_debt_id_auction_number')),
    )
    op.create_index(op.f('ix_auctions_debt_id'), 'auctions', ['debt_id'], unique=False)
    op.create_index(op.f('ix_auctions_parcel_id'), 'auctions', ['parcel_id'], unique=False)
    op.create_table(
        'auction_results', _id(),
        sa.Column('auction_id', sa.Integer(), nullable=False, comment='The auction'),
        sa.Column('held_on', sa.Date(), nullable=False, comment='Day of the auction'),
        sa.Column('outcome', sa.String(length=20), nullable=False,
                  comment='adjudicated_to_crim or sold (R-C6)'),
        sa.Column('bids', sa.Integer(), nullable=False, comment='Number of bids received'),
        _money('price', 'Adjudication price: the minimum, or the sale price'),
        _money('shortfall', 'Taxes, surcharges and interest not covered by a sale to a '
                            'third party (R-C6, R-C8)'),
        *_by('auction_results'),
        sa.CheckConstraint("outcome IN ('adjudicated_to_crim', 'sold')",
                           name=op.f('ck_auction_results_outcome')),
        sa.CheckConstraint('bids >= 0 AND price >= 0 AND shortfall >= 0',
                           name=op.f('ck_auction_results_amounts')),
        _fk('auction_results', 'auction_id', 'auctions'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_auction_results')),
        sa.UniqueConstraint('auction_id', name=op.f('uq_auction_results_auction_id')),
    )


def downgrade() -> None:
    op.drop_table('auction_results')
    op.drop_index(op.f('ix_auctions_parcel_id'), table_name='auctions')
    op.drop_index(op.f('ix_auctions_debt_id'), table_name='auctions')
    op.drop_table('auctions')
    op.drop_index(op.f('ix_attachment_notices_parcel_id'), table_name='attachment_notices')
    op.drop_table('attachment_notices')
    op.drop_index(op.f('ix_tax_debts_parcel_id'), table_name='tax_debts')
    op.drop_table('tax_debts')
