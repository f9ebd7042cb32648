"""Paying without an account in a real browser, in Spanish and in English:
the QR code printed on a parcel's assessment notice opens its pay page (the link the code
carries is read from the notice's view data); the guest chooses an installment, gives an
email, reviews, pays in the sandbox by card and lands on the receipt, which is also emailed.
Every page clean under axe."""

from __future__ import annotations

import re
from email import message_from_bytes
from email.policy import default as email_policy
from pathlib import Path

import pytest

from tests.support.browser import REASON, axe_violations

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"title": "Pagar sin cuenta", "email": "Correo electrónico para el recibo",
           "review": "Revisar el pago", "card": "Pagar con tarjeta: el pago se completa",
           "receipt": "Recibo de pago", "switch": "English"},
    "en": {"title": "Pay without an account", "email": "Email for the receipt",
           "review": "Review the payment", "card": "Pay by card: the payment succeeds",
           "receipt": "Payment receipt", "switch": "English"},
}


def _notice_link(app) -> tuple[str, str]:  # noqa: ANN001
    """(catastro, the link the QR code of its assessment notice carries), from the notice's
    view data (`roll.notices.document`)."""
    from sqlalchemy import select

    from portal.i18n import use_language
    from portal.models import Assessment, Notice, Parcel, User
    from portal.roll import notices
    from tests.support.demo import app_uow
    catastro = app.config["DEMO"].codes[0][0]
    with app_uow(app) as w:
        pid, roll_id = w.session.execute(
            select(Parcel.id, Assessment.roll_id).join(Notice, Notice.parcel_id == Parcel.id)
            .join(Assessment, Assessment.id == Notice.assessment_id)
            .where(Parcel.catastro == catastro).order_by(Notice.id.desc())).first()
        staff = w.session.scalar(select(User).where(User.email == "staff@demo.pr"))
        f, state, printed_on = notices.staff_notice(w, staff, roll_id, pid)
    with use_language("es"):
        doc = notices.document(f, app.config["PORTAL_BASE_URL"], state, None, printed_on,
                               secret=app.config["SECRET_KEY"])
    return catastro, doc.code.data


def _clean(page) -> None:  # noqa: ANN001
    assert axe_violations(page) == [], page.url


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_guest_pays_from_the_notices_qr_link_to_the_receipt(live, page, lang):
    app, url = live
    w = WORDS[lang]
    catastro, link = _notice_link(app)
    assert link.startswith(f"{url}/pagar-sin-cuenta/enlace/")
    if lang == "en":  # the visitor's choice of language, as the header's switch makes it
        page.goto(url)
        page.locator("header").get_by_role("button", name=w["switch"]).click()
        page.wait_for_load_state("load")
    page.goto(f"{url}/pagar-sin-cuenta")  # the code form, and a changed link's page
    _clean(page)
    page.goto(link[:-3] + "xyz")
    expect(page.locator("main .usa-alert--warning")).to_be_visible()
    _clean(page)
    page.goto(link)
    page.wait_for_url("**/pagar-sin-cuenta/pagar")
    expect(page.locator("h1")).to_have_text(w["title"])
    expect(page.locator("main")).to_contain_text(catastro)
    expect(page.locator("main a[href^='/propiedad/']")).to_have_count(0)
    _clean(page)
    radio = page.locator("main input[type=radio][value^='through-']").first
    page.locator(f"label[for='{radio.get_attribute('id')}']").click()  # USWDS: the label
    expect(radio).to_be_checked()
    page.get_by_label(w["email"]).fill("visita@example.com")
    page.get_by_role("button", name=w["review"]).click()
    page.wait_for_url("**/pagar-sin-cuenta/revisar")
    _clean(page)
    page.locator("main form button.usa-button--big").click()
    page.wait_for_url("**/pagos/prueba/**")
    _clean(page)
    page.get_by_role("button", name=w["card"]).click()
    page.wait_for_url("**/pagar-sin-cuenta/pagos/*/recibo")
    expect(page.locator("h1")).to_contain_text(w["receipt"])
    expect(page.locator("main")).to_contain_text(catastro)
    expect(page.locator("main")).to_contain_text("visita@example.com")
    _clean(page)
    folder = Path(app.config["OUTBOX_DIR"])
    mails = [message_from_bytes(p.read_bytes(), policy=email_policy)
             for p in sorted(folder.glob("*.eml"))]
    sent = [m for m in mails if m["To"] == "visita@example.com"]
    assert sent and re.search(re.escape(catastro), sent[-1].get_body(("plain",)).get_content())
