"""Every surface shows the same amount for the same figure and day ("Figures that
disagree"), read from the rendered output: the dashboard, the parcel page and the pay page
carry each amount that must be paid by a day as `data-figure` / `data-amount` / `data-by` /
`data-count`, and the statement PDF prints it (pdftotext). For the demo's owner, lessee and
lender, on the demo's day, the first grace day of December (G), the day after it, and the
lump-sum deadline and the demand's last day with the days after them."""

from __future__ import annotations

import re
import subprocess
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest

from portal import clock
from portal.i18n import money, use_language
from tests.support.clock import TODAY
from tests.support.documents import needs_poppler
from tests.support.pages import as_seen, login

ROLES = ("owner", "lessee", "lender")
#: The demo's day, the December installments' due day, their last timely day (G) and after.
FIXED_DAYS = (TODAY, date(2026, 12, 1), date(2026, 12, 10), date(2026, 12, 11))
#: The parcel bought in November whose notice moved installments 1-6 to 1 December.
BOUGHT = "040-000-006-42"

#: The parcel page's first answer (`views.answer`'s kinds).
ANSWERS = ("due", "next", "overdue", "demand", "claimable", "done")
TAG = re.compile(r"<[^>]*\bdata-figure=\"[^\"]*\"[^>]*>")
ATTR = re.compile(r'data-([a-z-]+)="([^"]*)"')


def figures(html: str) -> list[dict[str, str]]:
    """The page's figures: each element's data- attributes (figure, amount, by, count)."""
    return [dict(ATTR.findall(t)) for t in TAG.findall(html)]


def one(html: str, figure: str) -> dict[str, str] | None:
    found = [f for f in figures(html) if f["figure"] == figure]
    assert len(found) <= 1, (figure, found)
    return found[0] if found else None


def dashboard_cards(html: str) -> dict[int, str]:
    """{parcel id: its card's HTML} on the dashboard."""
    cards = [c.split("</li>", 1)[0] for c in html.split("<li>")[1:]]
    return {int(m.group(1)): c for c in cards
            if (m := re.search(r'data-parcel="(\d+)"', c)) is not None}


def pdf_text(data: bytes, tmp_path) -> str:  # noqa: ANN001
    path = tmp_path / "statement.pdf"
    path.write_bytes(data)
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True,
                         text=True, check=True).stdout
    return re.sub(r"\s+", " ", out.replace("\u202f", " ").replace("\u00a0", " "))


def _money(amount: str) -> str:
    """The amount as the Spanish statement prints it (spaces normalised)."""
    with use_language("es"):
        text = money(Decimal(amount))
    return re.sub(r"\s+", " ", text.replace("\u202f", " ").replace("\u00a0", " "))


class SignedIn:
    """The signed-in clients of one app by (role, day): a second sign-in on the same clock
    would offer the same authenticator code, which is refused once used (replay)."""

    def __init__(self, app) -> None:  # noqa: ANN001
        self.app = app
        self.clients: dict[tuple[str, date], Any] = {}

    def __call__(self, role: str) -> Any:
        key = (role, clock.today())
        if key not in self.clients:
            self.clients[key] = login(self.app, role)
        return self.clients[key]


def _found_days(signed_in: SignedIn) -> tuple[set[date], set[date]]:
    """(lump-sum deadlines, demands' last days) as the demo's pages give them on its day."""
    lumps: set[date] = set()
    demands: set[date] = set()
    with clock.fixed(TODAY):
        for role in ROLES:
            client = signed_in(role)
            dash = client.get("/mis-propiedades").get_data(as_text=True)
            lumps |= {date.fromisoformat(d) for d in re.findall(
                r'portal-lump".*?<time datetime="([\d-]+)"', dash, re.S)}
            for pid in dashboard_cards(dash):
                a = one(client.get(f"/propiedad/{pid}").get_data(as_text=True), "demand")
                if a is not None and "by" in a:
                    demands.add(date.fromisoformat(a["by"]))
    return lumps, demands


def _check_role(signed_in: SignedIn, role: str, on: date, tmp_path) -> int:  # noqa: ANN001
    checked = 0
    client = signed_in(role)
    cards = dashboard_cards(client.get("/mis-propiedades").get_data(as_text=True))
    assert cards, role
    if role == "lender":  # the lender list's "Due now" is the dashboard's
        loans = client.get("/prestamista/prestamos").get_data(as_text=True)
        listed = {int(f["parcel"]): f["amount"] for f in figures(loans)
                  if f["figure"] == "due-now"}
        assert listed, on
        for pid, card in cards.items():
            due = one(card, "due-now")
            if pid in listed and due is not None:
                assert Decimal(listed[pid]) == Decimal(due["amount"]), (on, pid)
    for pid, card in cards.items():
        due = one(card, "due-now")
        nxt = one(card, "next")
        where = (role, on, pid)
        if due is not None and Decimal(due["amount"]) > 0:
            assert "by" in due, f"{where}: due now has no last day"
        page = client.get(f"/propiedad/{pid}").get_data(as_text=True)
        pay = client.get(f"/pagar?parcela={pid}").get_data(as_text=True)
        answer = next((f for f in figures(page) if f["figure"] in ANSWERS), None)
        assert answer is not None, where
        if answer["figure"] == "due":
            assert (answer["amount"], answer["by"]) == (due["amount"], due["by"]), where
        if answer["figure"] == "next":
            assert nxt is not None, where
            assert (answer["amount"], answer["count"], answer["by"]) == (
                nxt["amount"], nxt["count"], nxt["by"]), where
        if "Página no encontrada" not in pay:
            pay_due, pay_next = one(pay, "due-now"), one(pay, "next")
            if due is not None and Decimal(due["amount"]) > 0:
                assert pay_due is not None, where
                assert (pay_due["amount"], pay_due["by"]) == (due["amount"], due["by"]), where
            assert (pay_next is None) == (nxt is None), where
            if nxt is not None:
                assert pay_next == nxt, where
        statement = client.get(f"/propiedad/{pid}/estado-de-cuenta.pdf")
        if statement.status_code == 200 and statement.mimetype == "application/pdf":
            text = pdf_text(statement.data, tmp_path)
            if due is not None and Decimal(due["amount"]) > 0:
                assert _money(due["amount"]) in text, where
            if answer["figure"] == "next":
                assert _money(answer["amount"]) in text, where
                if int(answer["count"]) > 1:
                    assert f"{answer['count']} plazos" in text, where
        checked += 1
    return checked


