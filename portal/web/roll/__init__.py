"""The Board's year for staff (J8): budgets (`budgets.py`), the Board's parameters
(`board_parameters.py`), the roll's page with computing and publishing (`roll.py`), the parcel
roll's import (`roll_import.py`), the roll's review (`roll_review.py`) and the assessment
notices (`notices.py`, with the parcel's own download of its notice).

One blueprint, `roll`, without a URL prefix: its routes carry their full paths
(`/personal/...`, `/propiedad/<id>/aviso-de-tasacion.pdf`)."""

from flask import Blueprint

bp = Blueprint("roll", __name__)
