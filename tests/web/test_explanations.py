"""Each amount's "¿Por qué esta cantidad?" carries its own numbers (Statement.figures()): the
interest its calculation, the costs the certified mail, the total its sum; the payoff is the
statement as of its date. On the page and in the PDF, in both languages."""

from __future__ import annotations

import html as html_lib
import re

import pytest

from portal import clock, i18n
from tests.support.demo import parcel_ids
from tests.support.pages import login


def _amounts(page: str) -> dict[str, tuple[str, str]]:
    """{label: (formatted amount, text of its explanation)} of "What you owe"."""
    block = page.split('<dl class="portal-amounts">', 1)[1].split("</dl>", 1)[0]
    out = {}
    for item in block.split("<div>")[1:]:
        label = re.search(r"<dt>(.*?)</dt>", item, re.S).group(1).strip()
        amount = re.search(r'<span class="portal-money">(.*?)</span>', item).group(1)
        steps = re.findall(r"<li>(.*?)</li>", item, re.S)
        out[html_lib.unescape(label)] = (html_lib.unescape(amount),
                                         html_lib.unescape(re.sub(r"<[^>]+>", "", " ".join(steps))))
    return out


def _section(page: str, heading: str) -> str:
    part = page.split(f">{heading}</h2>", 1)[1].split("<h2", 1)[0]
    return html_lib.unescape(re.sub(r"<[^>]+>", "", part))


WORDS = {
    "es": {"interest": "Intereses a la fecha", "fees": "Cargos por demora",
           "costs": "Costas de cobro", "overdue": "Plazos vencidos (principal)",
           "total": "Total a pagar ahora", "payoff": "Cantidad para saldar",
           "mail": "Correo certificado", "days": "días"},
    "en": {"interest": "Interest to date", "fees": "Late fees", "costs": "Collection costs",
           "overdue": "Overdue installments (principal)", "total": "Total due now",
           "payoff": "Pay-off amount", "mail": "Certified mail", "days": "days"},
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_each_amount_explains_its_own_numbers(demo_app, lang):
    w = WORDS[lang]
    client = login(demo_app, "lessee")
    [pid] = parcel_ids(demo_app)["lessee"]
    page = client.get(f"/propiedad/{pid}?lang={lang}").get_data(as_text=True)
    amounts = _amounts(page)

    amount, why = amounts[w["interest"]]
    # R-A8: principal x days per period, then the rate on their sum, rounded once
    assert re.search(rf"\$[\d,.]+ [^$]*? \d+ {w['days']}", why), why
    assert re.search(r"10% x [\d,.]+ \(.+\) / 365 = \$", why), why
    assert amount in why
    assert "R-A8" in why and "R-A4" not in why

    amount, why = amounts[w["fees"]]
    assert "R-A7" in why and amount in why and "R-A8" not in why

    amount, why = amounts[w["costs"]]
    assert w["mail"] in why and amount in why, why
    assert "certified_mail" not in why

    amount, why = amounts[w["overdue"]]
    assert "R-A6" in why and amount not in ("$0.00",)
    assert why.count("R-A4") == 0  # not the 12-installment schedule

    amount, why = amounts[w["total"]]
    assert f"= {amount}" in why, why
    for label in (w["interest"], w["fees"], w["costs"], w["overdue"]):
        assert amounts[label][0] in why, label
    # No list of every past payment and no schedule under the total.
    assert "R-A4" not in why and "R-A3" not in why

    payoff = _section(page, w["payoff"])
    # today's payoff, then the one good through a later day (interest to it): explained
    today, later = re.findall(r"(\$[\d,]+\.\d\d)", payoff)[:2]
    assert f"= {later}." in payoff and f"= {today}." not in payoff, payoff
    assert re.search(r"10% x [\d,.]+ \(.+\) / 365 = \$", payoff), payoff
    assert "Vencido ahora" not in payoff and "Due now" not in payoff


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_pdf_explains_each_amount_the_same_way(demo_app, lang):
    from portal.documents.statement import statement_document
    from portal.people import users
    from portal.web.accounts import views
    from portal.web.data import uow
    w = WORDS[lang]
    [pid] = parcel_ids(demo_app)["lessee"]
    with demo_app.app_context(), i18n.use_language(lang):
        with uow() as u:
            lessee = users.find_by_email(u, "lessee@demo.pr")
        doc = statement_document(views.parcel_view(lessee, pid, clock.today()))
    rows = {r.label: r for r in doc.rows}
    why = {label: [line.text for line in r.why] for label, r in rows.items()}  # plain words
    assert any(re.search(r"10% x [\d,.]+ \(.+\) / 365 = \$", line)
               for line in why[w["interest"]]), why[w["interest"]]
    assert any(w["mail"] in line for line in why[w["costs"]])
    total = rows[w["total"]]
    assert any(f"= {total.amount}" in line for line in why[w["total"]])
    # the payoff paid today, then good through a later day (explained, interest to it)
    today, payoff = [r for r in doc.rows if r.label.startswith(w["payoff"])]
    assert today.amount != payoff.amount and not today.why
    payoff_why = [line.text for line in payoff.why]
    assert any(f"= {payoff.amount}." in line for line in payoff_why)
    assert not any("Vencido ahora" in line or "Due now" in line for line in payoff_why)
    # each rule is a footnote: its statute named, never a bare rule id in the words
    assert all(line.ref is not None for line in rows[w["interest"]].why)
