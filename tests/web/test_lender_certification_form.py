"""The lender's form of one certification (R-B13, R-B21): the row of the bulk file as a
form, in both languages; the row's own checks answer at once (nothing recorded), the rest
(the loan, the owners, the core's R-B7) in the batch of one row it files, whose page says
why in the reader's language; only the lender's members post it."""

from __future__ import annotations

from datetime import date, timedelta
from html import unescape

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal import clock
from portal.jobs import queue
from portal.web.data import database
from tests.support.clock import at
from tests.support.demo import app_uow
from tests.support.pages import csrf_token, login
from tests.web.test_lender_batches import good_rows

FORM = "/prestamista/certificaciones/una"


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def _data(row: dict[str, str], page: str, **changes: str) -> dict[str, str]:
    data = {k: v for k, v in row.items() if k != "officer_attests"}
    data.update(residential_use="yes", rent="no", occupant="owner", family_relationship="",
                officer_attests="y", csrf_token=csrf_token(page))
    data.update(changes)
    return data


def _batches(app: Flask) -> int:
    from portal.models import LenderBatch
    with app_uow(app) as w:
        return w.session.scalar(select(func.count()).select_from(LenderBatch))


@pytest.mark.parametrize(("lang", "title", "label"), [
    ("es", "Radicar una certificación de exoneración residencial",
     "Día en que el dueño le entregó la certificación firmada"),
    ("en", "File one residential-exemption certification",
     "Day the owner delivered the signed certification to you")])
def test_the_form_in_both_languages(app, lang, title, label):
    client = login(app, "lender")
    html = client.get(f"{FORM}?lang={lang}").get_data(as_text=True)
    assert title in html and label in html


def test_one_certification_is_filed_dated_the_owners_delivery(app):
    from portal.models import ExemptionCertification, LenderBatch, LenderBatchRow
    row = good_rows(app, 1)[0]
    client = login(app, "lender")
    page = client.get(FORM).get_data(as_text=True)
    delivered = clock.today() - timedelta(days=10)
    r = client.post(FORM, data=_data(row, page, delivery_date=delivered.isoformat(),
                                     occupant="family", family_relationship="child"))
    assert r.status_code == 303, r.get_data(as_text=True)
    with app_uow(app) as w:
        batch = w.session.scalars(select(LenderBatch).order_by(LenderBatch.id.desc())).first()
        assert (batch.source, batch.total, batch.accepted) == ("form", 1, 1)
        cert = w.session.get(ExemptionCertification, w.session.scalar(
            select(LenderBatchRow.certification_id).where(LenderBatchRow.batch_id == batch.id)))
        assert (cert.filed_on, cert.delivered_on) == (delivered, delivered)
        assert (cert.answers["occupant"], cert.answers["family_relationship"]) == (
            "family", "child")
    report = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "EXR-" in report


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "La fecha no puede ser posterior a hoy."),
    ("en", "The date cannot be after today.")])
def test_a_row_refused_by_its_own_checks_records_nothing(app, lang, text):
    row = good_rows(app, 1)[0]
    client = login(app, "lender")
    page = client.get(f"{FORM}?lang={lang}").get_data(as_text=True)
    before = _batches(app)
    r = client.post(f"{FORM}?lang={lang}", data=_data(
        row, page, delivery_date=(clock.today() + timedelta(days=1)).isoformat()))
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert text in html and 'href="#delivery_date"' in html
    assert _batches(app) == before


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "03/04/2026 se puede leer como el 3 de abril de 2026 o como el 4 de marzo de 2026"),
    ("en", "03/04/2026 can be read as April 3, 2026 or as March 4, 2026")])
