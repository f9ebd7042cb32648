"""J8 end to end in a real browser, once in Spanish and once in English (PRODUCT.md J8;
R-A1 to R-A5): on a District with no budget and no parcel, the administrator signs in (two
steps), drafts the fiscal year's budget with its lines and adopts it, downloads the roll's
template and uploads a 1,000-parcel file built from it with one bad row (Windows-1252 with
semicolons in Spanish, UTF-8 with a BOM and commas in English), reads the per-row report in
the page's language, uploads the corrected file, reads the dry run and imports it, computes
the roll (the job's page with its progress), reads the roll's figures and its review (the
shares add up to the total to assess, to the cent) and publishes it. An owner of one
imported parcel claims it with its access code (issued by `parcels.issue_code`, as staff
issue one for a notice) and sees the assessment and its installments. The administrator
amends the budget mid-year (a higher total), adopts the amendment, computes it, reviews its
differences per parcel and publishes it; the owner sees the new amount and installments
(R-A5: the increase spread over the installments due after the amendment takes effect).

Every page visited is checked by axe; the pages' HTML goes through the Nu HTML Checker once
at the end. The jobs run as the other browser tests run them: Huey's immediate mode, in the
server's request thread (docs/JOBS.md). `BOARD_YEAR_SHOTS=<folder>` also writes a
screenshot of each page (for review; not compared)."""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import func, select

from portal import clock
from tests.support.browser import REASON, Server, axe_violations, second_step
from tests.support.pages import PASSWORD

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

STAFF = "junta@board.pr"
OWNER = "duena@board.pr"
SECRET = "PRDERRAMASBOARDYEARJBSWY3DPEHPK3"
#: The Board drafts and adopts in May, before the fiscal year (2026-2027) starts on July 1;
#: it amends in October, mid-year.
MAY = date(2026, 5, 15)
OCTOBER = date(2026, 10, 15)
PARCELS = 1000
BAD = 499  # the bad row's index among the parcels: row 501 of the file (the header is 1)
OWNED = 7  # the parcel the owner claims
SHOTS = os.environ.get("BOARD_YEAR_SHOTS")

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "budgets": "Presupuestos: redactar, adoptar y enmendar",
           "draft": "Redactar el presupuesto de un año fiscal", "save": "Guardar el borrador",
           "adopt": "Adoptar esta versión", "amend": "Enmendar: comenzar una versión nueva",
           "imports": "Padrón de propiedades: importarlo de un archivo CSV",
           "template": "Descargar la plantilla (CSV)", "file": "El archivo CSV del padrón",
           "upload": "Subir y revisar", "errors": "1 fila tiene errores",
           "nothing": "No se importó nada", "new": "Propiedades nuevas: 1,000",
           "import": "Importar el padrón",
           "imported": "Importado. Importar el mismo archivo otra vez no cambia nada.",
           "roll": "Registro de derramas: calcular y publicar",
           "compute": "Calcular el registro", "publish": "Publicar el registro",
           "finished": "Terminado", "of": "1,000 de 1,000 propiedades",
           "published": "publicado", "claim": "Añadir una propiedad", "review": "Revisar",
           "balanced": "Las derramas suman el total a imponer del presupuesto, al centavo",
           "changes": "Propiedades cuya cantidad cambia", "net": "Cambio neto",
           "year": "Derrama de este año:", "zone": "centro", "column": "zona",
           "reason": "No es una zona: escriba urbana, suburbana o rural."},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "budgets": "Budgets: draft, adopt and amend",
           "draft": "Draft a fiscal year's budget", "save": "Save the draft",
           "adopt": "Adopt this version", "amend": "Amend: start a new version",
           "imports": "Parcel roll: import it from a CSV file",
           "template": "Download the template (CSV)", "file": "The roll's CSV file",
           "upload": "Upload and check", "errors": "1 row has errors",
           "nothing": "Nothing was imported", "new": "New parcels: 1,000",
           "import": "Import the roll",
           "imported": "Imported. Importing the same file again changes nothing.",
           "roll": "Assessment roll: compute and publish",
           "compute": "Compute the roll", "publish": "Publish the roll",
           "finished": "Finished", "of": "1,000 of 1,000 parcels",
           "published": "published", "claim": "Add a parcel", "review": "Review",
           "balanced": "The shares add up to the budget's total to assess, to the cent",
           "changes": "Parcels whose amount changes", "net": "Net change",
           "year": "This year's assessment:", "zone": "downtown", "column": "zone",
           "reason": "Not a zone: write urbana, suburbana or rural."},
}
#: (kind, Spanish, English, cost, part financed by assessments): the lines of version 1.
LINES = [("project", "Paseo tablado de la laguna", "Lagoon boardwalk", "900,000", "600,000"),
         ("maintenance", "Aceras y alumbrado", "Sidewalks and lighting", "250,000", "250,000"),
         ("operation", "Seguridad y limpieza", "Security and cleaning", "150,000.50",
          "150,000.50")]
