"""Odd input on the staff's budget and role forms (tests/web/test_hostile_input.py's probe):
never a 500; an odd amount is refused and changes no budget; odd ids and queries are 404 or
ignored; the CSRF token is checked."""

from __future__ import annotations

import hashlib
from decimal import Decimal, InvalidOperation

from flask import Flask
from sqlalchemy import select

from portal.db import UnitOfWork
from portal.models import BudgetFixedAmount, BudgetLine, BudgetVersion, User
from portal.web.data import database
from tests.support.hostile import AMOUNTS, IDS, LEGIT_AMOUNTS, VALUES, ErrorLog, Probe


def _budgets(app: Flask) -> str:
    """A hash of every budget version, line and fixed amount."""
    h = hashlib.sha256()
    with app.app_context(), UnitOfWork(database()) as w:
        for model in (BudgetVersion, BudgetLine, BudgetFixedAmount):
            for row in w.session.execute(select(model.__table__).order_by(model.id)):
                h.update(repr(tuple(row)).encode())
    return h.hexdigest()


def _zero(value: str) -> bool:
    try:
        return Decimal(value.strip()) == 0
    except (InvalidOperation, ValueError):
        return False


def test_budget_and_role_forms_take_odd_input(demo_app: Flask, error_log: ErrorLog):  # noqa: F811
    p = Probe(demo_app, "staff", error_log)
    with demo_app.app_context(), UnitOfWork(database()) as w:
        v1 = w.session.scalar(select(BudgetVersion.id).order_by(BudgetVersion.id))
        reviewer = w.session.scalar(select(User.id).where(User.email == "reviewer@demo.pr"))
    r = p.post(f"/personal/presupuestos/version/{v1}/enmendar", {"csrf_token": p.token})
    v2 = int(r.headers["Location"].split("/")[-2])
    edit = f"/personal/presupuestos/version/{v2}/editar"
    line = {"lines-0-kind": "project", "lines-0-description_es": "Paseo",
            "lines-0-description_en": "Promenade", "lines-0-amount": "1000",
            "lines-0-financed": "0", "save": "y"}
    before = _budgets(demo_app)
    # odd amounts: refused (400), no budget changed; a zero or a legit spelling is a line
    legit = LEGIT_AMOUNTS | {v for v in AMOUNTS if _zero(v)}
    p.form(edit, line, [v for v in AMOUNTS if v not in legit], fields=["lines-0-amount"],
           refused=lambda r: r.status_code == 400)
    p.form(edit, {**line, "lines-0-amount": "0"}, [v for v in AMOUNTS if v not in legit],
           fields=["lines-0-financed"], refused=lambda r: r.status_code == 400)
    p.form(edit, {**line, "fixed-0-catastro": "040-000-000-01", "fixed-0-amount": "1"},
           [v for v in AMOUNTS if v not in legit], fields=["fixed-0-amount"],
           refused=lambda r: r.status_code == 400)
    p.expect(_budgets(demo_app) == before, "an odd amount changed a budget")
    # odd kinds, descriptions, references, catastro numbers, rows: never a 500
    p.form(edit, line, VALUES, fields=["lines-0-kind", "lines-0-description_es",
                                       "lines-0-description_en"])
    p.form(edit, {**line, "reference": ""}, VALUES, fields=["reference"])
    p.form(edit, {**line, "fixed-0-catastro": "x", "fixed-0-amount": "1",
                  "fixed-0-reason": ""}, VALUES,
           fields=["fixed-0-catastro", "fixed-0-reason"])
    for k in ("-1", "999999", "99999999999999999999", "x", "\x00"):
        p.post(edit, {"csrf_token": p.token, **line, f"lines-{k}-amount": "5"}, f"row {k}")
    p.post(edit, {"csrf_token": p.token, **{f"lines-{k}-amount": "1" for k in range(500)}},
           "500 rows")
    p.csrf(edit, line)
    new = "/personal/presupuestos/nuevo"
    p.form(new, {**line, "fiscal_year": "2027", "lines-0-amount": "x"}, VALUES,
           fields=["fiscal_year"])
    adopt = f"/personal/presupuestos/version/{v2}/adoptar"
    p.form(adopt, {"adopted_on": "x", "confirm": "y", "late": "y"}, VALUES,
           fields=["adopted_on", "late"])
    p.form(adopt, {"adopted_on": "2026-05-01", "confirm": "y"}, VALUES, fields=["confirm"])
    for odd in ("0001-01-01", "9999-12-31", "2026-02-30", "2026-11-30T00:00", "20261130"):
        p.post(adopt, {"csrf_token": p.token, "adopted_on": odd}, odd)  # (no confirm)
    p.csrf(adopt, {"adopted_on": "2026-11-30", "confirm": "y"})
    for value in VALUES:
        p.get(f"/personal/presupuestos/version/{v2}/comparar", query_string={"con": value})
    for odd in IDS:
        for path in ("/personal/presupuestos/version/{}", "/personal/presupuestos/version/{}"
                     "/editar", "/personal/presupuestos/version/{}/comparar"):
            r = p.get(path.format(odd))
            expected = 400 if odd == "%00" else 404  # (a NUL byte is a 400 before any view)
            p.expect(r.status_code == expected, f"GET {path.format(odd)} -> {r.status_code}")
        p.post(f"/personal/presupuestos/version/{odd}/enmendar", {"csrf_token": p.token})
        p.post(f"/personal/presupuestos/version/{odd}/descartar", {"csrf_token": p.token})
        p.post(f"/personal/persona/{odd}/funcion", {"csrf_token": p.token, "role": "cashier"})
    role = f"/personal/persona/{reviewer}/funcion"
    p.form(role, {"role": "reviewer"}, VALUES, fields=["role"])
    p.csrf(role, {"role": "cashier"})
    with demo_app.app_context(), UnitOfWork(database()) as w:
        p.expect(w.session.scalar(select(User.staff_role).where(User.id == reviewer))
                 == "reviewer", "an odd role was kept")
    p.unchanged("(budgets and roles: no person, link, payment or ledger entry)")
    p.report()
