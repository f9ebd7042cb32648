"""The staff's budget pages (R-A1, R-A3; docs/STAFF.md): draft a year's budget with money as
people write it, bad input answered in the reader's language with nothing saved and what was
typed kept, "Add a line" without JavaScript, adopt (a warning once the year has begun), amend
the demo's adopted budget and compare the two versions; roles: the person page's role form,
and read-only staff see no button that changes anything. The demo's today: 2026-11-30."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from html import unescape

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal.db import UnitOfWork
from portal.models import AuditRecord, BudgetFixedAmount, BudgetLine, BudgetVersion, User
from portal.web.data import database
from tests.support.clock import fixed_on
from tests.support.pages import csrf_token, login


def _count(app: Flask, model, *where) -> int:  # noqa: ANN001
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(model).where(*where))


def _one(app: Flask, stmt):  # noqa: ANN001, ANN202
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.execute(stmt).first()


def _demo_version(app: Flask) -> int:
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.min(BudgetVersion.id)))


def _lines(**rows) -> dict[str, str]:  # noqa: ANN003
    """Form fields for rows given as lines-<k>=(kind, es, en, cost, financed)."""
    out = {}
    for key, (kind, es, en, amount, financed) in rows.items():
        k = key.split("_")[1]
        out.update({f"lines-{k}-kind": kind, f"lines-{k}-description_es": es,
                    f"lines-{k}-description_en": en, f"lines-{k}-amount": amount,
                    f"lines-{k}-financed": financed})
    return out


GOOD = _lines(line_0=("project", "Paseo tablado", "Boardwalk", "$1,250,000.00", "1,000,000"),
              line_1=("operation", "Seguridad", "Security", "300000.5", "$300,000.50"))


def test_draft_a_budget_with_money_as_people_write_it(demo_app):
    staff = login(demo_app, "staff")
    page = staff.get("/personal/presupuestos/nuevo").get_data(as_text=True)
    # one row per item of R-A1, the fiscal years without a budget to choose from
    kinds = re.findall(r'<option selected value="([a-z]+)">', page)
    assert kinds == ["project", "maintenance", "marketing", "operation", "center"]
    assert '<option selected value="2027">2027-2028</option>' in page
    assert "2026-2027</option>" not in page  # already budgeted: amended, not drafted again
    before = _count(demo_app, BudgetVersion)
    r = staff.post("/personal/presupuestos/nuevo", data={
        "csrf_token": csrf_token(page), "fiscal_year": "2027", "reference": "Res. 2027-3",
        "fixed-0-catastro": "", "save": "y", **GOOD})
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    assert _count(demo_app, BudgetVersion) == before + 1
    vid = int(r.headers["Location"].rsplit("/", 1)[1])
    rows = _one(demo_app, select(func.sum(BudgetLine.amount), func.sum(
        BudgetLine.financed_by_assessments)).where(BudgetLine.version_id == vid))
    assert tuple(rows) == (Decimal("1550000.50"), Decimal("1300000.50"))
    html = staff.get(r.headers["Location"]).get_data(as_text=True)
    assert "Presupuesto 2027-2028, versión 1" in html
    assert "$1,300,000.50" in html and "$1,550,000.50" in html  # total to assess, total cost
    assert "borrador" in html


@pytest.mark.parametrize("lang, words", [
    ("es", ["Escriba los centavos después de un punto", "no puede ser mayor que el costo",
            "Escriba qué es la partida, en inglés", "Ninguna propiedad tiene este número"]),
    ("en", ["Write the cents after a period", "cannot be more than the line&#39;s cost",
            "Write what the line is, in English", "No parcel has this catastro number"]),
])
def test_bad_input_is_explained_in_the_readers_language_and_nothing_is_saved(demo_app, lang,
                                                                              words):
    staff = login(demo_app, "staff")
    page = staff.get(f"/personal/presupuestos/nuevo?lang={lang}").get_data(as_text=True)
    bad = _lines(line_0=("project", "Paseo", "Promenade", "1.250.000,00", "10"),
                 line_1=("operation", "Seguridad", "Security", "100", "200"),
                 line_2=("center", "Centro", "", "5", "5"))
    path = f"/personal/presupuestos/nuevo?lang={lang}"
    r = staff.post(path, data={
        "csrf_token": csrf_token(page), "fiscal_year": "2027", "save": "y", **bad})
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    for w in words[:3]:
        assert w in html, w
    assert 'value="1.250.000,00"' in html  # what was typed stays
    assert html.count('aria-invalid="true"') == 3
    assert "<title>Error:" in html
    before = _count(demo_app, BudgetVersion)
    r = staff.post(path, data={
        "csrf_token": csrf_token(page), "fiscal_year": "2027", "save": "y", **GOOD,
        "fixed-0-catastro": "999-999-999-99", "fixed-0-amount": "10"})
    assert r.status_code == 400 and words[3] in r.get_data(as_text=True)
    for value in ("1e30", "999999999999999", "-5", "NaN", "12.345", "٣"):
        data = {**GOOD, "lines-0-amount": value}
        r = staff.post("/personal/presupuestos/nuevo", data={
            "csrf_token": csrf_token(page), "fiscal_year": "2027", "save": "y", **data})
        assert r.status_code == 400, value
    assert _count(demo_app, BudgetVersion) == before


def test_add_a_line_without_javascript_saves_nothing(demo_app):
    staff = login(demo_app, "staff")
    page = staff.get("/personal/presupuestos/nuevo").get_data(as_text=True)
    rows = len(re.findall(r'name="lines-\d+-amount"', page))
    kinds = {f"lines-{k}-kind": "center" for k in range(rows)}  # every row, as a browser
    before = _count(demo_app, BudgetVersion)
    r = staff.post("/personal/presupuestos/nuevo", data={
        "csrf_token": csrf_token(page), "fiscal_year": "2027", "add_line": "y", **kinds,
        **GOOD})
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert len(re.findall(r'name="lines-\d+-amount"', html)) == rows + 1
    assert 'value="Paseo tablado"' in html
    assert _count(demo_app, BudgetVersion) == before


def test_amend_edit_adopt_and_compare(demo_app):
    """The demo's adopted budget amended: a new draft copied from it (the adopted one stays
    as it was), one line raised and one added, adopted, then the two side by side."""
    staff = login(demo_app, "staff", )
    v1 = _demo_version(demo_app)
    page = staff.get(f"/personal/presupuestos/version/{v1}").get_data(as_text=True)
    assert "Enmendar: comenzar una versión nueva" in page
    lines_v1 = _count(demo_app, BudgetLine, BudgetLine.version_id == v1)
    r = staff.post(f"/personal/presupuestos/version/{v1}/enmendar",
                   data={"csrf_token": csrf_token(page)})
    assert r.status_code == 303 and r.headers["Location"].endswith("/editar")
    v2 = int(r.headers["Location"].split("/")[-2])
    edit = staff.get(r.headers["Location"]).get_data(as_text=True)
    assert 'value="1,200,000.00"' in edit  # the copied lines, as the form shows money
    fields = dict(re.findall(r'name="(lines-\d+-[a-z_]+)"[^>]*value="([^"]*)"', edit))
    fields = {k: unescape(v) for k, v in fields.items() if not k.endswith("kind")}
    for k, kind in enumerate(re.findall(r'<option selected value="([a-z]+)">', edit)):
        fields[f"lines-{k}-kind"] = kind
    fields["lines-0-amount"] = "1,300,000.00"
    fields["lines-0-financed"] = "1,000,000.00"
    fields.update({"lines-5-kind": "project", "lines-5-description_es": "Muelle",
                   "lines-5-description_en": "Pier", "lines-5-amount": "50,000",
                   "lines-5-financed": "25,000"})
    r = staff.post(r.headers["Location"], data={"csrf_token": csrf_token(edit), "save": "y",
                                                 "reference": "Res. 2026-40", **fields})
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    adopt = staff.get(f"/personal/presupuestos/version/{v2}/adoptar").get_data(as_text=True)
    assert "El año fiscal ya comenzó" not in adopt  # an amendment is adopted mid-year
    r = staff.post(f"/personal/presupuestos/version/{v2}/adoptar", data={
        "csrf_token": csrf_token(adopt), "adopted_on": "2026-11-30", "confirm": "y"})
    assert r.status_code == 303
    assert _one(demo_app, select(BudgetVersion.status).where(BudgetVersion.id == v2))[0] \
        == "adopted"
    assert _count(demo_app, BudgetLine, BudgetLine.version_id == v1) == lines_v1
    html = staff.get(f"/personal/presupuestos/version/{v2}/comparar?lang=en"
                     ).get_data(as_text=True)
    assert "Budget 2026-2027: version 1 and version 2" in html
    row = html[html.index("Improvements to the District&#39;s pedestrian"):]
    row = row[:row.index("</tr>")]
    assert re.findall(r"[+−-]?\$[\d,]+\.\d\d", row) == [
        "$1,200,000.00", "$1,300,000.00", "+$100,000.00",
        "$900,000.00", "$1,000,000.00", "+$100,000.00"]
    assert "Pier" in html and "added" in html
    totals = html[html.index("Total to assess</th>"):]
    assert re.findall(r"[+−-]?\$[\d,]+\.\d\d", totals[:totals.index("</tr>")]) == [
        "$2,400,000.00", "$2,525,000.00", "+$125,000.00"]
    # an adopted version is never edited: its edit page says so and nothing changes
    r = staff.get(f"/personal/presupuestos/version/{v1}/editar?lang=en")
    assert "never edited" in r.get_data(as_text=True)


def test_adopting_after_the_year_began_warns_and_needs_the_second_confirmation(demo_app):
    staff = login(demo_app, "staff")
    page = staff.get("/personal/presupuestos/nuevo").get_data(as_text=True)
    r = staff.post("/personal/presupuestos/nuevo", data={
        "csrf_token": csrf_token(page), "fiscal_year": "2027", "save": "y", **GOOD,
        "fixed-0-catastro": _one(demo_app, select(func.min(BudgetFixedAmount.id)))[0] or "",
        "fixed-0-amount": ""})
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    vid = int(r.headers["Location"].rsplit("/", 1)[1])
    adopt = staff.get(f"/personal/presupuestos/version/{vid}/adoptar").get_data(as_text=True)
    assert "El año fiscal ya comenzó" not in adopt  # today, 2026-11-30, is before 2027-07-01
    with fixed_on(date(2027, 7, 3)):  # the year began: a date then past can be recorded late
        staff = login(demo_app, "staff")
        adopt = staff.get(f"/personal/presupuestos/version/{vid}/adoptar").get_data(
            as_text=True)
        late = {"csrf_token": csrf_token(adopt), "adopted_on": "2027-07-02", "confirm": "y"}
        r = staff.post(f"/personal/presupuestos/version/{vid}/adoptar", data=late)
        html = r.get_data(as_text=True)
        assert r.status_code == 400 and "El año fiscal ya comenzó" in html
        assert "1 de julio de 2027" in html
        assert _one(demo_app, select(BudgetVersion.status).where(BudgetVersion.id == vid))[0] \
            == "draft"
        r = staff.post(f"/personal/presupuestos/version/{vid}/adoptar",
                       data={**late, "late": "y"})
        assert r.status_code == 303
    rec = _one(demo_app, select(AuditRecord.after).where(
        AuditRecord.action == "budget.adopted", AuditRecord.object_id == str(vid)))[0]
    assert rec["late"] is True and rec["adopted_on"] == "2027-07-02"
    r = staff.post(f"/personal/presupuestos/version/{vid}/adoptar",
                   data={"csrf_token": csrf_token(adopt), "adopted_on": "2027-13-01",
                         "confirm": "y"})
    assert r.status_code == 200  # adopted now: the version's page says so, nothing changes


def test_adoption_form_errors(demo_app):
    staff = login(demo_app, "staff")
    v1 = _demo_version(demo_app)
    page = staff.get(f"/personal/presupuestos/version/{v1}").get_data(as_text=True)
    r = staff.post(f"/personal/presupuestos/version/{v1}/enmendar",
                   data={"csrf_token": csrf_token(page)})
    v2 = int(r.headers["Location"].split("/")[-2])
    adopt = staff.get(f"/personal/presupuestos/version/{v2}/adoptar?lang=en"
                      ).get_data(as_text=True)
    for data, text in (({"adopted_on": "30/11/2026", "confirm": "y"}, "11/30/2026 (month, day"),
                       ({"adopted_on": " ", "confirm": "y"}, "Write the date the Board"),
                       ({"adopted_on": "2026-11-30"}, "Confirm that you checked"),
                       ({"adopted_on": "2026-05-01", "confirm": "y"},
                        "cannot be dated before the version it amends")):
        r = staff.post(f"/personal/presupuestos/version/{v2}/adoptar?lang=en",
                       data={"csrf_token": csrf_token(adopt), **data})
        assert r.status_code == 400 and text in r.get_data(as_text=True), text
    assert _one(demo_app, select(BudgetVersion.status).where(BudgetVersion.id == v2))[0] \
        == "draft"


def test_an_administrator_sets_a_staff_members_role(demo_app):
    staff = login(demo_app, "staff")
    with demo_app.app_context(), UnitOfWork(database()) as w:
        ids = dict(w.session.execute(select(User.email, User.id)).all())
    page = staff.get(f"/personal/persona/{ids['reviewer@demo.pr']}").get_data(as_text=True)
    assert "Función en el personal" in page and 'value="reviewer"' in page
    r = staff.post(f"/personal/persona/{ids['reviewer@demo.pr']}/funcion",
                   data={"csrf_token": csrf_token(page), "role": "cashier"})
    assert r.status_code == 303
    assert _one(demo_app, select(User.staff_role).where(
        User.email == "reviewer@demo.pr"))[0] == "cashier"
    rec = _one(demo_app, select(AuditRecord.before, AuditRecord.after).where(
        AuditRecord.action == "staff.role_set"))
    assert rec == ({"staff_role": "reviewer"}, {"staff_role": "cashier"})
    # not one's own administrator role (no lock-out), nor a role that is not one
    own = f"/personal/persona/{ids['staff@demo.pr']}/funcion"
    for role, text in (("read_only", "No puede quitarse su propia función"),
                       ("boss", "Escoja una función")):
        r = staff.post(own, data={"csrf_token": csrf_token(page), "role": role})
        assert r.status_code == 400 and text in r.get_data(as_text=True), role
        assert "<title>Error:" in r.get_data(as_text=True)
    assert _one(demo_app, select(User.staff_role).where(
        User.email == "staff@demo.pr"))[0] == "administrator"
    # someone who is not staff has no role to set
    r = staff.post(f"/personal/persona/{ids['owner@demo.pr']}/funcion",
                   data={"csrf_token": csrf_token(page), "role": "cashier"})
    assert r.status_code == 404


def test_read_only_staff_see_the_pages_without_their_buttons(demo_app):
    client = login(demo_app, "readonly@demo.pr")
    v1 = _demo_version(demo_app)
    for path in ("/personal/presupuestos", f"/personal/presupuestos/version/{v1}",
                 "/personal/tasacion", "/personal/persona/1"):
        html = client.get(path).get_data(as_text=True)
        assert 'method="post"' not in html.split("</header>", 1)[-1].replace(
            'action="/idioma"', ""), path
    html = client.get(f"/personal/presupuestos/version/{v1}").get_data(as_text=True)
    assert "$2,400,000.00" in html  # the demo's total to assess, seen
    assert "Enmendar" not in html and "Redactar" not in html


def test_budget_and_role_pages_are_valid_html(demo_app, tmp_path):
    """Every budget page and the role form, in both languages, with and without errors,
    through the Nu HTML Checker (tests/web/test_html_valid.py's, in one JVM call)."""
    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing():
        pytest.skip(vnu_missing())
    staff = login(demo_app, "staff")
    v1 = _demo_version(demo_app)
    page = staff.get(f"/personal/presupuestos/version/{v1}").get_data(as_text=True)
    token = csrf_token(page)
    v2 = int(staff.post(f"/personal/presupuestos/version/{v1}/enmendar",
                        data={"csrf_token": token}).headers["Location"].split("/")[-2])
    with demo_app.app_context(), UnitOfWork(database()) as w:
        own = w.session.scalar(select(User.id).where(User.email == "staff@demo.pr"))
        other = w.session.scalar(select(User.id).where(User.email == "cashier@demo.pr"))
    files = []
    for lang in ("es", "en"):
        q = f"?lang={lang}"
        pages = {p: staff.get(p + q) for p in (
            "/personal/presupuestos", "/personal/presupuestos/nuevo",
            f"/personal/presupuestos/version/{v1}", f"/personal/presupuestos/version/{v2}",
            f"/personal/presupuestos/version/{v2}/editar",
            f"/personal/presupuestos/version/{v2}/adoptar",
            f"/personal/presupuestos/version/{v2}/comparar", f"/personal/persona/{other}",
            "/personal/tasacion")}
        pages["new-errors"] = staff.post("/personal/presupuestos/nuevo" + q, data={
            "csrf_token": token, "fiscal_year": "2027", "save": "y",
            **_lines(line_0=("project", "", "x", "abc", "-1"))})
        pages["adopt-errors"] = staff.post(f"/personal/presupuestos/version/{v2}/adoptar{q}",
                                           data={"csrf_token": token, "adopted_on": "x"})
        pages["role-errors"] = staff.post(f"/personal/persona/{own}/funcion{q}",
                                          data={"csrf_token": token, "role": "read_only"})
        for k, (name, r) in enumerate(pages.items()):
            expected = 400 if name.endswith("-errors") else 200  # a form shown with errors
            assert r.status_code == expected, (name, r.status_code)
            f = tmp_path / f"{lang}-{k}.html"
            f.write_text(r.get_data(as_text=True), encoding="utf-8")
            files.append(f)
    errors = vnu_errors(files)
    assert errors == [], "\n".join(errors)


def test_a_version_with_fixed_amounts_says_how_the_roll_uses_them_and_is_computed(demo_app):
    from portal.models import Job, Parcel
    staff = login(demo_app, "staff")
    with demo_app.app_context(), UnitOfWork(database()) as w:
        catastro = w.session.scalar(select(Parcel.catastro).where(
            Parcel.owner_kind == "private").order_by(Parcel.id))
    page = staff.get("/personal/presupuestos/nuevo").get_data(as_text=True)
    r = staff.post("/personal/presupuestos/nuevo", data={
        "csrf_token": csrf_token(page), "fiscal_year": "2027", "save": "y", **GOOD,
        "fixed-0-catastro": catastro, "fixed-0-amount": "1,000.00"})
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    vid = int(r.headers["Location"].rsplit("/", 1)[1])
    html = staff.get(r.headers["Location"]).get_data(as_text=True)
    assert "le asigna a cada propiedad de abajo la cantidad que fijó la Junta" in html
    adopt = staff.get(f"/personal/presupuestos/version/{vid}/adoptar").get_data(as_text=True)
    staff.post(f"/personal/presupuestos/version/{vid}/adoptar", data={
        "csrf_token": csrf_token(adopt), "adopted_on": "2026-11-30", "confirm": "y"})
    jobs_before = _count(demo_app, Job)
    r = staff.post(f"/personal/tasacion/version/{vid}/calcular",
                   data={"csrf_token": csrf_token(adopt)})
    assert r.status_code == 302 and "/personal/trabajos/" in r.headers["Location"]
    assert _count(demo_app, Job) == jobs_before + 1  # the computation is queued (R-A3 applied)


def test_a_draft_is_discarded_and_an_adopted_version_never(demo_app):
    staff = login(demo_app, "staff")
    v1 = _demo_version(demo_app)
    page = staff.get(f"/personal/presupuestos/version/{v1}").get_data(as_text=True)
    assert "Descartar este borrador" not in page  # adopted: nothing to discard
    r = staff.post(f"/personal/presupuestos/version/{v1}/enmendar",
                   data={"csrf_token": csrf_token(page)})
    v2 = int(r.headers["Location"].split("/")[-2])
    page = staff.get(f"/personal/presupuestos/version/{v2}").get_data(as_text=True)
    assert "Descartar el borrador de la versión 2" in page
    r = staff.post(f"/personal/presupuestos/version/{v2}/descartar",
                   data={"csrf_token": csrf_token(page)}, follow_redirects=True)
    assert "Se descartó el borrador de 2026-2027." in r.get_data(as_text=True)
    assert _count(demo_app, BudgetVersion, BudgetVersion.id == v2) == 0
    assert _count(demo_app, BudgetLine, BudgetLine.version_id == v2) == 0
    rec = _one(demo_app, select(AuditRecord.before).where(
        AuditRecord.action == "budget.draft_discarded"))[0]
    assert rec["version"] == 2 and len(rec["lines"]) == 5
    r = staff.post(f"/personal/presupuestos/version/{v1}/descartar",
                   data={"csrf_token": csrf_token(page)}, follow_redirects=True)
    assert "Una versión adoptada nunca se elimina" in r.get_data(as_text=True)
    assert _count(demo_app, BudgetVersion, BudgetVersion.id == v1) == 1
    # the amendment can be started again
    assert staff.post(f"/personal/presupuestos/version/{v1}/enmendar",
                      data={"csrf_token": csrf_token(page)}).status_code == 303


def test_adding_a_line_past_the_most_rows_says_so(demo_app):
    """60 lines (the most) and "Add a line": the page again with the 60 and a message, not
    a 500 (a scan found the 500); nothing saved."""
    staff = login(demo_app, "staff")
    page = staff.get("/personal/presupuestos/nuevo").get_data(as_text=True)
    rows = _lines(**{f"line_{k}": ("operation", f"Partida {k}", f"Item {k}", "1,000", "0")
                     for k in range(60)})
    before = _count(demo_app, BudgetVersion)
    r = staff.post("/personal/presupuestos/nuevo", data={
        "csrf_token": csrf_token(page), "fiscal_year": "2027", "add_line": "y", **rows})
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert len(re.findall(r'name="lines-\d+-amount"', html)) == 60
    assert "a lo sumo 60" in html
    assert _count(demo_app, BudgetVersion) == before
