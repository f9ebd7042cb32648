"""The staff search page and the reports' pages and CSV (portal/web/backoffice/)
on the demo District: staff only (404 for anyone else), accent-insensitive, each result a
link to its staff page, each report's figures and its CSV with the same rows."""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pytest

from portal.db import get_database
from portal.models import Parcel, User
from portal.reports import reports
from tests.support.pages import login


def _a_name(app) -> str:  # noqa: ANN001
    """An accented owner's name of the demo (e.g. "María ... Muñoz")."""
    from sqlalchemy import select

    from portal.models import Party
    with get_database(app.config["DATABASE_URL"]).unit_of_work() as w:
        for name in w.session.scalars(select(Party.name).where(Party.kind == "person")):
            if any(c in name for c in "áéíóúñ"):
                return name
    raise AssertionError("the demo has no accented name")


def test_search_finds_an_accented_name_typed_without_accents(demo_app):
    client = login(demo_app, "staff")
    name = _a_name(demo_app)
    plain = name.translate(str.maketrans("áéíóúñÁÉÍÓÚÑ", "aeiounAEIOUN")).upper()
    r = client.get("/personal/busqueda", query_string={"q": plain})
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert 'data-kind="parcels"' in html
    assert re.search(r'href="/propiedad/\d+"', html)


def test_search_by_loan_number_and_email_links_to_staff_pages(demo_app):
    client = login(demo_app, "staff")
    html = client.get("/personal/busqueda?q=BHC-").get_data(as_text=True)
    assert 'data-kind="loans"' in html
    html = client.get("/personal/busqueda?q=OWNER@DEMO").get_data(as_text=True)
    assert re.search(r'href="/personal/persona/\d+"', html)


def test_search_refuses_a_short_text_with_a_message(demo_app):
    client = login(demo_app, "staff")
    r = client.get("/personal/busqueda?q=a")
    assert r.status_code == 422
    assert "Escriba de 2 a 120 caracteres." in r.get_data(as_text=True)
    assert client.get("/personal/busqueda?q=ana&tipo=nada").status_code == 404


@pytest.mark.parametrize("role", ["owner", "lender", "lessee"])
def test_not_staff_is_404(demo_app, role):
    client = login(demo_app, role)
    for path in ("/personal/busqueda?q=munoz", "/personal/informes",
                 "/personal/informes/morosidad", "/personal/informes/morosidad.csv"):
        assert client.get(path).status_code == 404, path


