"""J5 in a real browser, in Spanish and English (PRODUCT.md): the demo owner files
the residential-exemption certification for her home with a photo and a PDF, sees the bill
with and without the exemption, gets the receipt; staff returns it, she fixes only the
documents and resubmits, staff approves; she and the lender see it approved. axe-core runs on
every page of the journey (WCAG 2.1 AA). `EXEMPTION_SHOTS=DIR` also saves a screenshot of
each page; `EXEMPTION_WIDTHS=all` runs both languages at 375 and 1,280 px."""

from __future__ import annotations

import email.policy
import os
import re
from pathlib import Path

import pytest

from portal import storage
from tests.support.browser import REASON, axe_violations, htmlcs_errors, second_step

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"start_link": "Comenzar la certificación de exoneración residencial",
           "start": "Comenzar la certificación", "next": "Guardar y continuar",
           "home": "Era la vivienda del dueño o de su familia", "no": "No",
           "all": "Toda", "upload": "Subir", "file": "Radicar la certificación",
           "attest": "Certifico que todo lo que declaré es cierto y completo.",
           "name": "Su nombre completo", "filed": "Radicada", "review": "Comenzar la revisión",
           "reason": "Falta un documento o no se puede leer: súbalo de nuevo.",
           "return": "Devolver al dueño", "fix": "Corregir y volver a enviar",
           "resubmit": "Volver a enviar la certificación", "approve": "Aprobar",
           "approved": "Aprobada", "why": "¿Por qué esta cantidad?",
           "without": "Sin la exoneración residencial", "warning": "multa de $500",
           "pay_in_full": "La pagaré completa dentro de los 30 días",
           "answers": "Sus respuestas", "paid_in_full": "La paga completa dentro de los 30 días"},
    "en": {"start_link": "Start the residential exemption certification",
           "start": "Start the certification", "next": "Save and continue",
           "home": "It was the home of the owner or the family", "no": "No",
           "all": "All of it", "upload": "Upload", "file": "File the certification",
           "attest": "I certify that everything I stated is true and complete.",
           "name": "Your full name", "filed": "Filed", "review": "Start the review",
           "reason": "A document is missing or cannot be read: upload it again.",
           "return": "Return to the owner", "fix": "Fix and resubmit",
           "resubmit": "Resubmit the certification", "approve": "Approve",
           "approved": "Approved", "why": "Why this amount?",
           "without": "Without the residential exemption", "warning": "$500 fine",
           "pay_in_full": "I will pay it in full within the 30 days",
           "answers": "Your answers", "paid_in_full": "Pays in full within the 30 days"},
}


@pytest.fixture(autouse=True)
def _store(tmp_path):  # noqa: ANN001, ANN202
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


def _files(tmp_path: Path) -> tuple[Path, Path]:
    from fpdf import FPDF
    from PIL import Image
    photo = tmp_path / "foto-casa.jpg"
    Image.new("RGB", (64, 48), (90, 140, 60)).save(photo, "JPEG")
    doc = FPDF()
    doc.add_page()
    doc.set_font("helvetica", size=12)
    doc.cell(text="Escritura")
    deed = tmp_path / "escritura.pdf"
    deed.write_bytes(bytes(doc.output()))
    return photo, deed


class Journey:
    def __init__(self, page, url: str, lang: str, width: int, shots: str | None):  # noqa: ANN001
        self.page, self.url, self.lang, self.width = page, url, lang, width
        page.set_viewport_size({"width": width, "height": 900})
        self.w = WORDS[lang]
        self.shots = Path(shots) if shots else None
        self.n = 0

    def check(self, name: str) -> None:
        """axe and HTML_CodeSniffer on the page, no sideways scrolling (and a screenshot
        when asked)."""
        self.page.wait_for_load_state()
        violations = axe_violations(self.page)
        assert violations == [], f"{self.page.url}: {violations}"
        errors = htmlcs_errors(self.page)  # a second engine (tests/e2e/test_htmlcs.py)
        assert errors == [], f"{self.page.url}: {errors}"
        wide = self.page.evaluate("() => document.documentElement.scrollWidth > innerWidth")
        assert not wide, f"{self.page.url}: wider than the {self.width} px screen"
        if self.shots:
            self.shots.mkdir(parents=True, exist_ok=True)
            self.n += 1
            self.page.screenshot(path=str(
                self.shots / f"{self.lang}-{self.width}-{self.n:02d}-{name}.png"), full_page=True)

    def sign_in(self, email: str, staff: bool = False) -> None:
        p = self.page
        p.context.clear_cookies()
        p.goto(f"{self.url}/cuenta/entrar?lang={self.lang}")
        p.locator("#email").fill(email)
        p.locator("#password").fill("Distrito2026!")
        p.locator("main form [type=submit]").first.click()
        if staff:
            second_step(p)
        p.wait_for_load_state()

    def choose(self, box) -> None:  # noqa: ANN001
        """Check a USWDS radio or checkbox by its label (the input itself is hidden)."""
        self.page.locator(f"label[for='{box.get_attribute('id')}']").click()

    def press(self, button) -> None:  # noqa: ANN001
        """Press a form's button and wait for the page it leads to."""
        with self.page.expect_navigation():
            button.click()
        self.page.wait_for_load_state()

    def next(self) -> None:
        self.press(self.page.get_by_role("button", name=self.w["next"]))

    def upload(self, path: Path) -> None:
        self.page.locator("#file").set_input_files(str(path))
        self.press(self.page.get_by_role("button", name=self.w["upload"], exact=True))
        expect(self.page.locator("main")).to_contain_text(path.name)


