"""The staff search (issue 28): accent- and case-insensitive on PostgreSQL.

`unaccent` and `pg_trgm` (both trusted extensions), an IMMUTABLE SQL function
`portal_fold(text)` = lower(unaccent(text)) (SQLite registers a Python function of the same
name on each connection: `portal/db.py`), and a trigram GIN index on the folded value of each
column the search reads, so `portal_fold(col) LIKE '%munoz%'` uses an index. SQLite skips all
of it. The indexes are not in the models (an expression over a PostgreSQL function):
`portal.db.include_object` leaves the `*_trgm` indexes out of the comparison with the models.

Revision ID: bo281
Revises: sec311
Create Date: 2026-12-05 13:00:00

"""
from collections.abc import Sequence

from alembic import op

# revision identifiers, used by Alembic.
revision: str = 'bo281'
down_revision: str | Sequence[str] | None = 'sec311'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: (index, table, column) searched by the staff search.
INDEXES = (
    ("ix_parcels_catastro_trgm", "parcels", "catastro"),
    ("ix_parties_name_trgm", "parties", "name"),
    ("ix_users_name_trgm", "users", "name"),
    ("ix_users_email_trgm", "users", "email"),
    ("ix_loans_loan_number_trgm", "loans", "loan_number"),
    ("ix_exemption_certifications_filing_number_trgm", "exemption_certifications",
     "filing_number"),
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE EXTENSION IF NOT EXISTS unaccent")
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    op.execute("""
        CREATE OR REPLACE FUNCTION portal_fold(value text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$
    """)
    for name, table, column in INDEXES:
        op.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {table} "
                   f"USING gin (portal_fold({column}) gin_trgm_ops)")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for name, _table, _column in INDEXES:
        op.execute(f"DROP INDEX IF EXISTS {name}")
    op.execute("DROP FUNCTION IF EXISTS portal_fold(text)")
    # The extensions stay: other databases' objects may use them, and they hold no data.