@needs_poppler
def test_every_surface_shows_one_figure_with_its_day(demo_app, tmp_path):
    signed_in = SignedIn(demo_app)
    lumps, demands = _found_days(signed_in)
    assert lumps and demands, "the demo has an open lump sum and a demand in its window"
    days = set(FIXED_DAYS) | lumps | demands
    for on in sorted(days | {d + timedelta(days=1) for d in lumps | demands}):
        with clock.fixed(on):
            for role in ROLES:
                assert _check_role(signed_in, role, on, tmp_path) > 0, (role, on)


def test_installments_moved_to_one_day_are_one_payment_with_their_count(demo_app):
    """040-000-006-42: installments 1-6 all fall due on 1 December. Before it, the next
    payment is all six with their last timely day, on the dashboard, the parcel page and
    the pay page alike; from it, what is due now is the same six."""
    client = login(demo_app, "owner")
    dash = client.get("/mis-propiedades").get_data(as_text=True)
    [(pid, card)] = [(p, c) for p, c in dashboard_cards(dash).items() if BOUGHT in c]
    nxt = one(card, "next")
    assert nxt is not None and nxt["count"] == "6" and nxt["by"] == "2026-12-10"
    assert "(6 plazos)" in card
    page = client.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert one(page, "next") == nxt
    pay = client.get(f"/pagar?parcela={pid}").get_data(as_text=True)
    assert one(pay, "next") == nxt
    with clock.fixed(date(2026, 12, 4)):
        client = login(demo_app, "owner")
        card = dashboard_cards(client.get("/mis-propiedades").get_data(as_text=True))[pid]
        due = one(card, "due-now")
        assert due is not None and (due["amount"], due["by"]) == (nxt["amount"], nxt["by"])
        page = client.get(f"/propiedad/{pid}").get_data(as_text=True)
        answer = one(page, "due")
        assert answer is not None
        assert (answer["amount"], answer["count"], answer["by"]) == (
            nxt["amount"], "6", "2026-12-10")
        # The collection timeline's sentence names the same amount and all six.
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
        assert f"Pague {_money(nxt['amount'])} a más tardar el 10 de diciembre de 2026 y los " \
               "plazos 1 a 6 quedan al día" in text


@pytest.mark.parametrize("lang", ["es", "en"])
def test_dashboard_due_now_says_its_last_day(demo_app, lang):
    with clock.fixed(date(2026, 12, 4)):
        client = login(demo_app, "owner")
        dash = client.get(f"/mis-propiedades?lang={lang}").get_data(as_text=True)
        due = [one(c, "due-now") for c in dashboard_cards(dash).values()]
        owed = [d for d in due if d is not None and Decimal(d["amount"]) > 0]
        assert owed, "an owner's parcel owes something on 4 December"
        assert all("by" in d for d in owed)
        words = "pague a más tardar el" if lang == "es" else "pay by"
        assert words in dash


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_pay_button_above_the_arrears_says_what_the_rest_is(demo_app, lang):
    """The lessee's parcel is past due and has an installment due now, still on time: the
    button's amount is the arrears plus that installment, and the page says so (4 December:
    the December installment is due, on time until the 10th)."""
    with clock.fixed(date(2026, 12, 4)):
        client = login(demo_app, "lessee")
        [pid] = dashboard_cards(client.get("/mis-propiedades").get_data(as_text=True))
        page = as_seen(client.get(f"/propiedad/{pid}?lang={lang}").get_data(as_text=True))
    answer = one(page, "overdue") or one(page, "demand") or one(page, "claimable")
    rest = one(page, "due-not-late")
    assert answer is not None and rest is not None
    button = re.search(r"(?:Pagar|Pay) (\$[\d,]+\.\d\d)", page)
    assert button is not None
    total = Decimal(answer["amount"]) + Decimal(rest["amount"])
    with use_language(lang):
        assert button.group(1) == money(total)
        words = ("El botón paga" if lang == "es" else "The button pays")
        assert f"{words} {money(total)}" in page
