"""Autopay in a real browser, in Spanish and English: the demo owner saves
a card on the sandbox's setup page (a card that will be declined), turns on autopay for
each installment, the day's task runs on the installment's due date (the clock set to it):
the debit fails, the page says so with a link to pay, staff see the failure; the owner
cancels, saves a good card, turns autopay on again, and the next day's run pays it (the one
retry). Every page is axe-clean."""

from __future__ import annotations

from datetime import date

import pytest

from portal import clock
from tests.support.browser import REASON, axe_violations, sign_in

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

DEC_1 = date(2026, 12, 1)
WORDS = {"es": {"on": "El pago automático está activado", "failed": "Falló",
                "paid": "Pagado", "pay_now": "Páguelo ahora"},
         "en": {"on": "Autopay is on", "failed": "Failed", "paid": "Paid",
                "pay_now": "Pay it now"}}


def _clean(page) -> None:  # noqa: ANN001
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"


def _parcel(app) -> int:  # noqa: ANN001
    """An owner's parcel with an installment falling due on 1 December and no lender's
    escrow."""
    from portal.db import UnitOfWork
    from portal.models import Parcel
    from portal.payments.autopay import enrolments
    from portal.web.data import database
    from tests.support.demo import parcel_ids
    with app.app_context(), UnitOfWork(database()) as w:
        for pid in parcel_ids(app)["owner"]:
            parcel = w.session.get(Parcel, pid)
            found = enrolments.account_offer(w, parcel, DEC_1)
            if found is None or enrolments.escrow_reported(w, pid, found[0].id):
                continue
            if any(o.due_date == DEC_1 for o in found[1].installments):
                return pid
    raise AssertionError("no owner's parcel with an installment due on 1 December")


def _run_day(app, day: date) -> dict:  # noqa: ANN001
    from portal.payments import gateway_settings
    from portal.payments.autopay import debits
    from portal.web.data import database
    with app.app_context(), clock.fixed(day):
        db = database()
        return debits.run_day(db, day, gateway=gateway_settings.gateway(app.config, db),
                              config=app.config)


def _save(page, url: str, pid: int, outcome: str) -> None:  # noqa: ANN001
    page.goto(f"{url}/propiedad/{pid}/pago-automatico")
    page.locator(f"form[action$='/propiedad/{pid}/pago-automatico/metodo'] button").click()
    page.wait_for_url("**/pagos/prueba/metodo/**")
    page.wait_for_load_state()
    _clean(page)
    page.locator(f"button[name=outcome][value={outcome}]").click()
    page.wait_for_url(f"**/propiedad/{pid}/pago-automatico")
    page.wait_for_load_state()


def _enrol(page, method_value: str | None = None) -> None:  # noqa: ANN001
    # USWDS draws the radio in its label: a person clicks the label.
    if method_value:
        radio = page.locator(f"input[name=method][value='{method_value}']")
        page.locator(f"label[for='{radio.get_attribute('id')}']").click()
    page.locator("label[for='plan-installments']").click()
    page.locator("form.usa-form button[type=submit]").click()
    page.wait_for_load_state()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_enrol_fail_cancel_and_pay(live, page, lang):  # noqa: ANN001
    app, url = live
    w = WORDS[lang]
    pid = _parcel(app)
    sign_in(page, url, "owner", lang)
    page.goto(f"{url}/propiedad/{pid}/pago-automatico")
    _clean(page)
    _save(page, url, pid, "card_declines")
    _clean(page)
    _enrol(page)
    expect(page.locator("[data-autopay=on]")).to_contain_text(w["on"])
    expect(page.locator("[data-figure=autopay-next]")).to_be_visible()
    _clean(page)
    # 1 December: the debit of the installment due that day is declined.
    assert _run_day(app, DEC_1).get("failed") == 1
    page.reload()
    row = page.locator("tr[data-debit=failed]")
    expect(row).to_contain_text(w["failed"])
    expect(row.get_by_role("link", name=w["pay_now"])).to_be_visible()
    _clean(page)
    # Staff see the failure.
    staff = page.context.browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        sp = staff.new_page()
        sign_in(sp, url, "staff", lang)
        sp.goto(f"{url}/personal/pago-automatico")
        expect(sp.locator("[data-failure]").first).to_be_visible()
        _clean(sp)
    finally:
        staff.close()
    # Cancel, save a good card, turn autopay on again with it.
    page.locator(f"form[action$='/propiedad/{pid}/pago-automatico/cancelar'] button").click()
    page.wait_for_load_state()
    expect(page.locator("[data-autopay=on]")).to_have_count(0)
    _clean(page)
    _save(page, url, pid, "card")
    good = page.locator("input[name=method]").last.get_attribute("value")
    _enrol(page, good)
    expect(page.locator("[data-autopay=on]")).to_be_visible()
    # 2 December: the one retry, with the good card, pays it.
    assert _run_day(app, date(2026, 12, 2)).get("posted") == 1
    page.reload()
    expect(page.locator("tr[data-debit=succeeded]")).to_contain_text(w["paid"])
    _clean(page)
    page.goto(f"{url}/cuenta/metodos-de-pago")
    expect(page.locator("tr[data-method=card]")).to_have_count(2)
    _clean(page)
