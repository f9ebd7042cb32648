"""People's pages: sign-up with email confirmation, sign-in, sign-out, password change and
reset (`routes.py`, `sign_in.py`, `tokens.py`), two-factor sign-in (`two_factor.py`), and the
staff's page of a person (`person.py`) with their staff role (`staff_roles.py`) and the reset
of their two-factor sign-in (`two_factor_reset.py`).

One blueprint, `people`, without a URL prefix: its routes carry their full paths
(`/cuenta/...`, `/personal/persona/...`)."""

from flask import Blueprint

bp = Blueprint("people", __name__)
