"""Staff: an administrator sets a staff member's role on the person's page (docs/STAFF.md).
The service (`staff_roles.set_role`) refuses anyone else and one's own administrator role."""

from __future__ import annotations

from types import SimpleNamespace

from flask import abort, flash, g, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from portal.accounts import access
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.models.users import STAFF_ROLES
from portal.people import staff_roles
from portal.web.accounts import views
from portal.web.data import uow
from portal.web.people import bp
from portal.web.people.forms import RoleForm
from portal.web.people.two_factor_reset import ResetTwoFactorForm
from portal.web.staff_access import staff_role

#: Each role's name and what it may do, in the staff's words.
ROLE_LABELS = {
    "administrator": (_l("Administrator"),
                      _l("Everything: budgets, the roll, payments, roles and two-step "
                         "verification resets.")),
    "reviewer": (_l("Reviewer"), _l("Decides residential exemption certifications; changes "
                                    "no budget, roll or payment.")),
    "cashier": (_l("Cashier"), _l("Records office payments and refunds credits.")),
    "read_only": (_l("Read only"), _l("Sees every staff page; changes nothing.")),
}


def role_label(role: str | None) -> str:
    return str(ROLE_LABELS[role][0]) if role in ROLE_LABELS else ""


def _form(role: str | None) -> RoleForm:
    form = RoleForm(data={"role": role}) if role else RoleForm()
    form.role.choices = [(r, str(ROLE_LABELS[r][0])) for r in STAFF_ROLES]
    return form


def panel(user_id: int, form: RoleForm | None = None) -> SimpleNamespace | None:
    """What the person page shows of the person's role (None when they are not staff): it
    reads `g.role_panel` (templates/people/_role.html)."""
    try:
        with uow() as w:
            role = staff_roles.role_of(w, current_user, user_id)
    except (NotFound, Forbidden):
        return None
    if role is None:
        return None
    return SimpleNamespace(
        user_id=user_id, role=role, label=role_label(role),
        is_self=int(user_id) == int(current_user.id),
        can_set=access.has_staff_role(current_user, access.ADMINISTRATOR),
        form=form or _form(role),
        descriptions=[(str(ROLE_LABELS[r][0]), str(ROLE_LABELS[r][1])) for r in STAFF_ROLES])


@bp.post("/personal/persona/<id:user_id>/funcion")
@staff_role(access.ADMINISTRATOR)
def set_role(user_id: int):  # noqa: ANN201
    form = _form(None)
    valid = form.validate_on_submit()
    if valid and form.role.data not in STAFF_ROLES:
        form.role.errors = [_("Choose a role.")]
        valid = False
    if valid:
        try:
            with uow() as w:
                staff_roles.set_role(w, current_user, user_id, form.role.data)
        except (NotFound, Forbidden):
            abort(404)
        except InvalidInput:
            form.role.errors = [_("Choose a role.")]
        except Conflict:
            form.role.errors = [_("You cannot take away your own administrator role: ask "
                                  "another administrator.")]
        else:
            flash(_("The role is saved: %(role)s.", role=role_label(form.role.data)),
                  "success")
            return redirect(url_for("people.person", user_id=user_id), 303)
    g.role_panel = panel(user_id, form)
    p = views.staff_person(current_user, user_id)
    if g.role_panel is None or p is None:
        abort(404)
    # the person's page, with `errors` so that its title says "Error:" (base.html)
    return render_template("people/person.html", p=p, reset_form=ResetTwoFactorForm(),
                           errors=form.role.errors), 400
