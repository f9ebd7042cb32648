"""A reminder received and followed to payment, in a real browser, in Spanish and in English:
the day's reminders are sent on 3 December (7 days before the 10 December last
timely day); the owner's email, read from the outbox folder, is in her language with the
amount and the day; its pay link opens the pay page for that parcel once she signs in, and
its unsubscribe link opens a page with the one-click button; the reminders page and the
pay page stay axe-clean."""

from __future__ import annotations

import re
from datetime import date

import pytest

from portal import clock
from tests.support.browser import REASON, axe_violations, sign_in
from tests.support.clock import at
from tests.support.demo import app_uow
from tests.support.pages import outbox, read_mail

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

DEC_3 = date(2026, 12, 3)
WORDS = {
    "es": {"day": "10 de diciembre de 2026", "settings": "Recordatorios y calendario",
           "stop": "Detener recordatorios", "stopped": "ya no recibirá recordatorios"},
    "en": {"day": "December 10, 2026", "settings": "Reminders and calendar",
           "stop": "Stop reminders", "stopped": "will no longer get payment reminders"},
}


def _send(app, lang: str) -> None:
    from portal.people import users
    from portal.reminders import sending
    from portal.web.data import database
    with app_uow(app) as w:
        users.set_language(w, users.find_by_email(w, "owner@demo.pr").id, lang)
    with app.app_context(), clock.fixed(at(DEC_3, 6)):
        assert sending.run(database(), DEC_3, app.config)["sent"] > 0


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_reminder_is_followed_to_the_pay_page(live, page, lang):
    app, url = live
    w = WORDS[lang]
    _send(app, lang)
    mine = [read_mail(p) for p in outbox(app)]
    mine = [m for m in mine if m["To"] == "owner@demo.pr"]
    assert mine
    msg = mine[0]
    body = msg.get_payload(decode=True).decode()
    assert msg["Content-Language"] == ("es-PR" if lang == "es" else "en-US")
    assert w["day"] in body and re.search(r"\$[\d,]+\.\d\d", body)
    pay = re.search(r"(https?://\S+/pagar\?parcela=(\d+))", body)
    assert pay, body
    sign_in(page, url, "owner", lang)
    page.goto(pay.group(1))
    expect(page).to_have_url(re.compile(r"/pagar\?parcela=" + pay.group(2)))
    assert page.locator("main form").count() > 0
    assert axe_violations(page) == []
    page.goto(f"{url}/cuenta/recordatorios")
    expect(page.locator("h1")).to_have_text(w["settings"])
    assert axe_violations(page) == []
    # the one-click link, opened in a browser with no session
    link = msg["List-Unsubscribe"].strip("<>")
    page.context.clear_cookies()
    page.goto(link)
    page.get_by_role("button", name=w["stop"]).click()
    expect(page.locator("main")).to_contain_text(w["stopped"])
    assert axe_violations(page) == []
