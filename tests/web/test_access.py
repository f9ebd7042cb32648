"""Every route, walked as every role, leaks nothing (DESIGN.md 6).

Roles: anonymous, the owner, the lessee, a lender's user, staff, and a user linked to a
different parcel. A parcel the user may not see answers 404 (and its catastro number never
appears); anonymous users are sent to sign in; staff and lender pages are 404 for others.
A new route fails `test_every_route_is_classified` until it is classified in
tests/support/routes.py.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.support.pages import ROLES as EMAILS
from tests.support.pages import STAFF_ROLE_EMAILS, csrf_token, login
from tests.support.routes import (
    CHECKOUT,
    EXEMPTION,
    LENDER,
    PARCEL,
    PUBLIC_GET,
    PUBLIC_POST,
    SIGNED_IN,
    SIGNED_WEBHOOK,
    STAFF,
    TOKEN_API,
    TWO_FACTOR,
)

ROLES = ("anonymous", "owner", "lessee", "lender", "staff", "other")


def test_every_route_is_classified(app: Flask):
    known = PUBLIC_GET | PUBLIC_POST | SIGNED_IN | PARCEL | CHECKOUT | LENDER | STAFF \
        | EXEMPTION \
        | SIGNED_WEBHOOK | TWO_FACTOR | TOKEN_API
    endpoints = {r.endpoint for r in app.url_map.iter_rules()}
    assert endpoints - known == set(), "classify the new routes in tests/support/routes.py"


def _client(app: Flask, role: str):  # noqa: ANN202
    return app.test_client() if role == "anonymous" else login(app, role)


def _visible(app: Flask) -> dict[str, set[int]]:
    """What each role may see, read through the access policy (the dashboard and loans)."""
    from portal.accounts import access
    from portal.db import UnitOfWork
    from portal.models import Parcel
    from portal.people import users
    from portal.web.data import database
    out: dict[str, set[int]] = {"anonymous": set()}
    with app.app_context(), UnitOfWork(database()) as w:
        every = set(w.session.scalars(Parcel.__table__.select().with_only_columns(Parcel.id)))
        for role, email in EMAILS.items():
            user = users.find_by_email(w, email)
            out[role] = every if role == "staff" else {
                p.id for p, _ in access.linked_parcels(w, user)}
        catastro = dict(w.session.execute(Parcel.__table__.select().with_only_columns(
            Parcel.id, Parcel.catastro)).all())
    out["_catastro"] = catastro  # type: ignore[assignment]
    return out


@pytest.fixture
def world(demo_app: Flask):  # noqa: ANN201
    vis = _visible(demo_app)
    catastro = vis.pop("_catastro")
    featured = vis["owner"] | vis["lessee"] | set(sorted(vis["other"])[:2])
    lent_only = sorted(vis["lender"] - featured)[:1]
    probes = sorted(featured) + lent_only + [max(catastro) + 1000]  # + one that does not exist
    return demo_app, vis, catastro, probes


@pytest.mark.parametrize("role", ROLES)
def test_parcel_routes(world, role):
    app, vis, catastro, probes = world
    client = _client(app, role)
    token = csrf_token(client.get("/").get_data(as_text=True))
    for pid in probes:
        visible = pid in vis[role]
        for path, method in ((f"/propiedad/{pid}", "get"),
                             (f"/propiedad/{pid}/estado-de-cuenta.pdf", "get"),
                             (f"/propiedad/{pid}/acceso", "post"),
                             (f"/propiedad/{pid}/acceso/999999/quitar", "post"),
                             (f"/propiedad/{pid}/pagos", "get"),
                             (f"/propiedad/{pid}/acceso", "get"),
                             (f"/propiedad/{pid}/exoneracion", "get"),
                             (f"/propiedad/{pid}/certificados", "post"),
                             (f"/propiedad/{pid}/cambio", "post"),
                             (f"/pagar?parcela={pid}", "get")):
            if method == "get":
                r = client.get(path)
            else:
                r = client.post(path, data={"csrf_token": token, "email": "x@example.com"})
            body = r.get_data(as_text=True) if r.mimetype == "text/html" else ""
            if role == "anonymous":
                assert r.status_code == 302 and "/cuenta/entrar" in r.headers["Location"], path
            elif not visible:
                assert r.status_code == 404, (role, path, r.status_code)
                if pid in catastro:
                    assert catastro[pid] not in body, (role, path)
            elif method == "get" and not path.startswith("/pagar") \
                    and not path.endswith("/acceso"):
                # (paying is for payers and managing access for managers: staff and lenders
                # see the account, may not pay it; a lender may not grant access)
                assert r.status_code == 200, (role, path, r.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_dashboard_shows_only_ones_own(world, role):
    app, vis, catastro, _probes = world
    client = _client(app, role)
    r = client.get("/mis-propiedades")
    if role == "anonymous":
        assert r.status_code == 302
        return
    html = r.get_data(as_text=True)
    shown = {int(x) for x in re.findall(r'href="/propiedad/(\d+)"', html)}
    if role != "staff":
        assert shown == vis[role]
    for pid, number in catastro.items():
        if pid not in shown and pid not in vis[role]:
            assert number not in html


@pytest.mark.parametrize("role", ROLES)
def test_role_pages(world, role):
    app, _vis, _catastro, _probes = world
    client = _client(app, role)
    expect = {
        "/prestamista/prestamos": 200 if role == "lender" else 404,
        "/prestamista/prestamos.csv": 200 if role == "lender" else 404,
        "/prestamista/organizacion": 200 if role == "lender" else 404,
        "/prestamista/certificaciones/lote": 200 if role == "lender" else 404,
        "/prestamista/certificaciones/lote/guia": 200 if role == "lender" else 404,
        "/prestamista/certificaciones/una": 200 if role == "lender" else 404,
        "/prestamista/certificaciones/lote/plantilla.csv": 200 if role == "lender" else 404,
        "/prestamista/certificaciones/lote/999999": 404,
        "/prestamista/certificaciones/lote/999999/informe.csv": 404,
        "/prestamista/certificaciones/lote/999999/fallidas.csv": 404,
        "/prestamista/prestamos/999999": 404,
        "/prestamista/invitacion/no-such-invitation": 404,
        "/personal/buscar": 200 if role == "staff" else 404,
        "/personal/buscar?q=demo.pr": 200 if role == "staff" else 404,
        "/personal/persona/1": 200 if role == "staff" else 404,
        "/personal/persona/999999": 404,
        "/personal/tasacion": 200 if role == "staff" else 404,
        "/personal/cobros": 200 if role == "staff" else 404,
        "/personal/cobros/tribunal": 200 if role == "staff" else 404,
        "/personal/cobros/999999": 404,
        "/personal/embargos": 200 if role == "staff" else 404,
        "/personal/embargos/propiedad/999999": 404,
        "/cobros/requerimiento/999999.pdf": 404,
        "/personal/trabajos/999999": 404,
        "/personal/exoneraciones": 200 if role == "staff" else 404,
        "/personal/exoneraciones/999999": 404,
        "/personal/cooperativas": 200 if role == "staff" else 404,
        "/personal/cooperativas/999999": 404,
        "/prestamista/exoneraciones": 200 if role == "lender" else 404,
        "/exoneracion/999999/recibo": 404,
        "/exoneracion/999999/evidencia/1": 404,
        "/personal/padron": 200 if role == "staff" else 404,
        "/personal/padron/guia": 200 if role == "staff" else 404,
        "/personal/padron/plantilla.csv": 200 if role == "staff" else 404,
        "/personal/padron/999999": 404,
        "/personal/padron/999999/nuevas": 404,
        "/personal/padron/999999/informe.csv": 404,
        "/personal/cambios": 200 if role == "staff" else 404,
        "/prestamista/cambios": 200 if role == "lender" else 404,
        "/cambios/999999": 404,
        "/pagos/999999/recibo": 404,
        "/pagos/999999/recibo.pdf": 404,
        "/pagos/999999/exito": 404,
        "/pagos/999999/cancelado": 404,
        "/pagos/pago/999999/recibo": 404,
        "/pagos/pago/999999/recibo.pdf": 404,
        "/arrendamientos/": 200,
        "/propiedad/reclamar": 200,
    }
    for pid in sorted(_vis["lessee"])[:1]:
        expect[f"/personal/pagos/oficina/{pid}"] = 200 if role == "staff" else 404
        expect[f"/personal/pagos/reembolso/{pid}"] = 200 if role == "staff" else 404
    for path, code in expect.items():
        r = client.get(path)
        if role == "anonymous":
            assert r.status_code == 302, path
        else:
            assert r.status_code == code, (role, path, r.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_receipts_of_others_parcels_are_404(world, role):
    """Receipts of payments on a parcel the role may not see answer 404 (never leak)."""
    from portal.accounts import access
    from portal.db import UnitOfWork
    from portal.people import users
    from portal.web.data import database
    app, vis, catastro, _probes = world
    with app.app_context(), UnitOfWork(database()) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        paid = [(p.id, pid) for pid in sorted(vis["owner"])
                for p in access.visible_payments(w, owner, pid)][:6]
    assert paid, "the demo owner has payments"
    client = _client(app, role)
    for payment_id, pid in paid:
        for path in (f"/pagos/pago/{payment_id}/recibo", f"/pagos/pago/{payment_id}/recibo.pdf"):
            r = client.get(path)
            if role == "anonymous":
                assert r.status_code == 302, path
            elif pid not in vis[role]:
                assert r.status_code == 404, (role, path, r.status_code)
                assert catastro[pid] not in r.get_data(as_text=True)


def test_lessee_cannot_grant_or_revoke_owner_access(world):
    app, vis, _catastro, _probes = world
    [leased] = vis["lessee"]
    owner_parcel = sorted(vis["owner"])[0]
    other = login(app, "other")
    token = csrf_token(other.get("/").get_data(as_text=True))
    r = other.post(f"/propiedad/{owner_parcel}/acceso",
                   data={"csrf_token": token, "email": "other@example.com"})
    assert r.status_code == 404
    del leased


def test_delegate_sees_but_cannot_manage(world):
    app, vis, _catastro, _probes = world
    pid = sorted(vis["owner"])[0]
    owner = login(app, "owner")
    page = owner.get(f"/propiedad/{pid}").get_data(as_text=True)
    owner.post(f"/propiedad/{pid}/acceso", data={"csrf_token": csrf_token(page),
                                                 "email": "user00001@demo.pr"})
    delegate = login(app, "other")
    html = delegate.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert "Quién más puede ver esta propiedad" not in html
    assert delegate.get(f"/propiedad/{pid}/acceso").status_code == 404
    page = owner.get(f"/propiedad/{pid}/acceso").get_data(as_text=True)
    emails = re.findall(r'<input type="hidden" name="email" value="([^"]+)"', page)
    assert "user00001@demo.pr" in emails
    token = csrf_token(html)
    for email in emails:
        r = delegate.post(f"/propiedad/{pid}/acceso/quitar",
                          data={"csrf_token": token, "email": email})
        assert r.status_code == 404
    for link_id in range(1, 40):  # the links by id, too
        r = delegate.post(f"/propiedad/{pid}/acceso/{link_id}/quitar",
                          data={"csrf_token": token})
        assert r.status_code == 404
    r = delegate.post(f"/propiedad/{pid}/acceso", data={"csrf_token": token,
                                                        "email": "lessee@demo.pr"})
    assert r.status_code == 404


@pytest.mark.parametrize("role", ["owner", "staff"])
def test_ids_out_of_range_are_404(world, role):
    app, _vis, _catastro, _probes = world
    client = _client(app, role)
    huge = "99999999999999999999"
    for path in (f"/propiedad/{huge}", f"/propiedad/{huge}/estado-de-cuenta.pdf",
                 f"/propiedad/{huge}/acceso", f"/personal/persona/{huge}", "/propiedad/0",
                 f"/propiedad/{2**31}", f"/pagos/{huge}/recibo"):
        assert client.get(path).status_code == 404, path


# --- Staff roles (docs/STAFF.md): every STAFF route walked as each role ---------------------

#: The staff routes that change something and the roles that may use them; any other staff
#: role is refused and nothing changes: 403 from the route's `staff_role` or the write
#: policy's door (`STAFF_WRITES`).
STAFF_CHANGES = {
    "roll.compute_roll": {"administrator"}, "roll.publish_roll": {"administrator"},
    "people.reset_two_factor": {"administrator"}, "people.set_role": {"administrator"},
    "roll.budget_new": {"administrator"}, "roll.budget_edit": {"administrator"},
    "roll.budget_adopt": {"administrator"}, "roll.budget_amend": {"administrator"},
    "roll.budget_discard": {"administrator"}, "roll.budget_adoption_date": {"administrator"},
    "roll.send_roll_notices": {"administrator"},
    "roll.parameter_edit": {"administrator"},
    "payments.office": {"administrator", "cashier"},
    "payments.refund": {"administrator", "cashier"},
}
#: Routes whose service alone refuses the other roles (404). None now: the write policy
#: (portal/web/staff_access.py `STAFF_WRITES`) answers 403 before any form is read.
REFUSED_BY_THE_SERVICE: set[str] = set()
#: Pages that are only a form for one of those changes: 403 to the roles that may not.
STAFF_FORM_PAGES = {"roll.budget_new", "roll.budget_edit", "roll.budget_adopt",
                    "roll.parameter_edit"}


def _staff_ids(app: Flask) -> dict[str, int]:
    from sqlalchemy import func, select

    from portal.db import UnitOfWork
    from portal.models import AssessmentRoll, BudgetVersion, Job, User
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        s = w.session
        return {"version_id": s.scalar(select(func.min(BudgetVersion.id))),
                "roll_id": s.scalar(select(func.min(AssessmentRoll.id))),
                "job_id": s.scalar(select(func.min(Job.id))) or 1,
                "owner": s.scalar(select(User.id).where(User.email == "owner@demo.pr")),
                "reviewer": s.scalar(select(User.id).where(User.email == "reviewer@demo.pr"))}


def _staff_gets(app: Flask) -> dict[str, str]:
    """{endpoint: a path} for every STAFF route answering GET, with real ids in it."""
    ids = _staff_ids(app)
    pid = sorted(_visible(app)["lessee"])[0]
    out = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint not in STAFF or "GET" not in (rule.methods or ()):
            continue
        path = rule.rule.replace("<id:parcel_id>", str(pid))
        path = path.replace("<id:user_id>", str(ids["owner"]))
        path = path.replace("<fy>", "2026-2027").replace("<name>", "interest_rate")
        for name in ("version_id", "roll_id", "job_id"):
            path = path.replace(f"<id:{name}>", str(ids[name]))
        out[rule.endpoint] = re.sub(r"<id:[a-z_]+>", "1", path)
    return out


def _changed(app: Flask) -> tuple[int, ...]:
    """Counts that any state change moves: audit records, ledger entries, versions, jobs."""
    from sqlalchemy import func, select

    from portal.db import UnitOfWork
    from portal.models import AuditRecord, BudgetVersion, Job, LedgerEntry, User
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        s = w.session
        return (*(s.scalar(select(func.count()).select_from(m))
                  for m in (AuditRecord, LedgerEntry, BudgetVersion, Job)),
                s.scalar(select(func.count()).select_from(User).where(
                    User.staff_role == "administrator")))


@pytest.mark.parametrize("role", sorted(STAFF_ROLE_EMAILS))
def test_every_staff_page_opens_for_every_staff_role(demo_app, role):
    """Every staff role sees every staff page the administrator sees (read-only included),
    but the pages that are only a form for an administrator's change (403)."""
    gets = _staff_gets(demo_app)
    admin = login(demo_app, STAFF_ROLE_EMAILS["administrator"])
    client = login(demo_app, STAFF_ROLE_EMAILS[role])
    for endpoint, path in sorted(gets.items()):
        expected = admin.get(path).status_code
        r = client.get(path)
        if endpoint in STAFF_FORM_PAGES and role not in STAFF_CHANGES[endpoint]:
            assert r.status_code == 403, (role, path, r.status_code)
        else:
            assert r.status_code == expected, (role, path, r.status_code, expected)


