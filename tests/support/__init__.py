"""What the tests share, in one place: the clock and its days (clock), the schema template
and PostgreSQL throwaway databases (schema), the app (app), the small worlds built in the
database (world), the pages and their checks (pages, html, documents, site), the hostile
input probes (hostile), the lenders' and the payments' helpers (lenders, payments, the fake
Stripe server stripe_server), the browser tests' helpers (browser), the SQL a piece of code
runs (sql) and the rule cases' files (cases).

Test modules import from here only, never from another test module; fixtures stay in the
conftest.py files, built from these helpers.
"""
