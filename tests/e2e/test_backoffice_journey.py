"""The back office in a real browser, in Spanish and in English: the staff search
finds an accented owner typed without accents and opens the parcel; the review in bulk shows
the outlier flagged, chooses every certification of the page and approves them; the aging
report shows its figures. Every page clean under axe-core, HTML_CodeSniffer and the Nu HTML
Checker, with no sideways scroll at 1,280 and 375 px (`BACKOFFICE_SHOTS=<folder>` keeps
screenshots)."""

from __future__ import annotations

from datetime import date

import pytest

from tests.support.browser import REASON, clean_at_widths, sign_in
from tests.support.html import vnu_errors, vnu_missing

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"search": "Buscar en el padrón, las cuentas, los arrendatarios, los préstamos y "
                     "las radicaciones",
           "button": "Buscar", "parcels": "Propiedades (número de catastro o dueño)",
           "bulk": "Revisar certificaciones en lote", "all": "Escoger todas las certificaciones",
           "approve": "Aprobarlas", "decide": "Decidir las certificaciones escogidas",
           "decided": "Se decidieron 2 certificaciones.", "check": "Revísela",
           "aging": "Antigüedad de los plazos sin pagar"},
    "en": {"search": "Search the roll, accounts, lessees, loans and filings",
           "button": "Search", "parcels": "Parcels (catastro number or owner)",
           "bulk": "Review certifications in bulk", "all": "Choose every certification",
           "approve": "Approve them", "decide": "Decide the chosen certifications",
           "decided": "2 certifications were decided.", "check": "Check it",
           "aging": "Aging of unpaid installments"},
}


def _prepare(app) -> str:  # noqa: ANN001
    """Two certifications the demo's bank filed (one with an absurd valuation); an accented
    owner's name of the demo, without its accents."""
    from sqlalchemy import and_, select

    from portal.db import UnitOfWork
    from portal.models import ExemptionCertification, Loan, Party, PropertyTaxFact, User
    from portal.web.data import database
    fy = date(2026, 7, 1)
    with app.app_context(), UnitOfWork(database()) as w:
        s = w.session
        bank = s.scalar(select(User).where(User.email == "lender@demo.pr"))
        loans = list(s.scalars(select(Loan).join(PropertyTaxFact, and_(
            PropertyTaxFact.parcel_id == Loan.parcel_id,
            PropertyTaxFact.fiscal_year_start == fy)).order_by(Loan.id).limit(2)))
        for n, loan in enumerate(loans):
            s.add(ExemptionCertification(
                parcel_id=loan.parcel_id, fiscal_year_start=fy, status="filed",
                created_by_id=bank.id, loan_id=loan.id, filed_on=date(2026, 11, 20),
                filing_number=f"EX-E2E-{n}", answers={
                    "residential": "valuation",
                    "residential_valuation": "1000000000.00" if n else "1000.00"}))
        name = next(n for n in s.scalars(select(Party.name).where(Party.kind == "person"))
                    if "ñ" in n or "í" in n or "á" in n)
    return name.translate(str.maketrans("áéíóúñÁÉÍÓÚÑ", "aeiounAEIOUN")).lower()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_search_bulk_review_and_aging(live, page, lang, tmp_path):
    app, url = live
    pages = []

    def check(name: str) -> None:
        clean_at_widths(page, f"{lang}-{name}", "BACKOFFICE_SHOTS")
        f = tmp_path / f"{lang}-{name}.html"
        f.write_text(page.content(), encoding="utf-8")
        pages.append(f)

    w = WORDS[lang]
    plain = _prepare(app)
    sign_in(page, url, "staff", lang)
    page.goto(f"{url}/personal/buscar")
    page.get_by_role("link", name=w["search"]).click()
    main = page.locator("main")
    page.locator("#q").fill(plain)
    main.get_by_role("button", name=w["button"]).click()
    expect(main.get_by_role("heading", name=w["parcels"])).to_be_visible()
    check("search")
    main.locator("section[data-kind=parcels] a[href^='/propiedad/']").first.click()
    page.wait_for_url("**/propiedad/*")

    page.goto(f"{url}/personal/exoneraciones")
    page.get_by_role("link", name=w["bulk"]).click()
    expect(main.locator("tr[data-flags]")).to_have_count(1)
    expect(main).to_contain_text(w["check"])
    check("bulk")
    main.get_by_role("link", name=w["all"]).click()
    main.locator("label[for=action-0]").click()  # USWDS draws the radio on its label
    main.get_by_role("button", name=w["decide"]).click()
    expect(page.locator("body")).to_contain_text(w["decided"])
    check("bulk-decided")

    page.goto(f"{url}/personal/informes/morosidad")
    expect(main.get_by_role("heading", name=w["aging"], level=1)).to_be_visible()
    expect(main.locator("[data-figure=total]")).to_be_visible()
    check("aging")
    if vnu_missing() is None:  # the Nu HTML Checker, where it is installed
        errors = vnu_errors(pages)
        assert errors == [], "\n".join(errors[:20])
