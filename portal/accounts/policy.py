"""Who may change what (DESIGN.md 6, docs/SECURITY.md): one table of the writes on a person's
parcel, each answered by the staff roles that may do it and the relations to the parcel that
may. Seeing a parcel is `access`'s question; this one is doing something to it.

Staff act by role (docs/STAFF.md): read-only staff never write; only administrators give or
end another person's access, and they say why (the reason is audited and the owners are told
by email). People act by their relation: the owner, or the lessee who claimed the parcel with
its code (the payer, R-A16), manage who else sees it; the owner files its change reports
(R-B9). The staff pages' own writes are guarded by role in their services
(`access.require_staff_role`); tests/web/test_write_matrix.py walks every write route as
every actor against both.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import select

from portal.accounts import audit
from portal.accounts.access import (
    ADMINISTRATOR,
    MANAGE,
    RECORD,
    TAKE_PAYMENTS,
    get_parcel,
    is_staff,
    staff_role,
)
from portal.accounts.errors import Forbidden, InvalidInput
from portal.db import UnitOfWork
from portal.models import Parcel, ParcelLink, User


class Rule(NamedTuple):
    staff: tuple[str, ...]  # the staff roles that may
    relations: tuple[str, ...]  # the relations to the parcel that may ("payer": a code lessee)
    reason: bool = False  # staff must say why


MANAGE_ACCESS = "parcel.manage_access"
REPORT_CHANGE = "parcel.report_change"
ISSUE_CERTIFICATE = "parcel.issue_certificate"  # a payoff certificate (R-A19)
RECORD_COLLECTION = "collections.record"  # demands, mailings, attachments, deposit orders
TAKE_PAYMENT = "payments.take"  # at the office, and refunds
RESET_TWO_FACTOR = "people.reset_two_factor"
RETRY_MAIL = "mail.retry"  # a failed email queued again (the outbox's staff page)

RULES: dict[str, Rule] = {
    MANAGE_ACCESS: Rule(staff=(ADMINISTRATOR,), relations=("owner", "payer"), reason=True),
    REPORT_CHANGE: Rule(staff=(ADMINISTRATOR,), relations=("owner",)),
    ISSUE_CERTIFICATE: Rule(staff=RECORD, relations=("owner",)),
    RECORD_COLLECTION: Rule(staff=RECORD, relations=()),
    TAKE_PAYMENT: Rule(staff=TAKE_PAYMENTS, relations=()),
    RESET_TWO_FACTOR: Rule(staff=MANAGE, relations=()),
    RETRY_MAIL: Rule(staff=MANAGE, relations=()),
}

#: The longest reason staff may give.
REASON_MAX = 500


def allows(user: Any, action: str, relation: str | None) -> bool:
    """Whether the user, related to the parcel by `relation` (None: not at all), may do
    `action` to it. Staff are judged by their role alone."""
    rule = RULES[action]
    if is_staff(user):
        return staff_role(user) in rule.staff
    return relation is not None and relation in rule.relations


def require(user: Any, action: str, relation: str | None, *, reason: str = "") -> str:
    """`Forbidden` unless `allows`; for staff where the rule asks for one, the reason (spaces
    collapsed), `InvalidInput` (field "reason") when it is missing or too long."""
    if not allows(user, action, relation):
        raise Forbidden()
    reason = " ".join((reason or "").split())
    if is_staff(user) and RULES[action].reason and not 0 < len(reason) <= REASON_MAX:
        raise InvalidInput("reason_required", field="reason", max=REASON_MAX)
    return reason


def manager_relation(uow: UnitOfWork, user: Any, parcel_id: int) -> str | None:
    """The user's own link that could manage the parcel: "owner", "payer" (the lessee who
    claimed it with its code, R-A16), else None."""
    uid = getattr(user, "id", None)
    if uid is None:
        return None
    row = uow.session.execute(
        select(ParcelLink.role, ParcelLink.source)
        .where(ParcelLink.user_id == uid, ParcelLink.parcel_id == int(parcel_id),
               ParcelLink.revoked_at.is_(None))).first()
    if row is None:
        return None
    if row.role == "owner":
        return "owner"
    return "payer" if row.role == "lessee" and row.source == "code" else None


def can_manage(uow: UnitOfWork, user: Any, parcel_id: int) -> bool:
    """May give and end others' access to the parcel (`MANAGE_ACCESS`)."""
    if is_staff(user):
        return allows(user, MANAGE_ACCESS, None)
    return allows(user, MANAGE_ACCESS, manager_relation(uow, user, parcel_id))


def require_manager(uow: UnitOfWork, user: Any, parcel_id: int | str, *,
                    reason: str | None = None) -> tuple[Parcel, str]:
    """(the parcel, the staff's reason) for a change of who sees it: `NotFound` if the user
    may not see it, `Forbidden` if they may not manage it, `InvalidInput` for staff without a
    reason (`reason=None`: a read of the access list, no reason asked)."""
    parcel = get_parcel(uow, user, parcel_id)
    if not can_manage(uow, user, parcel.id):
        raise Forbidden()
    if reason is None:
        return parcel, ""
    relation = None if is_staff(user) else manager_relation(uow, user, parcel.id)
    return parcel, require(user, MANAGE_ACCESS, relation, reason=reason)


def owners(uow: UnitOfWork, parcel_id: int) -> list[User]:
    """The parcel's owners (live owner links): told when staff change who sees it."""
    return list(uow.session.scalars(
        select(User).join(ParcelLink, ParcelLink.user_id == User.id)
        .where(ParcelLink.parcel_id == int(parcel_id), ParcelLink.role == "owner",
               ParcelLink.revoked_at.is_(None)).order_by(User.id)))


def snapshot(obj: Any, reason: str) -> dict[str, Any]:
    """An access row's audit snapshot, with the staff's reason when one was given."""
    snap = audit.snapshot(obj)
    return {**snap, "reason": reason} if reason else snap
