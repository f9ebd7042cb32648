"""R-B4, R-B20 in the owner's wizard, through the web and in both languages: the owner
names the housing cooperative; its election of the year, when on record, is shown (who
recorded it, when) and the unit is filed under it without asking; when none is, the owner
states it and it is recorded as the cooperative's; another election is refused with the
lender rows' reason. The receipt (page and PDF) shows the cooperative's election."""

from __future__ import annotations

import html as html_text
import io
import re

import pytest
from flask import Flask
from pypdf import PdfReader
from sqlalchemy import select

from portal import storage
from tests.support.exemption_wizard import (
    answer,
    ids,
    lender_records_coop_election,
    post,
    start,
)
from tests.support.pages import error_messages, login

COOP = "Cooperativa Jardines del Caribe"

WORDS = {
    "es": {"on_record": "La elección de la cooperativa está registrada",
           "not_recorded": "no está registrada",
           "differs": "ya consta en el registro, y es la otra",
           "election": "La elección de la cooperativa",
           "elected": f"{COOP} eligió: La exoneración residencial, unidad por unidad",
           "by_owner": "El dueño de una de sus unidades, al radicarla, el 30 de noviembre "
                       "de 2026"},
    "en": {"on_record": "The cooperative's election is on record",
           "not_recorded": "is not on record",
           "differs": "is already on record, and it is the other one",
           "election": "The cooperative's election",
           "elected": f"{COOP} elected: The residential exemption, unit by unit",
           "by_owner": "The owner of one of its units, filing that unit, on November 30, "
                       "2026"},
}


@pytest.fixture(autouse=True)
def _store(tmp_path):  # noqa: ANN001, ANN202
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


def _recorded_by_lender(app: Flask, election: str) -> str:
    return lender_records_coop_election(app, COOP, election)


def _to_cooperative(app: Flask, lang: str):  # noqa: ANN202
    home = ids(app)
    owner = login(app, "owner")
    post(owner, "/idioma", {"lang": lang}, page_url="/")
    cid = int(re.search(r"/exoneracion/(\d+)/", start(owner, home["home"])).group(1))
    for slug, data in (("duenos", {"owners": home["maria"]}),
                       ("residentes", {"occupants": "María Rivera Ortiz (dueña)"}),
                       ("uso", {"use": "home"}), ("renta", {"rent": "no"}),
                       ("parte-residencial", {"residential": "all"}),
                       ("veterano", {"veteran": "no"})):
        answer(owner, cid, slug, data)
    return owner, cid


def _file(owner, cid: int) -> str:  # noqa: ANN001
    answer(owner, cid, "deuda", {"plan": "pay_in_full"})
    answer(owner, cid, "evidencia", {})
    answer(owner, cid, "resultado", {})
    return answer(owner, cid, "certificar", {"attest": "y", "full_name": "María Rivera Ortiz"})


def _page(client, url: str) -> str:  # noqa: ANN001
    return html_text.unescape(client.get(url).get_data(as_text=True))


def _pdf_text(owner, cid: int) -> str:  # noqa: ANN001
    pdf = owner.get(f"/exoneracion/{cid}/recibo.pdf").data
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
                    .split())


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_election_on_record_is_shown_and_used_without_asking(demo_app: Flask, lang: str):
    words = WORDS[lang]
    bank = _recorded_by_lender(demo_app, "residential")
    owner, cid = _to_cooperative(demo_app, lang)
    step = _page(owner, f"/exoneracion/{cid}/paso/cooperativa")
    assert 'name="coop_election"' in step  # not named yet: asked only if not on record
    assert answer(owner, cid, "cooperativa", {
        "cooperative": "yes", "unit_share": "0.025",
        "cooperative_name": "cooperativa jardines del caribe"}).endswith("/deuda")
    step = _page(owner, f"/exoneracion/{cid}/paso/cooperativa")
    box = step[step.index('data-testid="coop-on-record"'):]
    assert words["on_record"] in box and bank in box and "2026" in box
    assert 'name="coop_election"' not in step
    receipt = _page(owner, _file(owner, cid))
    assert words["election"] in receipt and bank in receipt
    assert words["elected"] in receipt
    text = _pdf_text(owner, cid)
    assert words["elected"] in text and bank in text


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_first_units_owner_states_it_and_it_is_recorded_as_the_cooperatives(
        demo_app: Flask, lang: str):
    from portal.db import UnitOfWork
    from portal.models import CooperativeElection, User
    from portal.web.data import database
    words = WORDS[lang]
    owner, cid = _to_cooperative(demo_app, lang)
    r = post(owner, f"/exoneracion/{cid}/paso/cooperativa", {
        "cooperative": "yes", "unit_share": "0.025", "cooperative_name": COOP})
    assert r.status_code == 422
    assert any(words["not_recorded"] in m for m in error_messages(
        html_text.unescape(r.get_data(as_text=True))))
    answer(owner, cid, "cooperativa", {"cooperative": "yes", "unit_share": "0.025",
                                       "cooperative_name": COOP,
                                       "coop_election": "residential"})
    with demo_app.app_context(), UnitOfWork(database()) as w:  # not until it is filed
        assert w.session.scalars(select(CooperativeElection)).all() == []
    receipt = _page(owner, _file(owner, cid))
    assert words["elected"] in receipt and words["by_owner"] in receipt
    assert words["by_owner"] in _pdf_text(owner, cid)
    with demo_app.app_context(), UnitOfWork(database()) as w:
        e = w.session.scalars(select(CooperativeElection)).one()
        owner_id = w.session.scalar(select(User.id).where(User.email == "owner@demo.pr"))
        assert (e.cooperative_name, e.election, e.recorded_by_id, e.lender_id) == (
            COOP, "residential", owner_id, None)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_another_election_is_refused_with_the_lender_rows_reason(demo_app: Flask, lang: str):
    words = WORDS[lang]
    _recorded_by_lender(demo_app, "cooperative_law")
    owner, cid = _to_cooperative(demo_app, lang)
    r = post(owner, f"/exoneracion/{cid}/paso/cooperativa", {
        "cooperative": "yes", "unit_share": "0.025", "cooperative_name": COOP,
        "coop_election": "residential"})
    assert r.status_code == 422
    html = html_text.unescape(r.get_data(as_text=True))
    assert any(words["differs"] in m and "R-B4" in m for m in error_messages(html)), \
        error_messages(html)
    assert 'data-testid="coop-on-record"' in html  # the record it differs from, shown
    step = _page(owner, f"/exoneracion/{cid}/paso/cooperativa")
    assert COOP not in step  # nothing stored