def test_a_date_whose_day_and_month_could_swap_is_refused_on_its_field(app, lang, text):
    """The form is read day first whatever the reader's language: 03/04/2026 could be
    either day, so it is refused on the field with both readings and nothing is recorded;
    13/04/2026 is read as before."""
    row = good_rows(app, 1)[0]
    client = login(app, "lender")
    page = client.get(f"{FORM}?lang={lang}").get_data(as_text=True)
    before = _batches(app)
    for column in ("delivery_date", "acquisition_date"):
        r = client.post(f"{FORM}?lang={lang}", data=_data(row, page, **{column: "03/04/2026"}))
        assert r.status_code == 400
        html = unescape(r.get_data(as_text=True))
        assert text in html and f'href="#{column}"' in html, column
        assert 'aria-invalid="true"' in html
    assert _batches(app) == before
    r = client.post(FORM, data=_data(row, page, delivery_date="13/04/2026"))
    assert r.status_code == 303 and _batches(app) == before + 1


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "La certificación no cumple con R-B7: Quienes viven en la casa no son familia "
           "del dueño"),
    ("en", "The certification does not meet R-B7: The people who live in the home are not "
           "the owner&#39;s family")])
def test_a_relative_beyond_r_b7s_degrees_is_refused_with_the_reason(app, lang, text):
    row = good_rows(app, 1)[0]
    client = login(app, "lender")
    page = client.get(FORM).get_data(as_text=True)
    r = client.post(FORM, data=_data(row, page, occupant="family",
                                     family_relationship="second_cousin"))
    assert r.status_code == 303
    report = client.get(r.headers["Location"] + f"?lang={lang}")
    assert text in report.get_data(as_text=True)


@pytest.mark.parametrize("role", ["owner", "lessee", "staff"])
def test_no_one_else_files_one(app, role):
    row = good_rows(app, 1)[0]
    client = login(app, role)
    assert client.get(FORM).status_code == 404
    page = client.get("/cuenta/").get_data(as_text=True)
    before = _batches(app)
    r = client.post(FORM, data=_data(row, page))
    assert r.status_code == 404 and _batches(app) == before


@pytest.mark.parametrize(("lang", "election", "units"), [
    ("es", "Cooperativa Jardines eligió: La exoneración residencial, unidad por unidad",
     "Las unidades de la cooperativa radicadas bajo ella"),
    ("en", "Cooperativa Jardines elected: The residential exemption, unit by unit",
     "The cooperative's units filed under it")])
def test_a_cooperatives_unit_shows_the_cooperatives_election(app, lang, election, units):
    """R-B4, R-B20: the unit's filing and its receipt show the election as the
    cooperative's, who recorded it and the units filed under it."""
    from portal.models import LenderBatch, LenderBatchRow
    row = good_rows(app, 1)[0]
    client = login(app, "lender")
    page = client.get(FORM).get_data(as_text=True)
    r = client.post(FORM, data=_data(row, page, cooperative_share="0.25",
                                     cooperative_name="Cooperativa Jardines",
                                     cooperative_election="residential"))
    assert r.status_code == 303
    with app_uow(app) as w:
        batch = w.session.scalars(select(LenderBatch).order_by(LenderBatch.id.desc())).first()
        cid = w.session.scalar(select(LenderBatchRow.certification_id).where(
            LenderBatchRow.batch_id == batch.id))
    assert cid is not None
    html = unescape(client.get(f"/exoneracion/{cid}/recibo?lang={lang}").get_data(as_text=True))
    assert election in html and units in html and row["catastro"] in html
    pdf = client.get(f"/exoneracion/{cid}/recibo.pdf?lang={lang}")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"


@pytest.mark.parametrize(("day", "year"), [(date(2026, 11, 30), "2026-2027"),
                                           (date(2027, 9, 15), "2027-2028")])
@pytest.mark.parametrize(("lang", "words"), [
    ("es", "El año fiscal de la certificación, por ejemplo, {year} (solo está abierto el año "
           "en curso)."),
    ("en", "The fiscal year of the certification, e.g. {year} (only the year in course is "
           "open).")])
def test_the_fiscal_years_example_is_the_year_open_that_day(app, day, year, lang, words):
    """The form's and the guide's example is the fiscal year the row may name that day (the
    year in course, R-B15), not a year written once."""
    with clock.fixed(at(day, 10)):
        client = login(app, "lender")
        for page in (FORM, "/prestamista/certificaciones/lote/guia"):
            html = unescape(client.get(f"{page}?lang={lang}").get_data(as_text=True))
            assert words.format(year=year) in html, page
            other = "2027-2028" if year == "2026-2027" else "2026-2027"
            assert words.format(year=other) not in html
