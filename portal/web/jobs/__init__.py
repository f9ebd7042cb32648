"""Background jobs for staff (DESIGN.md 7): a job's page (`routes.py`), which reloads itself
while the job runs, and the job's words (`views.py`), which the roll's and the collections'
pages use for the jobs they start.

One blueprint, `jobs`."""

from flask import Blueprint

bp = Blueprint("jobs", __name__)