TOTAL_1 = Decimal("1000000.50")
TOTAL_2 = Decimal("1120000.50")  # the amendment: the boardwalk's assessed part +120,000


def money(amount: Decimal) -> str:
    """As the pages write an amount in either language ($1,234.56)."""
    return f"${amount:,.2f}"


class Journey:
    """The served District, its database, and what the browser saw (for vnu at the end)."""

    def __init__(self, app, url: str, folder: Path):  # noqa: ANN001
        self.app, self.url, self.folder = app, url, folder
        self.pages: list[Path] = []

    def uow(self):  # noqa: ANN201
        from portal.db import UnitOfWork
        from portal.web.data import database
        with self.app.app_context():
            return UnitOfWork(database())

    def seen(self, page, name: str) -> None:  # noqa: ANN001
        """A page visited for the first time: axe finds nothing; its HTML is kept."""
        violations = axe_violations(page)
        assert violations == [], f"{page.url}: {violations}"
        path = self.folder / f"{len(self.pages):02d}-{name}.html"
        path.write_text(page.content(), encoding="utf-8")
        self.pages.append(path)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{SHOTS}/{path.stem}.png", full_page=True)


@pytest.fixture
def journey(tmp_path, schema_template) -> Iterator[Journey]:  # noqa: ANN001
    """An empty District (the migrated schema, no demo) on 2026-05-15 with one
    administrator enrolled in two steps and one registered owner, served on a free port;
    the jobs run at once in the server (Huey's immediate mode)."""
    from portal.db import reset_databases
    from portal.jobs import queue
    from portal.people import two_factor, users
    from portal.web.data import database
    from tests.support.app import make_app
    clock.set_fixed(clock.pr_instant(MAY))
    app = make_app(tmp_path, schema_template, SERVER_NAME=None)
    folder = tmp_path / "pages"
    folder.mkdir()
    j = Journey(app, "", folder)
    with j.uow() as w:
        staff = users.register(w, STAFF, PASSWORD, "Nilsa Cordero Ruiz")
        staff.email_confirmed_at = clock.now()
        staff.is_staff, staff.staff_role = True, "administrator"
        two_factor.enrol_with_secret(w, staff, SECRET)
        owner = users.register(w, OWNER, PASSWORD, "Dueña Siete")
        owner.email_confirmed_at = clock.now()
    with app.app_context():
        queue.use_immediate(database())
    try:
        with Server(app) as server:
            app.config["PORTAL_BASE_URL"] = j.url = server.url
            yield j
    finally:
        queue.reset()
        reset_databases()
        clock.set_fixed(None)


def _context(browser, lang: str):  # noqa: ANN001, ANN202
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  locale="es-PR" if lang == "es" else "en-US",
                                  accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(20000)
    return context, page


def _sign_in(page, j: Journey, lang: str, email: str, staff: bool) -> None:  # noqa: ANN001
    w = WORDS[lang]
    page.goto(f"{j.url}/cuenta/entrar?lang={lang}")
    page.get_by_label(w["email"]).fill(email)
    page.get_by_label(w["password"], exact=True).fill(PASSWORD)
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    if staff:
        second_step(page, SECRET)
    page.wait_for_url("**/mis-propiedades**")
    expect(page.locator("html")).to_have_attribute("lang", lang)


def _tasks(page, j: Journey, name: str) -> None:  # noqa: ANN001
    page.goto(f"{j.url}/personal/buscar")
    page.get_by_role("link", name=name).click()