@pytest.mark.parametrize("name", list(reports.REPORTS))
def test_each_report_page_and_its_csv(demo_app, name):
    client = login(demo_app, "staff")
    page = client.get(f"/personal/informes/{name}")
    assert page.status_code == 200
    assert 'data-figure="count"' in page.get_data(as_text=True)
    r = client.get(f"/personal/informes/{name}.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True).lstrip("\ufeff"))))
    assert len(rows[0]) == len(reports.REPORTS[name].columns)
    count = re.search(r'data-figure="count"[^>]*>([^<]+)<', page.get_data(as_text=True))
    if name not in ("pagos", "exoneraciones"):  # a row per day and method; per status
        assert int(count.group(1).replace(",", "")) == len(rows) - 1


def test_the_aging_csv_adds_up_to_its_figures(demo_app):
    client = login(demo_app, "staff")
    with get_database(demo_app.config["DATABASE_URL"]).unit_of_work() as w:
        staff = w.session.scalar(__import__("sqlalchemy").select(User).where(
            User.email == "staff@demo.pr"))
        from portal import clock
        figs = {f.code: f.value for f in reports.figures(
            w, staff, "morosidad", reports.Params(today=clock.today()))}
    rows = list(csv.reader(io.StringIO(client.get("/personal/informes/morosidad.csv")
                                       .get_data(as_text=True).lstrip("\ufeff"))))[1:]
    from decimal import Decimal
    assert sum(Decimal(r[6]) for r in rows) == figs["total"]
    assert figs["total"] > 0


def test_a_bad_day_is_its_fields_message(demo_app):
    client = login(demo_app, "staff")
    r = client.get("/personal/informes/pagos?desde=31/31/2026")
    assert r.status_code == 422
    assert 'id="desde-error"' in r.get_data(as_text=True)
    assert client.get("/personal/informes/pagos.csv?desde=nada").status_code == 400
    assert client.get("/personal/informes/nada").status_code == 404


def test_parcel_with_a_formula_is_a_safe_cell(demo_app):
    with get_database(demo_app.config["DATABASE_URL"]).unit_of_work() as w:
        p = w.session.scalar(__import__("sqlalchemy").select(Parcel).limit(1))
        p.municipality = "=cmd|' /C calc'!A0"
    client = login(demo_app, "staff")
    _fresh(demo_app, client, "registro")  # the register is a snapshot: computed again
    text = client.get("/personal/informes/registro.csv").get_data(as_text=True)
    assert "'=cmd" in text and ",=cmd" not in text


def _fresh(app, client, name: str, query: str = "") -> str:  # noqa: ANN001
    """Staff ask for a fresh snapshot with the page's button (the job run at once); the
    page after it."""
    from portal.jobs import queue
    from portal.web.data import database
    from tests.support.pages import csrf_token
    with app.app_context():
        queue.use_immediate(database())
    try:
        page = client.get(f"/personal/informes/{name}{query}").get_data(as_text=True)
        r = client.post(f"/personal/informes/{name}/calcular{query}",
                        data={"csrf_token": csrf_token(page)})
        assert r.status_code == 303
        return client.get(r.headers["Location"]).get_data(as_text=True)
    finally:
        queue.reset()


def test_every_page_is_valid_html(demo_app, tmp_path):
    """The reports, the search (with results, with nothing found, with an error) and the
    review in bulk, in both languages, through the Nu HTML Checker."""
    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing() is not None:
        pytest.skip(vnu_missing())
    client = login(demo_app, "staff")
    paths = ["/personal/informes", "/personal/busqueda", "/personal/busqueda?q=BHC-",
             "/personal/busqueda?q=zzzz", "/personal/busqueda?q=a",
             "/personal/busqueda?q=bhc&tipo=loans", "/personal/informes/pagos?desde=x",
             "/personal/exoneraciones/en-lote", "/personal/exoneraciones/en-lote?minimo=1e9"]
    paths += [f"/personal/informes/{name}" for name in reports.REPORTS]
    files = []
    for lang in ("es", "en"):
        for n, path in enumerate(paths):
            sep = "&" if "?" in path else "?"
            f = tmp_path / f"{lang}-{n}.html"
            f.write_text(client.get(f"{path}{sep}lang={lang}").get_data(as_text=True),
                         encoding="utf-8")
            files.append(f)
    errors = vnu_errors(files)
    assert errors == [], "\n".join(errors[:20])


def test_a_report_not_computed_yet_asks_for_it_and_the_button_computes_it(demo_app):
    """A report read from a snapshot says when none is there yet; staff's button leaves the
    work to the worker (here run at once), then the page shows it and when it was computed."""
    from sqlalchemy import delete

    from portal.models import ReportSnapshot, ReportSnapshotRow
    from tests.support.demo import app_uow
    with app_uow(demo_app) as w:
        w.session.execute(delete(ReportSnapshotRow))
        w.session.execute(delete(ReportSnapshot))
    client = login(demo_app, "staff")
    html = client.get("/personal/informes/morosidad").get_data(as_text=True)
    assert "Este informe no se ha calculado todavía." in html
    assert 'data-figure="count"' not in html
    csv_text = client.get("/personal/informes/morosidad.csv").get_data(as_text=True)
    assert len(csv_text.strip().splitlines()) == 1  # the header only
    html = _fresh(demo_app, client, "morosidad")
    assert "El informe se está calculando de nuevo." in html
    assert 'data-figure="total"' in html and "Calculado a las" in html
    assert "no se ha calculado" not in html
    html = _fresh(demo_app, client, "registro", "?ano=2026-07-01")
    assert 'data-figure="count"' in html


def test_only_staff_ask_for_a_fresh_report(demo_app):
    from sqlalchemy import func, select

    from portal.models import Job
    from tests.support.demo import app_uow
    from tests.support.pages import csrf_token

    def jobs() -> int:
        with app_uow(demo_app) as w:
            return w.session.scalar(select(func.count(Job.id)))

    before = jobs()
    anonymous = demo_app.test_client()
    token = csrf_token(anonymous.get("/cuenta/entrar").get_data(as_text=True))
    r = anonymous.post("/personal/informes/morosidad/calcular", data={"csrf_token": token})
    assert r.status_code == 302 and "/cuenta/entrar" in r.headers["Location"]
    for role in ("owner", "lessee", "lender"):
        client = login(demo_app, role)
        token = csrf_token(client.get("/").get_data(as_text=True))
        r = client.post("/personal/informes/morosidad/calcular", data={"csrf_token": token})
        assert r.status_code == 404, role
    assert jobs() == before
    staff = login(demo_app, "staff")
    token = csrf_token(staff.get("/").get_data(as_text=True))
    assert staff.post("/personal/informes/morosidad/calcular").status_code == 400  # no token
    assert staff.post("/personal/informes/demandas/calcular",
                      data={"csrf_token": token}).status_code == 404  # not a snapshot


def test_payments_for_a_range_of_days_read_the_snapshot_of_every_day(demo_app):
    """A range of days of the payments report shows the days' rows of the snapshot of every
    day, with the figures added up from them (the same as the report computed for the
    range), and its CSV holds those rows; "Compute it again now" computes that snapshot."""
    from portal import clock
    from tests.support.demo import app_uow
    client = login(demo_app, "staff")
    query = "?desde=2026-11-01&hasta=2026-11-15"
    html = _fresh(demo_app, client, "pagos", query)
    assert "Calculado a las" in html and 'value="2026-11-01"' in html
    with app_uow(demo_app) as w:
        staff = w.session.scalar(__import__("sqlalchemy").select(User).where(
            User.email == "staff@demo.pr"))
        p = reports.Params(clock.today(), date(2026, 11, 1), date(2026, 11, 15))
        figures = {f.code: f.value for f in reports.figures(w, staff, "pagos", p)}
        live = list(reports.rows(w, staff, "pagos", p))
    count = re.search(r'data-figure="count"[^>]*>([^<]+)<', html)
    assert int(count.group(1).replace(",", "")) == figures["count"] > 0
    rows = list(csv.reader(io.StringIO(client.get(f"/personal/informes/pagos.csv{query}")
                                       .get_data(as_text=True).lstrip("\ufeff"))))[1:]
    assert [r[0] for r in rows] == [d.isoformat() for d, *_ in live]
    assert all("2026-11-01" <= r[0] <= "2026-11-15" for r in rows)