@pytest.mark.parametrize("role", ["reviewer", "cashier", "read_only"])
def test_staff_changes_refuse_the_roles_that_may_not(demo_app, role):
    """Each state-changing staff route, posted as a role that may not use it with a form
    that would otherwise be accepted: refused, and nothing changes."""
    from portal.db import UnitOfWork
    from portal.people import users
    from portal.roll import budgets
    from portal.web.data import database
    ids = _staff_ids(demo_app)
    with demo_app.app_context(), UnitOfWork(database()) as w:  # a draft to discard
        ids["draft_id"] = budgets.amend(w, users.find_by_email(w, "staff@demo.pr"),
                                        ids["version_id"]).id
    pid = sorted(_visible(demo_app)["lessee"])[0]
    client = login(demo_app, STAFF_ROLE_EMAILS[role])
    office = client.get(f"/personal/pagos/oficina/{pid}").get_data(as_text=True)
    token = csrf_token(office)
    account = re.search(r'<option value="([^"]+)"', office)
    line = {"lines-0-kind": "project", "lines-0-description_es": "Paseo",
            "lines-0-description_en": "Promenade", "lines-0-amount": "$1,000.00",
            "lines-0-financed": "800", "fiscal_year": "2027", "save": "y"}
    posts = {
        "roll.compute_roll": (f"/personal/tasacion/version/{ids['version_id']}/calcular", {}),
        "roll.publish_roll": (f"/personal/tasacion/{ids['roll_id']}/publicar", {}),
        "people.reset_two_factor": (f"/personal/persona/{ids['owner']}/dos-pasos/restablecer",
                                   {"reason": "En persona", "checked": "y"}),
        "people.set_role": (f"/personal/persona/{ids['reviewer']}/funcion",
                           {"role": "administrator"}),
        "roll.budget_new": ("/personal/presupuestos/nuevo", line),
        "roll.budget_edit": (f"/personal/presupuestos/version/{ids['version_id']}/editar",
                              line),
        "roll.budget_adopt": (f"/personal/presupuestos/version/{ids['version_id']}/adoptar",
                               {"adopted_on": "2026-12-01", "confirm": "y", "late": "y"}),
        "roll.budget_amend": (f"/personal/presupuestos/version/{ids['version_id']}/enmendar",
                               {}),
        "roll.budget_discard": (f"/personal/presupuestos/version/{ids['draft_id']}/descartar",
                                 {}),
        "roll.budget_adoption_date": (
            f"/personal/presupuestos/version/{ids['version_id']}/fecha",
            {"adopted_on": "2026-05-01"}),
        "roll.send_roll_notices": (f"/personal/tasacion/{ids['roll_id']}/avisos/enviar", {}),
        "roll.parameter_edit": ("/personal/parametros/2026-2027/interest_rate",
                                 {"value": "0.07", "effective_on": "2026-11-30",
                                  "resolution_number": "1", "resolution_date": "2026-11-30"}),
        "payments.office": (f"/personal/pagos/oficina/{pid}",
                            {"account": account.group(1) if account else "", "amount": "1.00",
                             "method": "cash", "payer_name": "Ana"}),
        "payments.refund": (f"/personal/pagos/reembolso/{pid}", {"amount": "1.00"}),
    }
    assert set(posts) == set(STAFF_CHANGES)
    before = _changed(demo_app)
    for endpoint, (path, data) in posts.items():
        if role in STAFF_CHANGES[endpoint]:
            continue
        r = client.post(path, data={"csrf_token": token, **data})
        expected = 404 if endpoint in REFUSED_BY_THE_SERVICE else 403
        assert r.status_code == expected, (role, endpoint, r.status_code)
        assert _changed(demo_app) == before, (role, endpoint)
    if role == "cashier":  # the office is the cashier's: the same form is accepted
        path, data = posts["payments.office"]
        r = client.post(path, data={"csrf_token": token, **data})
        assert r.status_code == 303, r.get_data(as_text=True)[:500]
        assert _changed(demo_app) != before


@pytest.mark.parametrize("role", ["owner", "lessee", "lender", "other"])
def test_budget_and_role_pages_are_404_for_non_staff(world, role):
    app = world[0]
    client = login(app, role)
    token = csrf_token(client.get("/").get_data(as_text=True))
    gets = _staff_gets(app)
    for endpoint in ("roll.budgets_page", "roll.budget_new", "roll.budget_version",
                     "roll.budget_edit", "roll.budget_adopt", "roll.budget_compare",
                     "roll.parameters_page", "roll.parameter_edit"):
        assert client.get(gets[endpoint]).status_code == 404, endpoint
    ids = _staff_ids(app)
    for path in (f"/personal/presupuestos/version/{ids['version_id']}/enmendar",
                 f"/personal/presupuestos/version/{ids['version_id']}/descartar",
                 f"/personal/persona/{ids['owner']}/funcion", "/personal/presupuestos/nuevo",
                 "/personal/parametros/2026-2027/interest_rate",
                 "/personal/parametros/2026-2027/closed_day"):
        assert client.post(path, data={"csrf_token": token, "role": "administrator"}
                           ).status_code == 404, path
