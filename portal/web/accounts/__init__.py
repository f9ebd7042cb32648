"""Accounts' pages: home, language switch, dashboard, parcel page, statement PDF, claim and
access grants (`routes.py`), the lessee's leased parcels (`leases.py`) and the staff's lookup
of any parcel and any person (`lookup.py`); `views.py` turns the services' records into page
values (the other packages' pages use it too).

One blueprint, `accounts`; its route modules import it from here, and the app factory imports
them, then registers it."""

from flask import Blueprint

bp = Blueprint("accounts", __name__)
