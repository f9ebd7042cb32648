"""Reminders' pages (docs/REMINDERS.md): the account's choices at
/cuenta/recordatorios, a relative added or removed, the one-click unsubscribe (RFC 8058: no
sign-in, the link's secret is the proof), a relative's confirmation, and the calendars (the
account's feed at its secret address, a parcel's `.ics`). Thin: `routes.py` validates, calls
`portal.reminders`, renders.

One blueprint, `reminders`; its route module imports it from here."""

from flask import Blueprint

bp = Blueprint("reminders", __name__)
