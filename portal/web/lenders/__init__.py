"""Lenders' pages under /prestamista: the organisation's loans and their parcels (`loans.py`),
a loan's intents and acquisitions (`intents.py`, `marks.py`), certification batches
(`batches.py`) and the organisation's people and API tokens (`organisation.py`).

One blueprint, `lenders`."""

from flask import Blueprint

bp = Blueprint("lenders", __name__, url_prefix="/prestamista")
