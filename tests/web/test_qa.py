"""QA findings in the web layer, each pinned: the 405 page, addresses, budget lines, headings,
the dashboard's next due date, the menu per role, the Authority's phone, the compact
installment table, and ids parsed only by the access policy."""

from __future__ import annotations

import re
from pathlib import Path

from portal.pdf.authority import issuer
from tests.support.clock import TODAY
from tests.support.demo import parcel_ids
from tests.support.documents import pages_of
from tests.support.pages import login

ROOT = Path(__file__).resolve().parents[2]


def test_405_has_its_own_words(client):
    html = client.post("/mis-propiedades").get_data(as_text=True)
    assert "Página no encontrada" not in html and "Page not found" not in html
    assert "Esta página no puede hacer eso" in html
    html = client.post("/mis-propiedades?lang=en").get_data(as_text=True)
    assert "This page cannot do that" in html


def test_addresses_name_the_town_once(demo_app):
    client = login(demo_app, "owner")
    dash = client.get("/mis-propiedades").get_data(as_text=True)
    assert not re.search(r"PR \d{5}, San Juan", dash)
    pid = parcel_ids(demo_app)["owner"][0]
    page = client.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert not re.search(r"PR \d{5}, San Juan", page)


def test_budget_lines_do_not_repeat_their_kind(demo_app):
    client = login(demo_app, "owner")
    pid = parcel_ids(demo_app)["owner"][0]
    for lang in ("es", "en"):
        page = client.get(f"/propiedad/{pid}?lang={lang}").get_data(as_text=True)
        assert not re.search(r"(\w+): \1:", page), lang
    assert "Operación: seguridad" in client.get(f"/propiedad/{pid}").get_data(as_text=True)


def test_parcel_page_headings_are_not_repeated_and_schedule_is_compact(demo_app):
    client = login(demo_app, "lessee")
    [pid] = parcel_ids(demo_app)["lessee"]
    page = client.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert page.count(">Calendario de plazos<") == 1
    assert page.count("Costas de cobro</h") == 0 and page.count(">Costas de cobro<") == 1
    region = re.search(r'<div[^>]*role="region"[^>]*aria-labelledby="schedule-title[^"]*"'
                       r'[^>]*tabindex="0"', page)
    assert region, "the schedule scrolls inside a named, focusable region"
    table = page.split('id="schedule-title"', 1)[1].split("</table>", 1)[0]
    assert "usa-table--stacked" not in table and "<caption" in table


def test_dashboard_next_due_shows_the_last_timely_day(demo_app):
    html = login(demo_app, "owner").get("/mis-propiedades").get_data(as_text=True)
    assert "(queda 1 día); a tiempo hasta el" in html
    html = login(demo_app, "owner").get("/mis-propiedades?lang=en").get_data(as_text=True)
    assert "(1 day left); on time until" in html


def test_menu_per_role(demo_app):
    lessee = login(demo_app, "lessee").get("/").get_data(as_text=True)
    nav = lessee.split('class="portal-nav"', 1)[1].split("</nav>", 1)[0]
    assert 'href="/arrendamientos/"' in nav
    owner = login(demo_app, "owner").get("/").get_data(as_text=True)
    assert 'href="/arrendamientos/"' not in owner.split('class="portal-nav"', 1)[1]
    staff = login(demo_app, "staff").get("/mis-propiedades").get_data(as_text=True)
    assert "Añadir una propiedad" not in staff
    assert "Añadir una propiedad" in owner


def test_the_authority_phone_is_the_documents_phone(demo_app, tmp_path):
    """One place for the Authority's contact details: the page gives the number
    every PDF prints (portal/pdf/authority.toml)."""
    phone = issuer(TODAY, "es").phone
    client = login(demo_app, "owner")
    html = client.get("/propiedad/reclamar").get_data(as_text=True)
    assert f"Llame a la Autoridad al {phone}" in html
    pid = parcel_ids(demo_app)["owner"][0]
    statement = client.get(f"/propiedad/{pid}/estado-de-cuenta.pdf").data
    words = " ".join(b.text for _w, _h, boxes in pages_of(statement, tmp_path) for b in boxes)
    assert phone in words


def test_no_int_on_url_ids_outside_the_access_policy():
    for path in (ROOT / "portal/web/accounts").glob("*.py"):
        text = path.read_text()
        assert not re.search(r"\bint\((parcel_id|link_id|user_id|pid|value|id)\)", text), path
