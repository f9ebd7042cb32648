"""R-B4, R-B20 in a real browser, in Spanish and in English: the demo owner's home is a
housing cooperative's unit whose election of the year the bank recorded; the owner names the
cooperative, the wizard's step then shows the cooperative's election (who recorded it, when)
and asks nothing more; the receipt shows the election as the cooperative's. Every page is
axe-clean. Screenshots to $COOP_SHOTS when set (for review by hand)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from sqlalchemy import select

from tests.support.browser import REASON, axe_violations, htmlcs_errors, shot, sign_in
from tests.support.demo import app_uow, home_parcel
from tests.support.exemption_wizard import lender_records_coop_election

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

COOP = "Cooperativa Jardines del Caribe"
WORDS = {
    "es": {"yes": "Sí", "share": "participación de la unidad", "name": "nombre de la cooperativa",
           "continue": "continuar", "on_record": "La elección de la cooperativa está registrada",
           "elected": f"{COOP} eligió: La exoneración residencial, unidad por unidad"},
    "en": {"yes": "Yes", "share": "The unit's share", "name": "housing cooperative's name",
           "continue": "continue", "on_record": "The cooperative's election is on record",
           "elected": f"{COOP} elected: The residential exemption, unit by unit"},
}


def _clean(page) -> None:  # noqa: ANN001
    assert axe_violations(page) == [], page.url
    assert htmlcs_errors(page) == [], page.url


def _draft_to_the_cooperative_step(app, pid: int) -> tuple[int, str]:  # noqa: ANN001
    """The bank's record of the cooperative's election, and the owner's draft answered up to
    the cooperative step (through the service, as the wizard's pages do); (draft id, bank)."""
    from portal.exemptions import filings
    from portal.models import OwnershipShare, User
    bank = lender_records_coop_election(app, COOP, "residential")
    with app_uow(app) as w:
        owner = w.session.scalar(select(User).where(User.email == "owner@demo.pr"))
        maria = w.session.scalar(select(OwnershipShare.party_id).where(
            OwnershipShare.parcel_id == pid))
        cert = filings.start(w, owner, pid)
        for step, data in (("owners", {"owners": [maria]}),
                           ("occupants", {"occupants": "María Rivera Ortiz (dueña)"}),
                           ("use", {"use": "home"}), ("rent", {"rent": "no"}),
                           ("residential", {"residential": "all"}),
                           ("veteran", {"veteran": "no"})):
            filings.save_step(w, owner, cert.id, step, data)
        return cert.id, bank


def _file(app, cid: int) -> None:  # noqa: ANN001
    from portal.exemptions import filings
    from portal.models import User
    with app_uow(app) as w:
        owner = w.session.scalar(select(User).where(User.email == "owner@demo.pr"))
        filings.save_step(w, owner, cid, "debt", {"plan": "pay_in_full"})
        filings.file(w, owner, cid, attested=True, full_name="María Rivera Ortiz",
                     language=None)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_cooperatives_election_on_record_in_the_wizard_and_the_receipt(live, page, lang):
    app, url = live
    w = WORDS[lang]
    pid = home_parcel(app)
    cid, bank = _draft_to_the_cooperative_step(app, pid)
    sign_in(page, url, "owner", lang)
    page.goto(f"{url}/exoneracion/{cid}/paso/cooperativa")
    main = page.locator("main")
    main.locator("label", has_text=re.compile(f"^{w['yes']}$")).first.click()
    main.get_by_label(re.compile(w["share"])).fill("0.025")
    main.get_by_label(re.compile(w["name"])).fill("cooperativa jardines del caribe")
    shot(page, f"coop-step-named-{lang}", "COOP_SHOTS")
    main.get_by_role("button", name=re.compile(w["continue"])).click()
    page.wait_for_url("**/deuda")
    page.goto(f"{url}/exoneracion/{cid}/paso/cooperativa")
    box = page.get_by_test_id("coop-on-record")
    expect(box).to_contain_text(w["on_record"])
    expect(box).to_contain_text(bank)
    assert page.locator("input[name=coop_election]").count() == 0
    _clean(page)
    shot(page, f"coop-step-on-record-{lang}", "COOP_SHOTS")
    _file(app, cid)
    page.goto(f"{url}/exoneracion/{cid}/recibo")
    expect(page.locator("main")).to_contain_text(w["elected"])
    expect(page.locator("main")).to_contain_text(bank)
    _clean(page)
    shot(page, f"coop-receipt-{lang}", "COOP_SHOTS")
    pdf = page.request.get(f"{url}/exoneracion/{cid}/recibo.pdf")
    assert pdf.ok and pdf.body().startswith(b"%PDF")
    if os.environ.get("COOP_SHOTS"):  # the receipt's PDF, for a look by hand
        (Path(os.environ["COOP_SHOTS"]) / f"coop-receipt-{lang}.pdf").write_bytes(pdf.body())
