"""Every surface shows the same amount for the same figure and day ("Figures that
disagree"), read from the rendered output: the dashboard, the parcel page and the pay page
carry each amount that must be paid by a day as `data-figure` / `data-amount` / `data-by` /
`data-count`, and the statement PDF prints it (pdftotext). For the demo's owner, lessee and
lender, on the demo's day, the first grace day of December (G), the day after it, and the
lump-sum deadline and the demand's last day with the days after them: the dashboard, the
parcel page, the pay page, the statement PDF, the lender's list and its API (`GET
/api/v1/loans`), the reminder emails of that day (installments, lump sum, the demand's last
day), and the owner's payoff certificate good through the page's day; and the receipt of a
payment says what the pages say is left."""

from __future__ import annotations

import csv
import re
import subprocess
from collections import Counter
from datetime import date, timedelta
from decimal import Decimal
from email.header import decode_header, make_header
from typing import Any

import pytest

from portal import clock
from portal.i18n import date_long, gettext, money, use_language
from portal.reminders import sending
from portal.web.data import database
from tests.support.clock import TODAY, at
from tests.support.documents import needs_poppler
from tests.support.lenders import new_token
from tests.support.pages import ROLES as EMAILS
from tests.support.pages import as_seen, csrf_token, login, outbox, read_mail
from tests.support.payments import pay_in_sandbox

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


CATASTRO = re.compile(r"\b\d{3}-\d{3}-\d{3}-\d{2}\b")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u202f", " ").replace("\u00a0", " ")).strip()


def _said(lang: str, msgid: str, **values: Any) -> str:
    """A catalog sentence as `lang` words it: dates long, Decimals as money."""
    with use_language(lang):
        shown = {k: (date_long(v) if isinstance(v, date) else
                     money(v) if isinstance(v, Decimal) else v) for k, v in values.items()}
        return _norm(gettext(msgid, **shown))


def _mail(path) -> tuple[str, str, str, str]:  # noqa: ANN001
    """(to, language, subject, plain text) of an email in the outbox."""
    msg = read_mail(path)
    part = next(p for p in msg.walk() if p.get_content_type() == "text/plain")
    body = part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
    lang = "en" if str(msg["Content-Language"]).startswith("en") else "es"
    subject = str(make_header(decode_header(str(msg["Subject"]))))
    return str(msg["To"]), lang, _norm(subject), _norm(body)


def _pattern(lang: str, msgid: str) -> re.Pattern[str]:
    """A catalog sentence with each %(name)s a named group."""
    with use_language(lang):
        text = _norm(gettext(msgid))
    text = re.escape(text).replace(r"%\(amount\)s", r"(?P<amount>\$[\d,]+\.\d\d)")
    return re.compile(text.replace(r"%\(day\)s", r"(?P<day>.+?)"))


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


def _check_role(signed_in: SignedIn, role: str, on: date, tmp_path,  # noqa: ANN001
                seen: dict[int, tuple[str, str]]) -> int:
    """The role's dashboard, parcel pages, pay pages and statements agree on `on`; `seen`
    gets {parcel id: (its dashboard card, its parcel page)} for the emails and the API."""
    checked = 0
    client = signed_in(role)
    cards = dashboard_cards(client.get("/mis-propiedades").get_data(as_text=True))
    assert cards, role
    if role == "lender":  # the lender list's "Due now" and its last day are the dashboard's
        loans = client.get("/prestamista/prestamos").get_data(as_text=True)
        listed = {int(f["parcel"]): f for f in figures(loans) if f["figure"] == "due-now"}
        assert listed, on
        for pid, card in cards.items():
            due = one(card, "due-now")
            if pid in listed and due is not None:
                row = listed[pid]
                assert Decimal(row["amount"]) == Decimal(due["amount"]), (on, pid)
                assert row.get("by") == due.get("by"), (on, pid)
                if "by" in row:  # said in the reader's words, not only in the attribute
                    with use_language("es"):
                        shown = date_long(date.fromisoformat(row["by"]))
                    assert f'datetime="{row["by"]}">{shown}</time>' in loans, (on, pid)
        csv_rows = list(csv.reader(client.get("/prestamista/prestamos.csv").get_data(
            as_text=True).lstrip("\ufeff").splitlines()))
        by_catastro = {r[1]: r for r in csv_rows[1:]}
        for pid, card in cards.items():
            due = one(card, "due-now")
            m = CATASTRO.search(card)
            if due is not None and m is not None and m.group(0) in by_catastro:
                assert by_catastro[m.group(0)][7] == due.get("by", ""), (on, pid)
    for pid, card in cards.items():
        due = one(card, "due-now")
        nxt = one(card, "next")
        where = (role, on, pid)
        if due is not None and Decimal(due["amount"]) > 0:
            assert "by" in due, f"{where}: due now has no last day"
        page = client.get(f"/propiedad/{pid}").get_data(as_text=True)
        seen[pid] = (card, page)
        pay = client.get(f"/pagar?parcela={pid}").get_data(as_text=True)
        answer = next((f for f in figures(page) if f["figure"] in ANSWERS), None)
        assert answer is not None, where
        lump = one(card, "lump")
        assert (lump is None) == (one(page, "lump") is None), where
        if lump is not None:
            assert one(page, "lump") == lump, where
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


