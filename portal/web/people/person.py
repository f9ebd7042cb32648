"""Staff: a person's page (their parcels, their staff role, the reset of their two-factor
sign-in), opened from the staff's lookup (`portal.web.accounts.lookup`)."""

from __future__ import annotations

from flask import g

from portal.web.people import bp, staff_roles
from portal.web.people.two_factor_reset import person_page
from portal.web.staff_access import staff_required


@bp.get("/personal/persona/<id:user_id>")
@staff_required
def person(user_id: int):  # noqa: ANN201
    g.role_panel = staff_roles.panel(user_id)  # the person's staff role (people/_role.html)
    return person_page(user_id)
