"""Property-tax attachment (R-C1–R-C5) in a real browser, in Spanish and in English: staff
open a parcel from /personal/embargos by its catastro number, send the notice form with a
mistake (the error summary), then record a Treasury notice of attachment and see the
core's figures; the owner sees the notice, its 30 days and the demo home's auction minimum
on the parcel page. Every page axe- and HTML_CodeSniffer-clean, at 1,280 and 375 px (no
sideways scroll). Screenshots go to $J9_SHOTS when it is set (for review)."""

from __future__ import annotations

import pytest

# The journeys' checks: axe, HTML_CodeSniffer, no sideways scroll at 1,280 and 375 px, and
# the screenshots to $J9_SHOTS; signing in (staff through the second step).
from tests.support.browser import REASON, clean_at_widths, sign_in

SHOTS = "J9_SHOTS"  # the environment variable naming the screenshots' folder
expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"open": "Abrir la propiedad", "record": "Registrar la notificación de embargo",
           "recorded": "Se registró la notificación de embargo", "catastro": "Número de catastro",
           "years": "Años fiscales adeudados", "taxes": "Contribuciones (principal)",
           "personal": "En persona", "date": "Fecha de la notificación",
           "errors": "Corrija los campos", "section": "Embargo por contribuciones",
           "last": "2 de diciembre de 2026", "home_last": "16 de diciembre de 2026"},
    "en": {"open": "Open the parcel", "record": "Record the notice of attachment",
           "recorded": "The notice of attachment is recorded", "catastro": "Catastro number",
           "years": "Fiscal years owed", "taxes": "Taxes (principal)",
           "personal": "In person", "date": "Notice date",
           "errors": "Please correct the fields", "section": "Property-tax attachment",
           "last": "December 2, 2026", "home_last": "December 16, 2026"},
}
def _parcels(app) -> tuple[int, str, int]:  # noqa: ANN001
    """The owner's second parcel (id, catastro) and the demo home with its debts."""
    from sqlalchemy import select

    from portal.accounts import access
    from portal.db import UnitOfWork
    from portal.models import Parcel, TaxDebt
    from portal.people import users
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        home = w.session.scalar(select(TaxDebt.parcel_id).limit(1))
        other = next(p for p, rel in access.linked_parcels(w, owner)
                     if rel == "owner" and p.id != home)
        return other.id, w.session.get(Parcel, other.id).catastro, home


@pytest.mark.parametrize("lang", ["es", "en"])
def test_staff_record_a_notice_and_the_owner_sees_it(live, page, lang):
    app, url = live
    w = WORDS[lang]
    pid, catastro, home = _parcels(app)
    sign_in(page, url, "staff@demo.pr", lang)
    page.goto(f"{url}/personal/embargos?lang={lang}")
    clean_at_widths(page, f"{lang}-attachments", SHOTS)
    page.get_by_label(w["catastro"]).fill(catastro)
    page.get_by_role("button", name=w["open"]).click()
    page.wait_for_url(f"**/personal/embargos/propiedad/{pid}")
    form = page.locator("form", has=page.get_by_role("button", name=w["record"]))
    form.get_by_label(w["years"]).fill("2024-2025")
    form.get_by_label(w["taxes"]).fill("mil")
    form.locator("label[for=delivery-0]").click()  # USWDS hides the input itself
    form.get_by_label(w["date"]).fill("2026-11-02")
    form.get_by_role("button", name=w["record"]).click()
    expect(page.locator("#error-summary")).to_contain_text(w["errors"])
    clean_at_widths(page, f"{lang}-attachment-error", SHOTS)
    form = page.locator("form", has=page.get_by_role("button", name=w["record"]))
    form.get_by_label(w["taxes"]).fill("1,000.00")
    form.get_by_role("button", name=w["record"]).click()
    expect(page.locator("main")).to_contain_text(w["recorded"])
    # R-C3: 10 % of 1,000.00; R-C2: notified 2026-11-02, the last day 2026-12-02.
    expect(page.locator("main")).to_contain_text("$100.00")
    expect(page.locator("main")).to_contain_text(w["last"])
    clean_at_widths(page, f"{lang}-attachment-parcel", SHOTS)
    page.goto(f"{url}/personal/embargos/propiedad/{home}?lang={lang}")
    expect(page.locator("main")).to_contain_text("$3,970.19")
    clean_at_widths(page, f"{lang}-attachment-home", SHOTS)

    sign_in(page, url, "owner@demo.pr", lang)
    page.goto(f"{url}/propiedad/{pid}?lang={lang}")
    section = page.locator("#attachment")
    expect(section).to_contain_text(w["section"])
    expect(section).to_contain_text("$100.00")
    expect(section).to_contain_text(w["last"])
    page.goto(f"{url}/propiedad/{home}?lang={lang}")
    section = page.locator("#attachment")
    expect(section).to_contain_text("$3,970.19")  # the debtor sees the minimum (R-C5)
    expect(section).to_contain_text(w["home_last"])
    section.scroll_into_view_if_needed()
    clean_at_widths(page, f"{lang}-owner-parcel", SHOTS)
