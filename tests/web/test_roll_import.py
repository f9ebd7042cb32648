"""The staff's roll-import pages (J8): upload a CSV, see its check's report
(paged, downloadable with formula cells neutralised) and its dry run, import it; bad uploads
get a clear message in the staff's language and store nothing; the template and the guide
in both languages. The jobs run in-process (Huey's immediate mode)."""

from __future__ import annotations

import csv
import io

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal.db import UnitOfWork
from portal.jobs import queue
from portal.models import Parcel, RollImport
from portal.roll import roll_csv as ri
from portal.web.data import database
from portal.web.roll import roll_import as pages
from tests.support.pages import csrf_token, login

HEAD = [c.es for c in ri.COLUMNS]


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def _row(k: int, units: str = "10") -> list[str]:
    return [f"050-000-{k // 100:03d}-{k % 100:02d}", f"Calle Sol {k}", "Ponce", "urbana",
            "0.25", "50000", "0", "privado", "no", "no", units, f"Dueño {k}",
            f"dueno{k}@example.pr", "", "", "", "", "", "", ""]


def _csv(rows, delimiter=",") -> bytes:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows([HEAD, *rows])
    return out.getvalue().encode("utf-8")


def _count(app: Flask, model) -> int:  # noqa: ANN001
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(model))


def _upload(client, data: bytes, name: str = "padron.csv", lang: str = ""):  # noqa: ANN001, ANN202
    token = csrf_token(client.get(f"/personal/padron{lang}").get_data(as_text=True))
    return client.post(f"/personal/padron{lang}", data={
        "csrf_token": token, "file": (io.BytesIO(data), name)},
        content_type="multipart/form-data")


def test_staff_upload_see_the_report_fix_the_file_and_import(app):
    staff = login(app, "staff")
    parcels = _count(app, Parcel)
    rows = [_row(k) for k in range(120)]
    rows[7][10] = "=1+1"  # a formula where the units go: refused, and neutralised in the CSV
    r = _upload(staff, _csv(rows, ";"))
    assert r.status_code == 303
    page = staff.get(r.headers["Location"])
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Refresh" not in page.headers  # the check has ended
    assert "1 fila tiene errores" in html
    assert "unidades_beneficio" in html and "No es un número" in html
    assert "No se importó nada" in html and "Importar el padrón</button>" not in html
    report = staff.get(r.headers["Location"] + "/informe.csv")
    assert report.mimetype == "text/csv"
    lines = list(csv.reader(io.StringIO(report.get_data(as_text=True).lstrip("\ufeff"))))
    assert lines[0] == ["Fila", "Columna", "Valor", "Razón"]
    assert lines[1][:3] == ["9", "unidades_beneficio", "'=1+1"]
    assert _count(app, Parcel) == parcels  # nothing written
    # The import is refused for a file with errors.
    location = r.headers["Location"]
    token = csrf_token(html)
    refused = staff.post(location + "/importar", data={"csrf_token": token})
    assert refused.status_code == 303
    assert _count(app, Parcel) == parcels
    # Fixed, uploaded again: the dry run lists 120 new parcels, a page of 50 at a time.
    rows[7][10] = "2"
    r = _upload(staff, _csv(rows, ";"))
    location = r.headers["Location"]
    html = staff.get(location).get_data(as_text=True)
    assert "Propiedades nuevas: 120" in html and "Importar el padrón</button>" in html
    new = staff.get(location + "/nuevas?pagina=3").get_data(as_text=True)
    assert "050-000-001-19" in new and "050-000-000-00" not in new
    assert "Página 3 de 3" in new and "nuevas?pagina=2" in new and "pagina=4" not in new
    assert "120 propiedades" in new
    assert staff.get(location + "/nuevas?pagina=4").status_code == 404
    assert staff.get(location + "/no-listadas").status_code == 200
    token = csrf_token(html)
    assert staff.post(location + "/importar", data={"csrf_token": token}).status_code == 303
    html = staff.get(location).get_data(as_text=True)
    assert "Importado" in html
    assert _count(app, Parcel) == parcels + 120
    # In English too.
    html = staff.get(location + "?lang=en").get_data(as_text=True)
    assert "Imported. Importing the same file again changes nothing." in html


