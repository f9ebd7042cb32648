"""A delegate the owner allows to pay can pay: `/pagar?parcela=…` was "Página no
encontrada" for every delegate; now the owner chooses, when giving access, whether the
person may also pay, and only then the pay page opens for them."""

from __future__ import annotations

from flask import Flask

from tests.support.pages import csrf_token, login

ALLOWED, READER = "user00002@demo.pr", "user00001@demo.pr"


def _owners_parcel(app: Flask) -> int:
    from portal.accounts import access
    from portal.db import UnitOfWork
    from portal.people import users
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        return min(p.id for p, rel in access.linked_parcels(w, owner) if rel == "owner")


def _grant(owner, pid: int, email: str, may_pay: bool) -> None:  # noqa: ANN001
    page = owner.get(f"/propiedad/{pid}/acceso").get_data(as_text=True)
    data = {"csrf_token": csrf_token(page), "email": email}
    if may_pay:
        data["may_pay"] = "y"
    assert owner.post(f"/propiedad/{pid}/acceso", data=data).status_code == 303


def test_the_owner_chooses_whether_a_delegate_may_pay(demo_app: Flask):
    pid = _owners_parcel(demo_app)
    owner = login(demo_app, "owner")
    page = owner.get(f"/propiedad/{pid}/acceso").get_data(as_text=True)
    assert "También podrá pagar en línea la derrama de esta propiedad" in page
    _grant(owner, pid, ALLOWED, may_pay=True)
    _grant(owner, pid, READER, may_pay=False)
    allowed, reader = login(demo_app, ALLOWED), login(demo_app, READER)
    for client in (allowed, reader):  # both see the parcel
        assert client.get(f"/propiedad/{pid}").status_code == 200
    pay = allowed.get(f"/pagar?parcela={pid}")
    assert pay.status_code == 200
    assert reader.get(f"/pagar?parcela={pid}").status_code == 404
