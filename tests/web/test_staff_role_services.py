"""The services that change state refuse staff whose role may not (docs/STAFF.md), and a
refusal a view does not catch is the 403 page, never a 500."""

from __future__ import annotations

import pytest

from portal.accounts import access
from portal.accounts.errors import Forbidden


class _Staff:
    is_staff = True

    def __init__(self, role: str):
        self.staff_role = role
        self.id = 1


@pytest.mark.parametrize(("roles", "allowed"), [
    (access.MANAGE, {"administrator"}),
    (access.TAKE_PAYMENTS, {"administrator", "cashier"}),
    (access.REVIEW, {"administrator", "reviewer"}),
    (access.RECORD, {"administrator", "reviewer", "cashier"}),
])
def test_each_group_admits_its_roles_only(roles, allowed):
    for role in ("administrator", "reviewer", "cashier", "read_only"):
        if role in allowed:
            access.require_staff_role(_Staff(role), *roles)
        else:
            with pytest.raises(Forbidden):
                access.require_staff_role(_Staff(role), *roles)


@pytest.mark.parametrize("call", [
    lambda s: __import__("portal.accounts.parcels", fromlist=["x"]).issue_code(None, s, 1),
    lambda s: __import__("portal.collections.mailing", fromlist=["x"]).record_mailing(
        None, s, 1, None, ""),
    lambda s: __import__("portal.accounts.ledger", fromlist=["x"]).record_cost(
        None, s, 1, 1, None, ""),
    lambda s: __import__("portal.exemptions.changes", fromlist=["x"]).acknowledge(
        None, s, 1),
])
def test_read_only_staff_change_nothing(call):
    """Refused before the database is touched (the unit of work is None here)."""
    with pytest.raises(Forbidden):
        call(_Staff("read_only"))


def test_an_uncaught_refusal_is_the_403_page(app):
    @app.get("/_t/forbidden")
    def _forbidden():  # noqa: ANN202
        raise Forbidden()

    @app.get("/_t/notfound")
    def _notfound():  # noqa: ANN202
        from portal.accounts.errors import NotFound
        raise NotFound()

    client = app.test_client()
    assert client.get("/_t/forbidden").status_code == 403
    assert client.get("/_t/notfound").status_code == 404