def test_a_bad_dollar_cell_refuses_its_row_in_the_readers_language(app):
    """A valuation written "1.500" (fifteen hundred, the other convention) or "1e9" is read by
    the one parser of an amount: its row is refused with that parser's reason, in Spanish
    and in English, and nothing is imported."""
    staff = login(app, "staff")
    parcels = _count(app, Parcel)
    rows = [_row(k) for k in range(3)]
    rows[0][5] = "1.500"
    rows[2][6] = "1e9"
    r = _upload(staff, _csv(rows))
    assert r.status_code == 303
    location = r.headers["Location"]
    html = staff.get(location).get_data(as_text=True)
    assert "2 filas tienen errores" in html
    assert "valor_terreno" in html and "no 1.500,00" in html
    assert "valor_estructuras" in html and "sin exponente" in html
    english = staff.get(location + "?lang=en").get_data(as_text=True)
    assert "2 rows have errors" in english
    assert "(not 1.500,00)" in english and "without an exponent" in english
    report = staff.get(location + "/informe.csv").get_data(as_text=True)
    rows_out = list(csv.reader(io.StringIO(report.lstrip("\ufeff"))))
    assert [r[:3] for r in rows_out[1:]] == [["2", "valor_terreno", "1.500"],
                                             ["4", "valor_estructuras", "1e9"]]
    token = csrf_token(html)
    assert staff.post(location + "/importar", data={"csrf_token": token}).status_code == 303
    assert _count(app, Parcel) == parcels  # nothing written


@pytest.mark.parametrize("name,data,message", [
    ("padron.xlsx", b"PK\x03\x04", "Suba un archivo .csv"),
    ("padron.csv", b"PK\x03\x04\x00\x00\x00", "no es un archivo de texto CSV"),
    ("padron.csv", b"catastro,direccion\r\n040,x\r\n", "le faltan estas columnas"),
    ("padron.csv", b"", "El archivo está vacío"),
    ("", b"", "Escoja el archivo CSV"),
])
def test_a_bad_upload_is_refused_with_a_clear_message_and_nothing_stored(app, name, data,
                                                                          message):
    staff = login(app, "staff")
    r = _upload(staff, data, name)
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert message in html and "<title>Error:" in html
    assert _count(app, RollImport) == 0


def test_a_file_too_large_is_refused_with_a_clear_message(app, monkeypatch):
    monkeypatch.setattr(pages, "MAX_UPLOAD", 2000)
    staff = login(app, "staff")
    r = _upload(staff, _csv([_row(k) for k in range(40)]))
    assert r.status_code == 303
    page = staff.get(r.headers["Location"])
    assert page.status_code == 413
    assert "El archivo pasa de 0 MiB" in page.get_data(as_text=True)
    assert "<title>Error:" in page.get_data(as_text=True)
    assert _count(app, RollImport) == 0


def test_the_template_and_the_guide_in_both_languages(app):
    staff = login(app, "staff")
    es = staff.get("/personal/padron/plantilla.csv")
    assert es.mimetype == "text/csv" and "plantilla-padron.csv" in es.headers[
        "Content-Disposition"]
    head, example = list(csv.reader(io.StringIO(es.get_data(as_text=True).lstrip("\ufeff"))))
    assert head == HEAD and example[3] == "urbana"
    en = staff.get("/personal/padron/plantilla.csv?lang=en")
    head, example = list(csv.reader(io.StringIO(en.get_data(as_text=True).lstrip("\ufeff"))))
    assert head == [c.en for c in ri.COLUMNS] and example[3] == "urban"
    guide = staff.get("/personal/padron/guia").get_data(as_text=True)
    assert "unidades_beneficio" in guide and "Las unidades de beneficio" in guide
    guide = staff.get("/personal/padron/guia?lang=en").get_data(as_text=True)
    assert "The benefit units the Board assigned" in guide