#: Spanish on a phone, English on a desktop (EXEMPTION_WIDTHS=all: both widths each).
WIDTHS = ([("es", 375), ("en", 1280)] if os.environ.get("EXEMPTION_WIDTHS") != "all" else
          [(lang, w) for lang in ("es", "en") for w in (375, 1280)])


@pytest.mark.parametrize("lang,width", WIDTHS)
def test_j5_file_return_resubmit_approve(live, page, lang, width, tmp_path):
    app, url = live
    j = Journey(page, url, lang, width, os.environ.get("EXEMPTION_SHOTS"))
    w = j.w
    photo, deed = _files(tmp_path)
    j.sign_in("owner@demo.pr")
    page.goto(f"{url}/mis-propiedades")
    page.locator("main a[href^='/propiedad/']").first.click()
    page.wait_for_load_state()
    j.check("parcel")
    page.get_by_role("link", name=w["start_link"]).click()
    j.check("start")
    j.press(page.get_by_role("button", name=w["start"]))
    j.check("owners")
    j.next()  # the owner on record is checked already
    page.locator("#occupants").fill("María Rivera Ortiz")
    j.check("occupants")
    j.next()
    j.choose(page.get_by_label(w["home"]))
    j.check("use")
    j.next()
    j.choose(page.locator("#rent").get_by_label(w["no"], exact=True))
    j.check("rent")
    j.next()
    j.choose(page.get_by_label(w["all"], exact=True))
    j.check("residential")
    j.next()
    j.choose(page.locator("#veteran").get_by_label(w["no"], exact=True))
    j.check("veteran")
    j.next()
    j.choose(page.locator("#cooperative").get_by_label(w["no"], exact=True))
    j.check("cooperative")
    j.next()
    # R-B11: the home owes the property tax recorded on it (an auction pending): asked
    j.choose(page.get_by_label(w["pay_in_full"]))
    j.check("debt")
    j.next()
    j.upload(photo)
    j.upload(deed)
    j.check("evidence")
    j.next()
    expect(page.locator("main")).to_contain_text(w["without"])
    page.locator("main details summary").first.click()
    j.check("result")
    j.next()
    expect(page.locator("main")).to_contain_text(w["warning"])
    # R-B12: every answer, read before certifying them
    summary = page.get_by_test_id("summary")
    expect(summary.get_by_role("heading", name=w["answers"])).to_be_visible()
    expect(summary).to_contain_text("María Rivera Ortiz")
    expect(summary).to_contain_text(w["paid_in_full"])
    j.press(page.get_by_role("button", name=w["file"]))  # nothing checked nor typed
    expect(page.locator("#error-summary")).to_be_visible()
    j.check("attest-errors")
    j.choose(page.get_by_label(w["attest"]))
    page.get_by_label(w["name"]).fill("María Rivera Ortiz")
    j.check("attest")
    j.press(page.get_by_role("button", name=w["file"]))
    expect(page.locator("main")).to_contain_text(w["filed"])
    number = re.search(r"EXR-\d{4}-\d{6}", page.locator("main").inner_text()).group(0)
    receipt = page.url
    j.check("receipt")
    first = sorted(Path(app.config["OUTBOX_DIR"]).glob("*.eml"))[-2]  # the owner's, then the bank's
    subject = email.message_from_bytes(first.read_bytes(), policy=email.policy.default)["Subject"]
    assert subject.endswith({"es": "radicada", "en": "filed"}[lang]), subject

    j.sign_in("staff@demo.pr", staff=True)
    page.goto(f"{url}/personal/exoneraciones?lang={lang}")
    j.check("queue")
    page.get_by_role("link", name=number).click()
    j.press(page.get_by_role("button", name=w["review"]))
    j.choose(page.get_by_label(w["reason"]))
    j.check("review")
    j.press(page.get_by_role("button", name=w["return"]))

    j.sign_in("owner@demo.pr")
    page.goto(receipt)
    j.check("returned")
    page.get_by_role("link", name=w["fix"]).click()
    page.wait_for_load_state()
    j.upload(photo.with_name("foto-casa.jpg"))
    j.next()
    j.next()
    j.choose(page.get_by_label(w["attest"]))
    page.get_by_label(w["name"]).fill("María Rivera Ortiz")
    j.press(page.get_by_role("button", name=w["resubmit"]))

    j.sign_in("staff@demo.pr", staff=True)
    page.goto(receipt.replace("/exoneracion/", "/personal/exoneraciones/")
              .replace("/recibo", "") + f"?lang={lang}")
    j.press(page.get_by_role("button", name=w["review"]))
    j.press(page.get_by_role("button", name=w["approve"], exact=True))
    expect(page.locator("main")).to_contain_text(w["approved"])

    j.sign_in("owner@demo.pr")
    page.goto(receipt)
    expect(page.locator("main")).to_contain_text(w["approved"])
    j.sign_in("lender@demo.pr", staff=True)  # (the bank's administrator: two steps)
    page.goto(f"{url}/prestamista/exoneraciones?lang={lang}")
    expect(page.locator("main")).to_contain_text(number)
    j.check("lender")