def _check_api(app, token: str, seen: dict[int, tuple[str, str]], on: date) -> int:  # noqa: ANN001
    """The lender's API (`GET /api/v1/loans`, every page) gives each loan's parcel the due
    now, its last timely day and the next due date of the lender's dashboard."""
    api = app.test_client()
    by_catastro = {m.group(0): card for card, _page in seen.values()
                   if (m := CATASTRO.search(card)) is not None}
    url: str | None = "/api/v1/loans"
    checked = 0
    while url:
        r = api.get(url.replace("http://localhost", ""),
                    headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, (on, r.get_data(as_text=True)[:300])
        body = r.get_json()
        assert body["as_of"] == on.isoformat()
        for item in body["items"]:
            card = by_catastro.get(item["catastro"])
            if card is None:
                continue
            due, nxt = one(card, "due-now"), one(card, "next")
            where = (on, item["catastro"])
            assert Decimal(item["due_now"]) == Decimal(due["amount"] if due else "0"), where
            assert item["due_now_by"] == (due.get("by") if due else None), where  # its last day
            shown = re.search(r'data-figure="next"[^>]*>.*?<time datetime="([\d-]+)"', card, re.S)
            assert item["next_due_date"] == (shown.group(1) if nxt and shown else None), where
            checked += 1
        url = body["next"]
    return checked


def _check_certificates(client, seen: dict[int, tuple[str, str]], on: date,  # noqa: ANN001
                        tmp_path) -> int:  # noqa: ANN001
    """A payoff certificate good through the parcel page's day states the page's amount."""
    checked = 0
    for pid, (_card, page) in seen.items():
        through = one(page, "payoff-through")
        if through is None:
            continue
        form = client.get(f"/propiedad/{pid}/certificados").get_data(as_text=True)
        r = client.post(f"/propiedad/{pid}/certificados", data={
            "csrf_token": csrf_token(form), "good_through": through["by"]})
        assert r.status_code == 303, (on, pid, r.status_code)
        listing = client.get(r.headers["Location"]).get_data(as_text=True)
        urls = re.findall(rf'href="(/propiedad/{pid}/certificados/\d+\.pdf)"', listing)
        latest = max(urls, key=lambda u: int(re.findall(r"\d+", u)[-1]))
        text = pdf_text(client.get(latest).data, tmp_path)
        assert _money(through["amount"]) in text, (on, pid, through)
        with use_language("es"):
            assert _norm(date_long(date.fromisoformat(through["by"]))) in text, (on, pid)
        checked += 1
    return checked


def _check_mails(paths, seen: dict[str, dict[int, tuple[str, str]]],  # noqa: ANN001
                 on: date) -> Counter[str]:
    """Each reminder of the day names the amounts and days the recipient's pages show: the
    demand's last day (what stops the claim by it and today), the lump sum's deadline and
    amount, an installment's last timely day and what pays it then and today."""
    roles = {EMAILS[r]: r for r in ROLES}
    checked: Counter[str] = Counter()
    for path in paths:
        to, lang, subject, body = _mail(path)
        if to not in roles or (m := CATASTRO.search(subject)) is None:
            continue
        found = [(c, p) for c, p in seen[roles[to]].values() if m.group(0) in c]
        if not found:
            continue
        [(card, page)] = found
        where = (on, to, subject)
        today_paid = _pattern(lang, "Paid today: %(amount)s.").search(body)
        stop = _pattern(lang, "Paid on %(day)s, %(amount)s stops the claim in court.").search(body)
        if stop is not None:
            demand = one(page, "demand")
            assert demand is not None, where
            by = date.fromisoformat(demand["by"])
            assert _said(lang, "Paid on %(day)s, %(amount)s stops the claim in court.", day=by,
                         amount=Decimal(demand["stop-by"])) in body, where
            paid_now = Decimal(demand["stop-today"])
            assert paid_now == Decimal(demand["stop-by"]) or today_paid is not None, where
            if today_paid is not None:
                assert today_paid.group("amount") == _said(lang, "%(a)s", a=paid_now), where
            checked["demand"] += 1
            continue
        with use_language(lang):
            late = _norm(gettext("Interest is added for each day after that.")) in body
        amount = _pattern(lang, "Amount to pay on %(day)s: %(amount)s.").search(body)
        if late or amount is None:
            continue
        lump = one(card, "lump")
        if lump is not None and subject.startswith(_said(
                lang, "Parcel %(catastro)s: the lump-sum discount ends %(day)s",
                catastro=m.group(0), day=date.fromisoformat(lump["by"]))):
            figure = lump
        else:  # an installment's: the figure with that last day (due now, or the next) or,
            # past due, the part of due now not late (paid today with the arrears: R-A10)
            figure = next((f for f in (one(card, "due-now"), one(card, "next"),
                                       one(page, "due-not-late"))
                           if f is not None and "by" in f and _said(
                               lang, "%(d)s", d=date.fromisoformat(f["by"]))
                           == amount.group("day")), None)
            assert figure is not None, where
            if figure["figure"] == "due-not-late":
                figure = one(card, "due-now")
        shown = (today_paid or amount).group("amount")
        assert shown == _said(lang, "%(a)s", a=Decimal(figure["amount"])), (where, figure)
        checked["lump" if figure["figure"] == "lump" else "installment"] += 1
    return checked


@needs_poppler
def test_every_surface_shows_one_figure_with_its_day(demo_app, tmp_path):
    signed_in = SignedIn(demo_app)
    lumps, demands = _found_days(signed_in)
    assert lumps and demands, "the demo has an open lump sum and a demand in its window"
    with clock.fixed(TODAY):
        token = new_token(signed_in("lender"))
    days = set(FIXED_DAYS) | lumps | demands
    mailed = len(outbox(demo_app))
    counts: Counter[str] = Counter()
    for on in sorted(days | {d + timedelta(days=1) for d in lumps | demands}):
        seen: dict[str, dict[int, tuple[str, str]]] = {role: {} for role in ROLES}
        with clock.fixed(on):
            for role in ROLES:
                assert _check_role(signed_in, role, on, tmp_path, seen[role]) > 0, (role, on)
            counts["api"] += _check_api(demo_app, token, seen["lender"], on)
            counts["certificates"] += _check_certificates(signed_in("owner"), seen["owner"],
                                                          on, tmp_path)
        with demo_app.app_context(), clock.fixed(at(on, 6)):
            sending.run(database(), on, demo_app.config)
        new = outbox(demo_app)[mailed:]
        mailed += len(new)
        counts += _check_mails(new, seen, on)
    assert all(counts[k] for k in ("api", "certificates", "demand", "lump", "installment")), \
        counts


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


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_receipt_says_what_the_pages_say_is_left(demo_app, lang):
    """4 December: the owner pays installment 1 of the six due on 1 December. The receipt's
    "what is left" (its day, due now, the payoff) is what the dashboard and the parcel page
    show after it."""
    day = date(2026, 12, 4)
    with clock.fixed(at(day, 10)):
        client = login(demo_app, "owner")
        cards = dashboard_cards(client.get("/mis-propiedades").get_data(as_text=True))
        [pid] = [p for p, c in cards.items() if BOUGHT in c]
        before = one(cards[pid], "due-now")
        pay = client.get(f"/pagar?parcela={pid}").get_data(as_text=True)
        key = re.search(rf'name="choice-({pid}-\d+)"', pay).group(1)
        path, _receipt = pay_in_sandbox(client, csrf_token(pay), {f"choice-{key}": "through-1"})
        receipt = client.get(f"{path}?lang={lang}").get_data(as_text=True)
        card = dashboard_cards(client.get("/mis-propiedades").get_data(as_text=True))[pid]
        page = client.get(f"/propiedad/{pid}").get_data(as_text=True)
    left, due, payoff = one(receipt, "left"), one(card, "due-now"), one(page, "payoff")
    assert left is not None and due is not None and payoff is not None
    assert left["by"] == day.isoformat()
    assert 0 < Decimal(left["amount"]) == Decimal(due["amount"]) < Decimal(before["amount"])
    assert Decimal(left["payoff"]) == Decimal(payoff["amount"])
    assert _said(lang, "What is left on this account on %(date)s: %(due)s due now; %(payoff)s "
                 "to pay off the year.", date=day, due=Decimal(left["amount"]),
                 payoff=Decimal(left["payoff"])) in _norm(as_seen(receipt))