def _roll_file(path: Path, template: list[list[str]], lang: str, bad: bool) -> None:
    """1,000 parcels made from the template's header and example row, the one bad row a
    zone that is not one; as Excel saves it in Puerto Rico (Windows-1252, semicolons, CRLF)
    in Spanish, as "CSV UTF-8" (a BOM, commas) in English."""
    head, example = template
    col = {name: k for k, name in enumerate(head)}
    es = lang == "es"
    with open(path, "w", encoding="cp1252" if es else "utf-8-sig", newline="") as fh:
        out = csv.writer(fh, delimiter=";" if es else ",", lineterminator="\r\n")
        out.writerow(head)
        for k in range(PARCELS):
            row = list(example)
            row[col["catastro"]] = f"071-{k // 10000:03d}-{k // 100 % 100:03d}-{k % 100:02d}"
            row[col["direccion" if es else "address"]] = f"Calle Piñones {k}, Loíza"
            row[col["municipio" if es else "municipality"]] = "Loíza"
            row[col["unidades_beneficio" if es else "benefit_units"]] = str(5 + k % 7)
            row[col["duenos" if es else "owner_names"]] = f"Dueña Núñez {k}"
            row[col["correos_duenos" if es else "owner_emails"]] = f"duena{k}@example.pr"
            row[col["participaciones" if es else "owner_shares"]] = ""
            if bad and k == BAD:
                row[col[WORDS[lang]["column"]]] = WORDS[lang]["zone"]
            out.writerow(row)


def _current(j: Journey, catastro: str) -> tuple[Decimal, list[Decimal]]:
    """The parcel's current assessment (the one no amendment supersedes) and its
    installments' amounts, as the database holds them (the core computed them)."""
    from portal.accounts import facts
    from portal.models import Installment, Parcel
    with j.uow() as w:
        pid = w.session.scalar(select(Parcel.id).where(Parcel.catastro == catastro))
        fy = facts.fiscal_year_on(w, clock.today())
        a = facts.current_assessments(w, [pid], fy.id)[pid]
        amounts = w.session.scalars(select(Installment.amount).where(
            Installment.assessment_id == a.id).order_by(Installment.number)).all()
        return a.annual_amount, list(amounts)


def _published_total(j: Journey) -> Decimal:
    from portal.models import Assessment, AssessmentRoll
    with j.uow() as w:
        latest = w.session.scalar(select(func.max(AssessmentRoll.id)).where(
            AssessmentRoll.status == "published"))
        return w.session.scalar(select(func.sum(Assessment.annual_amount)).where(
            Assessment.roll_id == latest))


def _schedule(page) -> list[str]:  # noqa: ANN001
    """The amounts column of the parcel page's installment schedule (folded or not)."""
    return page.evaluate("""() => [...document.querySelectorAll(
        '#schedule table tbody tr')].map(r => r.cells[3].textContent.trim())""")