def test_neutralise_prefixes_formula_cells_only():
    assert [pages.neutralise(v) for v in ("=SUM(A1)", "+1", "-2", "@x", "\tx", "12", "Ana")] == [
        "'=SUM(A1)", "'+1", "'-2", "'@x", "'\tx", "12", "Ana"]


def test_the_pages_are_valid_html_in_both_languages(app, tmp_path):
    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing():
        pytest.skip(vnu_missing())
    staff = login(app, "staff")
    rows = [_row(k) for k in range(60)]
    rows[3][0] = "=cmd"
    bad = _upload(staff, _csv(rows)).headers["Location"]
    rows[3][0] = "050-000-999-99"
    rows[4][1] = "Calle <b>Luna</b> & Sol"
    good = _upload(staff, _csv(rows)).headers["Location"]
    refused = _upload(staff, b"PK\x03\x04", "padron.xlsx")
    files = []
    pages = {"refused": refused.get_data(as_text=True)}
    for lang in ("es", "en"):
        for name, path in [("upload", "/personal/padron"), ("guide", "/personal/padron/guia"),
                           ("report", bad), ("dry", good), ("new", good + "/nuevas"),
                           ("removed", good + "/no-listadas")]:
            r = staff.get(f"{path}?lang={lang}")
            assert r.status_code == 200, (path, r.status_code)
            pages[f"{lang}-{name}"] = r.get_data(as_text=True)
    assert "Calle &lt;b&gt;Luna&lt;/b&gt; &amp; Sol" in pages["es-new"]  # escaped
    for name, html in pages.items():
        f = tmp_path / f"{name}.html"
        f.write_text(html)
        files.append(f)
    assert vnu_errors(files) == []


def test_the_import_pages_need_the_second_step_and_are_404_for_others(app):
    """The staff-pages walk of tests/web/test_two_factor.py skips the pages of an import
    (the demo has none): here they are walked with one."""
    from tests.support.pages import password_only
    staff = login(app, "staff")
    location = _upload(staff, _csv([_row(1)])).headers["Location"]
    paths = [location, location + "/nuevas", location + "/cambiadas",
             location + "/no-listadas", location + "/informe.csv"]
    for path in paths:
        assert staff.get(path).status_code == 200, path
    half, went = password_only(app)
    assert went.endswith("/cuenta/verificar")
    for path in paths:
        r = half.get(path)
        assert r.status_code == 302 and "/cuenta/entrar" in r.headers["Location"], path
    for role in ("owner", "lessee", "lender"):
        other = login(app, role)
        for path in [*paths, "/personal/padron", "/personal/padron/guia"]:
            assert other.get(path).status_code == 404, (role, path)
        token = csrf_token(other.get("/mis-propiedades").get_data(as_text=True))
        assert other.post(location + "/importar", data={"csrf_token": token}
                          ).status_code == 404
    assert _count(app, RollImport) == 1


def test_only_an_administrator_uploads_or_imports(app):
    """Uploading and importing are the administrator's (access.MANAGE); a reviewer reads the
    imports and their reports, and is refused (403) the two posts."""
    from portal.models import User
    staff = login(app, "staff")
    location = _upload(staff, _csv([_row(1)])).headers["Location"]
    with app.app_context(), UnitOfWork(database()) as w:
        user = w.session.scalar(select(User).where(User.email == "staff@demo.pr"))
        user.staff_role = "reviewer"
    html = staff.get("/personal/padron").get_data(as_text=True)
    assert "Solo un administrador sube e importa el padrón" in html and 'type="file"' not in html
    page = staff.get(location).get_data(as_text=True)
    assert "Importar el padrón</button>" not in page
    token = csrf_token(page)
    assert staff.post(location + "/importar", data={"csrf_token": token}).status_code == 403
    r = staff.post("/personal/padron", data={"csrf_token": token, "file": (
        io.BytesIO(_csv([_row(2)])), "p.csv")}, content_type="multipart/form-data")
    assert r.status_code == 403
    assert _count(app, RollImport) == 1
