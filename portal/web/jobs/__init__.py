"""Background jobs for staff (DESIGN.md 7): a job's page (`routes.py`), whose progress
updates in place while the job runs (`static/live-progress.js`; the person can pause it), and
the job's words (`views.py`), which the roll's and the collections' pages use for the jobs
they start.

One blueprint, `jobs`."""

from flask import Blueprint

bp = Blueprint("jobs", __name__)
