"""The back office at the island's size: the staff search (`search.py`) and the
reports with their CSV exports (`reports.py`). Staff only (`staff_required`: 404 for anyone
else). One blueprint, `backoffice`, without a URL prefix."""

from flask import Blueprint

bp = Blueprint("backoffice", __name__)
