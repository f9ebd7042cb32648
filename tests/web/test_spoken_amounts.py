"""the answer-first figures carry their words for a screen reader."""

import re
from datetime import date
from decimal import Decimal

import pytest

from portal import clock, i18n
from portal.web import spoken
from tests.support.pages import login
from tests.web.test_surfaces_agree import dashboard_cards, one


@pytest.mark.parametrize(("amount", "lang", "words"), [
    ("1475.36", "es", "mil cuatrocientos setenta y cinco dólares con treinta y seis centavos"),
    ("1475.36", "en", "one thousand, four hundred and seventy-five dollars, thirty-six cents"),
    ("1.00", "es", "un dólar"),
    ("21.00", "es", "veintiún dólares"),
    ("0.05", "en", "zero dollars, five cents"),
    ("-12.5", "es", "menos doce dólares con cincuenta centavos"),
    ("-12.5", "en", "minus twelve dollars, fifty cents"),
])
def test_an_amount_is_spelled_in_the_language_asked(amount, lang, words):
    assert i18n.spoken_money(Decimal(amount), lang) == words


def test_the_figure_is_for_the_eye_and_the_words_for_the_ear():
    with i18n.use_language("es"):
        html = str(spoken.money_aloud(Decimal("1200.50")))
    words = "mil doscientos dólares con cincuenta centavos"
    assert html == (f'<span aria-hidden="true">$1,200.50</span>'
                    f'<span class="usa-sr-only">{words}</span>')


def test_no_amount_is_a_dash_without_words():
    with i18n.use_language("en"):
        assert spoken.money_aloud(None) == "—"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_answer_first_figures_carry_their_words(demo_app, lang):
    """The dashboard's amount due now and the parcel page's answer and pay button: each
    figure shown is followed by its words, in the page's language."""
    with clock.fixed(date(2026, 12, 4)):
        client = login(demo_app, "lessee")
        dash = client.get(f"/mis-propiedades?lang={lang}").get_data(as_text=True)
        [(pid, card)] = dashboard_cards(dash).items()
        page = client.get(f"/propiedad/{pid}?lang={lang}").get_data(as_text=True)
    due = one(card, "due-now")
    assert due is not None and Decimal(due["amount"]) > 0
    assert said(due["amount"], lang) in card
    answer = one(page, "overdue") or one(page, "demand") or one(page, "claimable")
    assert answer is not None
    assert said(answer["amount"], lang) in page
    button = re.search(r'class="usa-button"[^>]*>(?:Pagar|Pay) (.*?)</a>', page)
    assert button is not None and '<span class="usa-sr-only">' in button.group(1)


def said(amount: str, lang: str) -> str:
    return f'<span class="usa-sr-only">{i18n.spoken_money(Decimal(amount), lang)}</span>'