def _compute_and_publish(page, j: Journey, lang: str, version: int, first: bool
                         ) -> None:  # noqa: ANN001
    """On the roll page: compute the version's roll (its job's page, with the progress),
    read the roll's figures and its review, publish it (its job's page), and see it
    published."""
    w = WORDS[lang]
    main = page.locator("main")
    _tasks(page, j, w["roll"])
    if first:
        j.seen(page, f"{lang}-roll")
    row = main.locator("tbody tr").nth(version - 1)
    row.get_by_role("button", name=w["compute"]).click()
    page.wait_for_url("**/personal/trabajos/**")
    expect(main.locator("dl")).to_contain_text(w["finished"])
    expect(main.locator("dl")).to_contain_text(w["of"])
    expect(main.locator("#job-progress")).to_have_attribute("value", "100")
    if first:
        j.seen(page, f"{lang}-job-compute")
    page.locator("main p a").last.click()  # back to the roll's page
    row = main.locator("tbody tr").nth(version - 1)
    total = TOTAL_1 if version == 1 else TOTAL_2
    expect(row).to_contain_text(money(total))  # the total to assess
    expect(row.locator("td").nth(3)).to_have_text("1,000")  # every parcel assessed
    expect(row.locator("td").nth(4)).to_have_text("0")
    # The review: the shares add up to the total to assess, to the cent (R-A3); for the
    # amendment, every parcel's amount changes and the net change is the budget's (R-A5)
    row.get_by_role("link", name=w["review"]).click()
    expect(main).to_contain_text(w["balanced"])
    figures = main.locator("dl.portal-amounts").nth(1)
    expect(figures.locator("dd").nth(0)).to_have_text(money(total))
    expect(figures.locator("dd").nth(1)).to_have_text(money(total))
    expect(figures.locator("dd").nth(2)).to_have_text("1,000")
    if version > 1:
        changes = main.locator("dl.portal-amounts").nth(2)
        expect(changes.locator("div").filter(has_text=w["changes"])).to_contain_text("1,000")
        expect(changes.locator("div").filter(has_text=w["net"])).to_contain_text(
            "+" + money(TOTAL_2 - TOTAL_1))
    j.seen(page, f"{lang}-review-{version}")
    _tasks(page, j, w["roll"])
    row = main.locator("tbody tr").nth(version - 1)
    row.get_by_role("button", name=w["publish"]).click()
    page.wait_for_url("**/personal/trabajos/**")
    expect(main.locator("dl")).to_contain_text(w["finished"])
    if first:
        j.seen(page, f"{lang}-job-publish")
    page.locator("main p a").last.click()
    expect(main.locator("tbody tr").nth(version - 1)).to_contain_text(w["published"])
    assert _published_total(j) == total  # R-A3: the roll sums to the budget, to the cent


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j8_the_boards_year_from_budget_to_amendment(journey, browser, lang, tmp_path):
    from portal.accounts import parcels as parcel_service
    from portal.models import Parcel
    from portal.people import users
    j, w = journey, WORDS[lang]
    with j.uow() as u:  # each signs in in the journey's language
        for email in (STAFF, OWNER):
            users.find_by_email(u, email).language = lang
    context, page = _context(browser, lang)
    main = page.locator("main")
    try:
        # 1. The administrator signs in (two steps) and drafts the year's budget (R-A1)
        _sign_in(page, j, lang, STAFF, staff=True)
        _tasks(page, j, w["budgets"])
        j.seen(page, f"{lang}-budgets")
        page.get_by_role("link", name=w["draft"]).click()
        page.locator("#fiscal_year").select_option("2026")  # 2026-2027
        for k, (_kind, es, en, cost, financed) in enumerate(LINES):
            page.locator(f"#lines-{k}-description_es").fill(es)
            page.locator(f"#lines-{k}-description_en").fill(en)
            page.locator(f"#lines-{k}-amount").fill(cost)
            page.locator(f"#lines-{k}-financed").fill(financed)
        page.locator("#reference").fill("Res. 2026-11")
        j.seen(page, f"{lang}-draft")
        page.get_by_role("button", name=w["save"]).click()
        expect(main).to_contain_text(money(TOTAL_1))
        j.seen(page, f"{lang}-version")

        # 2. Adopted before the year starts (no warning)
        page.get_by_role("link", name=w["adopt"]).click()
        page.locator("#adopted_on").fill(MAY.isoformat())
        page.locator("label[for=confirm]").click()
        j.seen(page, f"{lang}-adopt")
        page.locator("main form [type=submit]").click()
        expect(main.get_by_role("button", name=w["amend"])).to_be_visible()
        version_page = page.url

        # 3. The roll's template, in the page's language
        _tasks(page, j, w["imports"])
        j.seen(page, f"{lang}-imports")
        with page.expect_download() as got:
            page.get_by_role("link", name=w["template"]).click()
        saved = tmp_path / "template.csv"
        got.value.save_as(saved)
        with open(saved, encoding="utf-8-sig", newline="") as fh:
            template = list(csv.reader(fh))
        assert template[0][:2] == (["catastro", "direccion"] if lang == "es"
                                   else ["catastro", "address"])

        # 4. 1,000 parcels with one bad row: the per-row report, nothing written
        bad = tmp_path / f"padron-{lang}.csv"
        _roll_file(bad, template, lang, bad=True)
        page.get_by_label(w["file"]).set_input_files(str(bad))
        page.get_by_role("button", name=w["upload"]).click()
        expect(main).to_contain_text(w["errors"])
        expect(main).to_contain_text(w["nothing"])
        report = main.locator("table tbody tr")
        expect(report).to_have_count(1)
        expect(report.locator("th")).to_have_text(str(BAD + 2))  # row 501
        expect(report.locator("td").nth(0)).to_have_text(w["column"])
        expect(report.locator("td").nth(1)).to_have_text(w["zone"])
        expect(report.locator("td").nth(2)).to_have_text(w["reason"])
        expect(main.get_by_role("button", name=w["import"])).to_have_count(0)
        j.seen(page, f"{lang}-report")
        with j.uow() as u:
            assert u.session.scalar(select(func.count()).select_from(Parcel)) == 0

        # 5. The row fixed: the dry run, then the import
        good = tmp_path / f"padron-{lang}-corregido.csv"
        _roll_file(good, template, lang, bad=False)
        _tasks(page, j, w["imports"])
        page.get_by_label(w["file"]).set_input_files(str(good))
        page.get_by_role("button", name=w["upload"]).click()
        expect(main).to_contain_text(w["new"])
        j.seen(page, f"{lang}-dry-run")
        with j.uow() as u:
            assert u.session.scalar(select(func.count()).select_from(Parcel)) == 0
        page.get_by_role("button", name=w["import"]).click()
        expect(main).to_contain_text(w["imported"])
        with j.uow() as u:
            assert u.session.scalar(select(func.count()).select_from(Parcel)) == PARCELS

        # 6. Computed (the job's progress), its figures read, published (R-A2 to R-A4)
        _compute_and_publish(page, j, lang, version=1, first=True)

        # 7. An owner of an imported parcel claims it with the access code the Authority
        # gives for the notice, and sees the year's assessment and its installments
        catastro = f"071-000-000-{OWNED:02d}"
        with j.uow() as u:
            staff = users.find_by_email(u, STAFF)
            pid = u.session.scalar(select(Parcel.id).where(Parcel.catastro == catastro))
            code = parcel_service.issue_code(u, staff, pid)
        annual_1, installments_1 = _current(j, catastro)
        assert len(installments_1) == 12 and sum(installments_1) == annual_1
        owner_context, owner = _context(browser, lang)
        try:
            _sign_in(owner, j, lang, OWNER, staff=False)
            owner.goto(f"{j.url}/propiedad/reclamar")
            expect(owner.locator("h1")).to_have_text(w["claim"])
            j.seen(owner, f"{lang}-claim")
            owner.locator("#catastro").fill(catastro)
            owner.locator("#code").fill(code)
            owner.locator("main form [type=submit]").click()
            owner.goto(f"{j.url}/propiedad/{pid}")
            expect(owner.locator("main")).to_contain_text(f"{w['year']} {money(annual_1)}")
            assert _schedule(owner) == [money(a) for a in installments_1]
            j.seen(owner, f"{lang}-parcel")
        finally:
            owner_context.close()
    finally:
        context.close()

    # 8. Mid-year the Board amends the budget: a new version, a higher total (R-A5)
    clock.set_fixed(clock.pr_instant(OCTOBER))
    context, page = _context(browser, lang)
    main = page.locator("main")
    try:
        _sign_in(page, j, lang, STAFF, staff=True)
        page.goto(version_page)
        page.get_by_role("button", name=w["amend"]).click()
        expect(page.locator("#lines-0-financed")).to_have_value("600,000.00")
        page.locator("#lines-0-financed").fill("720,000.00")
        page.get_by_role("button", name=w["save"]).click()
        expect(main).to_contain_text(money(TOTAL_2))
        page.get_by_role("link", name=w["adopt"]).click()
        page.locator("#adopted_on").fill(OCTOBER.isoformat())
        page.locator("label[for=confirm]").click()
        page.locator("main form [type=submit]").click()
        expect(main.get_by_role("button", name=w["amend"])).to_be_visible()
        _compute_and_publish(page, j, lang, version=2, first=False)
    finally:
        context.close()

    # 9. The owner sees the new amount and installments: the ones due before the
    # amendment took effect unchanged, the increase spread over the later ones
    annual_2, installments_2 = _current(j, catastro)
    assert annual_2 > annual_1 and sum(installments_2) == annual_2
    assert installments_2[:4] == installments_1[:4]  # July to October: due before Oct 15
    assert all(new > old for new, old in zip(installments_2[4:], installments_1[4:]))
    owner_context, owner = _context(browser, lang)
    try:
        _sign_in(owner, j, lang, OWNER, staff=False)
        owner.goto(f"{j.url}/propiedad/{pid}")
        expect(owner.locator("main")).to_contain_text(f"{w['year']} {money(annual_2)}")
        assert _schedule(owner) == [money(a) for a in installments_2]
        j.seen(owner, f"{lang}-parcel-amended")
    finally:
        owner_context.close()

    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing() is None:
        errors = vnu_errors(j.pages)
        assert errors == [], "\n".join(errors[:20])
