"""The parcel page answers first: the status and the one thing to do next, with
the pay button, before any detail; zero figures summed up, the long details collapsed; the
address formatted once; the error summary of a form sent with errors."""

from __future__ import annotations

import re

import pytest

from portal.i18n import format_address
from tests.support.demo import parcel_ids
from tests.support.pages import as_seen, csrf_token, login


def _pages(app, role: str = "owner", lang: str = "es") -> dict[int, str]:  # noqa: ANN001
    client = login(app, role)
    return {pid: client.get(f"/propiedad/{pid}?lang={lang}").get_data(as_text=True)
            for pid in parcel_ids(app)[role]}


def _first_screen(page: str) -> str:
    """The page's content up to its first detail ("What you owe")."""
    main = page.split('id="main-content"', 1)[1]
    return re.split(r"<h2>(?:Lo que debe|What you owe)</h2>", main, maxsplit=1)[0]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", as_seen(html)))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_status_and_the_pay_button_come_before_the_details(demo_app, lang):
    pages = _pages(demo_app, lang=lang)
    assert pages
    for pid, page in pages.items():
        first = _first_screen(page)
        assert 'id="answer-heading"' in first, pid
        assert f'href="/pagar?parcela={pid}"' in first, pid  # the pay button, at the top
        main = page.split('id="main-content"', 1)[1]
        for later in ('id="schedule"', 'id="budget"'):  # collapsed, after the answer
            assert main.index('id="answer-heading"') < main.index(later)
            assert re.search(rf'<details class="portal-details" {later}>', page), later


def test_the_sentences_say_what_to_do(demo_app):
    texts = [_text(_first_screen(p)) for p in _pages(demo_app).values()]
    past_due = [t for t in texts if "vencidos" in t]
    assert past_due and all(re.search(r"Tiene \$[\d,]+\.\d\d vencidos", t) for t in past_due)
    assert any("Pagar $1,475.36" in t for t in past_due)
    up_to_date = [t for t in texts if "Está al día" in t]
    # Installments 1-6 of the parcel bought in November all fall due on 1 December: one
    # payment of six, with their count.
    assert any(re.search(r"Próximo pago: \$785\.05 \(6 plazos\) a más tardar el 10 de "
                         r"diciembre de 2026", t) for t in up_to_date), up_to_date
    # The lump sum's window closes tomorrow on one parcel: said first, with what it saves.
    lump = [t for t in texts if "Pague todo el año de una vez y ahorre $31.40" in t]
    assert lump and "$1,538.69 a más tardar el 1 de diciembre de 2026 (queda 1 día)" in lump[0]
    assert lump[0].index("ahorre") < lump[0].index("Está al día")
    en = [_text(_first_screen(p)) for p in _pages(demo_app, lang="en").values()]
    assert any("You are up to date. Next payment: $785.05 (6 installments) by December 10, "
               "2026" in t for t in en)
    assert any(re.search(r"You have \$[\d,]+\.\d\d past due", t) for t in en)


def test_zero_figures_are_summed_up_not_listed(demo_app):
    for pid, page in _pages(demo_app).items():
        block = page.split('<dl class="portal-amounts">', 1)[1].split("</dl>", 1)[0]
        listed = re.findall(r"<dt>([^<]+)</dt>\s*<dd><span class=\"portal-money\">([^<]+)<",
                            block)
        assert listed and listed[-1][0] == "Total a pagar ahora", pid
        assert all(amount != "$0.00" for label, amount in listed[:-1]), (pid, listed)
        if len(listed) < 6:
            assert "No se adeuda nada por:" in page, pid


def test_each_why_link_is_named_for_its_amount(demo_app):
    for pid, page in _pages(demo_app).items():
        names = re.findall(r"<summary>¿Por qué esta cantidad\?(.*?)</summary>", page, re.S)
        assert names and all('class="usa-sr-only"' in n for n in names), pid
        assert len(set(names)) == len(names), (pid, names)


def test_the_schedule_stacks_instead_of_scrolling(demo_app):
    page = next(iter(_pages(demo_app).values()))
    table = page.split('class="usa-table usa-table--borderless usa-table--compact portal-schedule"',
                       1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr[^>]*>\s*<th scope=\"row\" data-label=\"Núm.\">", table)
    assert len(rows) == 12
    assert 'data-label="Último día para pagar a tiempo"' in table
    assert "deslice la tabla" not in page


@pytest.mark.parametrize(("address", "municipality", "shown"), [
    ("Calle Tanca 254, Apt. 3B, San Juan, PR 00901", "San Juan",
     "Calle Tanca 254, Apt. 3B, San Juan, PR 00901"),
    ("Calle del Parque 612, PR 00909", "San Juan", "Calle del Parque 612, San Juan, PR 00909"),
    ("Calle San Juan 3, PR 00901", "San Juan", "Calle San Juan 3, San Juan, PR 00901"),
    ("Carr. 2 km 3.4", "Bayamón", "Carr. 2 km 3.4, Bayamón"),
    ("", "Ponce", "Ponce"),
    ("Calle Luna 5", "", "Calle Luna 5"),
])
def test_an_address_names_its_municipality_once(address, municipality, shown):
    assert format_address(address, municipality) == shown


def test_the_pay_page_and_receipts_do_not_repeat_the_municipality(demo_app):
    client = login(demo_app, "owner")
    page = client.get("/pagar").get_data(as_text=True)
    assert "PR 00909, San Juan" not in page and "PR 00901, San Juan" not in page
    assert "Calle del Parque 612, San Juan, PR 00909" in page


def test_the_pay_page_shows_the_open_lump_sum_first(demo_app):
    page = login(demo_app, "owner").get("/pagar").get_data(as_text=True)
    main = page.split('id="main-content"', 1)[1]
    assert 'id="lump-heading"' in main
    assert main.index('id="lump-heading"') < main.index("<fieldset")
    assert "Próximo vencimiento:" in main
    assert "dic 2026)" not in main and "(vence 1 de diciembre de 2026)" in main  # long dates


def test_the_error_summary_lists_and_links_each_error(demo_app):
    client = login(demo_app, "owner")
    page = client.get("/propiedad/reclamar").get_data(as_text=True)
    r = client.post("/propiedad/reclamar", data={"csrf_token": csrf_token(page),
                                                 "catastro": "abc", "code": "x" * 500})
    html = r.get_data(as_text=True)
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()
    assert title.startswith("Error: ")
    summary = html.split('id="error-summary"', 1)[1].split("</ul>", 1)[0]
    links = re.findall(r'<a href="#([^"]+)">([^<]+)</a>', summary)
    assert {target for target, _text in links} == {"catastro", "code"}
    assert "40" in summary  # the code's length is said, not cut (no maxlength)
    assert re.search(r'<div [^>]*id="error-summary"[^>]*tabindex="-1" autofocus', html)
    for target, _text in links:
        field = re.search(rf'<input[^>]*id="{target}"[^>]*>', html).group(0)
        assert 'aria-invalid="true"' in field and "aria-describedby" in field
        assert "maxlength" not in field
