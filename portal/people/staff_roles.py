"""Staff roles (docs/STAFF.md): an administrator sets what another staff member may do.

Roles: administrator (everything), reviewer (reads every staff page, changes nothing yet:
the role the reviews of the roll and of exemptions will take), cashier (the payments office
and refunds), read_only (sees, changes nothing). An administrator cannot take their own
administrator role away (no lock-out: someone must be able to give it back). Audit-logged.
"""

from __future__ import annotations

from typing import Any

from portal.accounts import access, audit
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.db import UnitOfWork
from portal.models import User
from portal.models.users import STAFF_ROLES


def set_role(uow: UnitOfWork, admin: Any, user_id: int | str, role: str) -> User:
    """Give the staff member `user_id` the `role`; the same role again changes nothing."""
    access.require_staff_role(admin, access.ADMINISTRATOR)
    if role not in STAFF_ROLES:
        raise InvalidInput("role", field="role")
    person = uow.session.get(User, access.parse_id(user_id))
    if person is None or not person.is_staff:
        raise NotFound()
    if person.id == admin.id and role != access.ADMINISTRATOR:
        raise Conflict("own_administrator")
    if person.staff_role == role:
        return person
    before = audit.snapshot(person, ("staff_role",))
    person.staff_role = role
    uow.session.flush()
    audit.record(uow, admin, "staff.role_set", person, before=before,
                 after=audit.snapshot(person, ("staff_role",)))
    return person


def role_of(uow: UnitOfWork, staff: Any, user_id: int | str) -> str | None:
    """The role in force of the person `user_id` (None when they are not staff)."""
    access.require_staff(staff)
    person = uow.session.get(User, access.parse_id(user_id))
    if person is None:
        raise NotFound()
    return person.role
