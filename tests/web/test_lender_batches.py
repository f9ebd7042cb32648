"""The lender's bulk certifications by CSV (J7, R-B9, R-B21): the encodings Puerto Rico's
spreadsheets write, every reason a row is refused, the one neutral reason for a parcel that
is not the lender's loan, idempotency by loan + parcel + fiscal year (the same file twice
files nothing new), all or nothing per batch of rows, formula neutralisation in the CSVs,
and the pages only for the lender's members (another lender's batch is 404)."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta
from decimal import Decimal
from html import unescape

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal import clock
from portal.jobs import queue
from portal.web.data import database
from tests.support.demo import app_uow
from tests.support.lenders import add_homes, batch_csv, two_steps
from tests.support.pages import csrf_token, login

PAGE = "/prestamista/certificaciones/lote"


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def good_rows(app: Flask, n: int, lang: str = "es") -> list[dict[str, str]]:
    """Rows for `n` of the demo bank's loans whose parcels have owners who are people and
    the CRIM's facts of the open year, as its officer fills them in."""
    from portal.exemptions import filings
    from portal.models import Lender, Loan, Parcel, PropertyTaxFact, TaxDebt
    fy = filings.certification_year(clock.today())
    yes = "sí" if lang == "es" else "yes"
    with app_uow(app) as w:
        s = w.session
        bank = s.scalar(select(Lender.id).order_by(Lender.id).limit(1))
        loans = s.execute(
            select(Loan.loan_number, Parcel.id, Parcel.catastro)
            .join(Parcel, Parcel.id == Loan.parcel_id)
            .join(PropertyTaxFact, (PropertyTaxFact.parcel_id == Parcel.id)
                  & (PropertyTaxFact.fiscal_year_start == fy)
                  & (PropertyTaxFact.debt_on_january_1 == 0))
            .where(Parcel.id.not_in(select(TaxDebt.parcel_id)))  # no debt recorded (R-B11)
            .where(Loan.lender_id == bank).order_by(Loan.loan_number)).all()
        out, seen_owners = [], set()
        for number, pid, catastro in loans:
            owners = filings.owners_on_record(w, pid, clock.today())
            names = sorted(n for _p, n, _k in owners)
            ids = {p for p, _n, _k in owners}
            ids |= filings.spouses_of(w, sorted(ids)) if ids else set()
            if not names or ids & seen_owners:
                continue  # R-B6, R-B20: one dwelling per owner (spouses count as one)
            seen_owners |= ids
            out.append({"loan_number": number, "catastro": catastro,
                        "fiscal_year": f"{fy.year}-{fy.year + 1}", "owners": "|".join(names),
                        "delivery_date": clock.today().isoformat(), "rent": "no",
                        "residential_use": yes, "residential_fraction": "",
                        "residential_valuation": "", "veteran_amount": "",
                        "cooperative_share": "", "acquisition_date": "",
                        "officer_name": "María Ortiz Colón", "officer_attests": yes})
            if len(out) == n:
                break
        assert len(out) == n, f"the demo has {len(out)} such loans"
        return out


def upload(client, data: bytes, name: str = "lote.csv"):  # noqa: ANN001, ANN201
    page = client.get(PAGE).get_data(as_text=True)
    return client.post(PAGE, data={"csrf_token": csrf_token(page),
                                   "file": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")


def batch_of(response) -> int:  # noqa: ANN001
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def _certifications(app: Flask) -> int:
    from portal.models import ExemptionCertification
    with app_uow(app) as w:
        return w.session.scalar(select(func.count()).select_from(ExemptionCertification))


def _outcomes(app: Flask, batch_id: int) -> dict[int, tuple[str, str | None, str | None]]:
    from portal.models import LenderBatchRow
    with app_uow(app) as w:
        return {n: (o, c, r) for n, o, c, r in w.session.execute(
            select(LenderBatchRow.row_number, LenderBatchRow.outcome,
                   LenderBatchRow.error_column, LenderBatchRow.reason)
            .where(LenderBatchRow.batch_id == batch_id))}


# --- encodings ---------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", [
    {"bom": True}, {"encoding": "cp1252"}, {"delimiter": ";"}, {"newline": "\n"},
    {"delimiter": ";", "encoding": "cp1252", "lang": "en"}])
def test_the_encodings_spreadsheets_write(app, fmt):
    lang = fmt.get("lang", "es")
    rows = good_rows(app, 3, lang)
    assert any(ch in "".join(r["owners"] for r in rows) for ch in "áéíóúñ"), "accents tested"
    client = login(app, "lender")
    bid = batch_of(upload(client, batch_csv(rows, **fmt)))
    assert {o for o, _c, _r in _outcomes(app, bid).values()} == {"accepted"}
    html = client.get(f"{PAGE}/{bid}").get_data(as_text=True)
    assert "EXR-" in html


def test_a_file_that_is_not_the_template_is_refused_and_changes_nothing(app):
    client = login(app, "lender")
    before = _certifications(app)
    for data in (b"", b"\x00\x01\x02", b"a,b,c\r\n1,2,3\r\n",
                 b"numero_prestamo,catastro\r\nX,Y\r\n"):
        r = upload(client, data)
        assert r.status_code == 400
        assert "usa-error-message" in r.get_data(as_text=True)
    assert _certifications(app) == before


# --- each reason -------------------------------------------------------------------------------

def _another_lender(app: Flask) -> tuple[str, str]:
    """Lender B (user00001 its administrator) with a loan on a parcel of the demo bank's
    loans; (B's loan number, that parcel's catastro)."""
    from portal.models import Lender, Loan, Parcel, Party, PartyMember, User
    with app_uow(app) as w:
        s = w.session
        other = s.scalar(select(User).where(User.email == "user00001@demo.pr"))
        party = Party(kind="organisation", name="Banco B")
        s.add(party)
        s.flush()
        b = Lender(party_id=party.id, code="BBB")
        s.add(b)
        s.flush()
        s.add(PartyMember(party_id=party.id, user_id=other.id, role="administrator"))
        two_steps(w, other)
        pid, catastro = s.execute(select(Parcel.id, Parcel.catastro).join(
            Loan, Loan.parcel_id == Parcel.id).order_by(Parcel.id.desc()).limit(1)).one()
        s.add(Loan(lender_id=b.id, parcel_id=pid, loan_number="B-1",
                   starts_on=clock.today() - timedelta(days=30)))
        return "B-1", catastro


def test_every_reason_a_row_is_refused(app):
    from portal.lenders import batches as lb
    from portal.models import OwnershipShare, Parcel, Party, PropertyTaxFact
    rows = good_rows(app, 41)
    b_loan, b_catastro = _another_lender(app)
    fy = int(rows[0]["fiscal_year"][:4])
    bad = {  # row index -> (changes, the column, the reason)
        0: ({"officer_name": ""}, "officer_name", "required"),
        1: ({"loan_number": "NO-SUCH-LOAN"}, "loan_number", "not_your_loan"),
        2: ({"catastro": rows[3]["catastro"]}, "loan_number", "not_your_loan"),
        3: ({"loan_number": b_loan, "catastro": b_catastro}, "loan_number", "not_your_loan"),
        4: ({"fiscal_year": str(fy)}, "fiscal_year", "bad_fiscal_year"),
        5: ({"fiscal_year": f"{fy - 1}-{fy}"}, "fiscal_year", "fiscal_year_not_open"),
        6: ({"owners": "Nadie Que Exista"}, "owners", "owner_not_on_record"),
        7: ({"residential_use": "quizás"}, "residential_use", "not_yes_no"),
        8: ({"residential_use": "no"}, "residential_use", "not_residential"),
        9: ({"residential_fraction": "1.5"}, "residential_fraction", "bad_fraction"),
        10: ({"veteran_amount": "mil"}, "veteran_amount", "money_not_a_number"),
        11: ({"residential_fraction": "0.5", "residential_valuation": "1000"},
             "residential_fraction", "fraction_and_valuation"),
        12: ({"cooperative_share": "2"}, "cooperative_share", "bad_share"),
        13: ({"acquisition_date": "31/02/2026"}, "acquisition_date", "bad_date"),
        14: ({"acquisition_date": (clock.today() + timedelta(days=1)).isoformat()},
             "acquisition_date", "date_in_future"),
        15: ({"officer_name": "A"}, "officer_name", "bad_name"),
        16: ({"officer_attests": "no"}, "officer_attests", "not_attested"),
        17: ({}, None, "no_property_tax_facts"),
        18: ({}, None, "owes_property_tax"),
        19: ({"residential_valuation": "12.345"}, "residential_valuation",
             "money_other_separators"),
        25: ({"veteran_amount": "1e3"}, "veteran_amount", "money_exponent"),
        26: ({"veteran_amount": "-5"}, "veteran_amount", "money_negative"),
        27: ({"residential_valuation": "1500.005"}, "residential_valuation",
             "money_too_many_decimals"),
        28: ({"veteran_amount": "1000000000000"}, "veteran_amount", "money_too_large"),
        # a billion zeroed the bill: at most the property's valuation (R-B3)
        29: ({"veteran_amount": "1000000000"}, "veteran_amount", "veteran_over_valuation"),
        30: ({"residential_use": "X"}, "residential_use", "not_yes_no"),  # read as yes
        31: ({"officer_attests": "Y"}, "officer_attests", "not_yes_no"),
        # R-B13, R-B21: the owner's delivery, within the year's January 1 and today
        32: ({"delivery_date": f"{fy - 1}-12-31"}, "delivery_date", "delivered_before_year"),
        # R-B7: who lives there, the family's relationship and rent (the core's reasons)
        33: ({"occupant": "inquilino"}, "occupant", "bad_occupant"),
        34: ({"occupant": "familia", "family_relationship": "amigo"}, "family_relationship",
             "bad_relationship"),
        35: ({"family_relationship": "hijo"}, "family_relationship",
             "relationship_without_family"),
        36: ({"rent": "sí"}, "rent", "not_eligible_because"),
        37: ({"occupant": "familia", "family_relationship": "primo_segundo"},
             "family_relationship", "not_eligible_because"),
        # R-B4, R-B20: the cooperative's election, with the unit's share
        38: ({"cooperative_name": "Coop Sol"}, "cooperative_name", "coop_without_share"),
        39: ({"cooperative_share": "0.5", "cooperative_name": "Coop Sol",
              "cooperative_election": "quizás"}, "cooperative_election", "bad_coop_election"),
        40: ({"cooperative_share": "0.5", "cooperative_name": "Coop Luna",
              "cooperative_election": "ley_cooperativas"}, "cooperative_election",
             "coop_election_differs"),
    }
    sent = [dict(r, **bad[i][0]) if i in bad else r for i, r in enumerate(rows)]
    # R-B6: row 20's first owner also owns row 21's parcel, and claims it too
    twice = sent[20]["owners"].split("|")[0]
    sent[21] = dict(sent[21], owners=sent[21]["owners"] + "|" + twice)
    # already filed with other answers: row 23 is row 22's loan with another veteran's amount
    sent[23] = dict(sent[22], veteran_amount="500.00")
    with app_uow(app) as w:
        s = w.session
        fy_start = date(fy, 7, 1)
        pid17, pid18 = (s.scalar(select(Parcel.id).where(Parcel.catastro == sent[i]["catastro"]))
                        for i in (17, 18))
        pid21 = s.scalar(select(Parcel.id).where(Parcel.catastro == sent[21]["catastro"]))
        party = s.scalar(select(Party.id).where(Party.name == twice).limit(1))
        s.add(OwnershipShare(parcel_id=pid21, party_id=party, share=Decimal("0.5"),
                             kind="co_owner", starts_on=date(2020, 1, 1)))
        # R-B5: row 24's owner is married and names only themself
        pid24 = s.scalar(select(Parcel.id).where(Parcel.catastro == sent[24]["catastro"]))
        s.execute(OwnershipShare.__table__.update().where(OwnershipShare.parcel_id == pid24)
                  .values(kind="spouse"))
        spouse = Party(kind="person", name="Cónyuge de Prueba")
        s.add(spouse)
        s.flush()
        s.add(OwnershipShare(parcel_id=pid24, party_id=spouse.id, share=Decimal("0.5"),
                             kind="spouse", starts_on=date(2020, 1, 1)))
        s.execute(PropertyTaxFact.__table__.delete().where(
            PropertyTaxFact.parcel_id == pid17, PropertyTaxFact.fiscal_year_start == fy_start))
        s.execute(PropertyTaxFact.__table__.update().where(
            PropertyTaxFact.parcel_id == pid18, PropertyTaxFact.fiscal_year_start == fy_start)
            .values(debt_on_january_1=100))
    with app_uow(app) as w:  # Coop Luna elected the residential exemption for its units
        from portal.exemptions import cooperatives
        from portal.people import users
        cooperatives.record(w, fy=date(fy, 7, 1), name="Coop Luna", election="residential",
                            recorded_by_id=users.find_by_email(w, "lender@demo.pr").id,
                            lender_id=None)
    client = login(app, "lender")
    bid = batch_of(upload(client, batch_csv(sent)))
    got = _outcomes(app, bid)
    for i, (_changes, column, reason) in bad.items():
        assert got[i + 2] == ("rejected", column, reason), (i, got[i + 2])
    assert got[20 + 2][0] == "accepted" and got[21 + 2] == ("rejected", "owners", "one_dwelling")
    assert got[22 + 2][0] == "accepted" and got[23 + 2] == ("rejected", None, "already_filed")
    assert got[24 + 2] == ("rejected", "owners", "both_spouses")
    # every reason has its message in both languages
    # (an empty amount is no amount, never "required"; "bad_amount" names the rows refused
    # before amounts were read by portal.money_input, kept for their reports)
    used = {r for _o, _c, r in got.values() if r} | {"not_eligible", "cannot_compute",
                                                      "money_required", "bad_amount",
                                                      "ambiguous_date",  # (its own test)
                                                      "crim_not_adopted"}  # (tests/data)
    assert used == set(lb.REASONS)
    for lang in ("es", "en"):
        report = "".join(lb_report(app, bid, lang))
        assert "not_your_loan" not in report
    # the filing's other refusals map onto reasons too
    from portal.accounts.errors import Conflict
    assert lb._refusal(Conflict("exemption_not_eligible", reasons=[("R-B1", "x")])).params \
        == {"rules": "R-B1", "why": ["x"]}
    assert lb._refusal(Conflict("calc")).reason == "cannot_compute"


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "11/02/2026 se puede leer como el 11 de febrero de 2026 o como el 2 de noviembre "
           "de 2026: escriba la fecha así: AAAA-MM-DD."),
    ("en", "11/02/2026 can be read as February 11, 2026 or as November 2, 2026: write the date "
           "as YYYY-MM-DD.")])
def test_a_date_whose_day_and_month_could_swap_is_refused(app, lang, text):
    """11/02/2026 is 11 February read day first, 2 November read month first: the row is
    refused with both readings (nothing filed for it); a short form only one way can be
    read (13/11/2026, 05/05/2026) and ISO are read as before."""
    from portal.models import ExemptionCertification, LenderBatchRow
    rows = good_rows(app, 5)
    rows[0]["delivery_date"] = "11/02/2026"
    rows[1]["delivery_date"] = "13/11/2026"
    rows[2]["delivery_date"] = "05/05/2026"
    rows[3]["delivery_date"] = "2026-11-02"
    rows[4]["acquisition_date"] = "03.04.2026"
    client = login(app, "lender")
    before = _certifications(app)
    bid = batch_of(upload(client, batch_csv(rows)))
    got = _outcomes(app, bid)
    assert got[2] == ("rejected", "delivery_date", "ambiguous_date")
    assert got[6] == ("rejected", "acquisition_date", "ambiguous_date")
    assert [got[n][0] for n in (3, 4, 5)] == ["accepted"] * 3
    assert _certifications(app) == before + 3
    with app_uow(app) as w:
        delivered = dict(w.session.execute(
            select(LenderBatchRow.row_number, ExemptionCertification.delivered_on)
            .join(ExemptionCertification,
                  ExemptionCertification.id == LenderBatchRow.certification_id)
            .where(LenderBatchRow.batch_id == bid)).all())
    assert delivered == {3: date(2026, 11, 13), 4: date(2026, 5, 5), 5: date(2026, 11, 2)}
    html = client.get(f"{PAGE}/{bid}?lang={lang}").get_data(as_text=True)
    assert text in unescape(html)
    assert text in "".join(lb_report(app, bid, lang, only_failed=True))


def lb_report(app: Flask, bid: int, lang: str, only_failed: bool = False) -> list[str]:
    from portal.lenders import batches as lb
    from portal.people import users
    with app_uow(app) as w:
        bank = users.find_by_email(w, "lender@demo.pr")
        return list(lb.report_csv(w, bank, bid, only_failed=only_failed, lang=lang))


def test_another_lenders_parcel_gets_one_neutral_reason(app):
    """R-B9: a loan number or catastro that is not one of the lender's loans: the same
    words whatever the parcel is (another lender's, or none), nothing about its owners."""
    from portal.models import OwnershipShare, Parcel, Party
    b_loan, b_catastro = _another_lender(app)
    rows = good_rows(app, 1)
    sent = [dict(rows[0], loan_number=b_loan, catastro=b_catastro),
            dict(rows[0], loan_number="NO-SUCH", catastro="999-999-999-99"),
            dict(rows[0], catastro=b_catastro)]
    client = login(app, "lender")
    bid = batch_of(upload(client, batch_csv(sent)))
    got = _outcomes(app, bid)
    assert {v for v in got.values()} == {("rejected", "loan_number", "not_your_loan")}
    with app_uow(app) as w:
        names = list(w.session.scalars(select(Party.name).join(
            OwnershipShare, OwnershipShare.party_id == Party.id).join(
            Parcel, Parcel.id == OwnershipShare.parcel_id).where(Parcel.catastro == b_catastro)))
    for lang in ("es", "en"):
        html = client.get(f"{PAGE}/{bid}?lang={lang}").get_data(as_text=True)
        report = "".join(lb_report(app, bid, lang))
        for name in names:
            if name not in rows[0]["owners"]:
                assert name not in html and name not in report
    reasons = [line.split(",")[-4] for line in lb_report(app, bid, "en")[1:]]
    assert len(set(reasons)) == 1


# --- idempotency ------------------------------------------------------------------------------

def test_the_same_file_twice_files_nothing_new(app):
    rows = good_rows(app, 5)
    data = batch_csv(rows)
    client = login(app, "lender")
    first = batch_of(upload(client, data))
    after_first = _certifications(app)
    assert {o for o, _c, _r in _outcomes(app, first).values()} == {"accepted"}
    second = batch_of(upload(client, data))
    assert {o for o, _c, _r in _outcomes(app, second).values()} == {"duplicate"}
    assert _certifications(app) == after_first
    for lang, words in (("es", "5 filas ya estaban presentadas"),
                        ("en", "5 rows were already filed")):
        html = client.get(f"{PAGE}/{second}?lang={lang}").get_data(as_text=True)
        assert words in html, lang


# --- all or nothing per batch of rows ---------------------------------------------------------

def test_a_batch_failing_midway_leaves_nothing_of_that_batch(app, monkeypatch):
    from portal.exemptions import batch_filing
    from portal.jobs import runner
    from portal.lenders import batches as lb
    from portal.models import ExemptionCertification, LenderBatch
    from portal.people import users
    rows = good_rows(app, 6)
    monkeypatch.setattr(lb, "STEP", 2)
    real = batch_filing.Step.write
    calls = {"n": 0}

    def failing(self):  # noqa: ANN001, ANN202
        calls["n"] += bool(self.pending)
        real(self)  # the second step's certifications are written, then it fails
        if calls["n"] == 2:
            raise RuntimeError("the database went away")

    monkeypatch.setattr(batch_filing.Step, "write", failing)
    with app_uow(app) as w:
        bank = users.find_by_email(w, "lender@demo.pr")
        batch = lb.submit(w, bank, rows, source="csv", filename="x.csv")
        bid, job_id = batch.id, batch.job_id
    before = _certifications(app)
    job = runner.run(database_of(app), job_id)
    assert job.status == "failed"
    # the first step (rows 1-2) committed; the second (rows 3-4) left nothing
    assert _certifications(app) == before + 2
    with app_uow(app) as w:
        b = w.session.get(LenderBatch, bid)
        assert (b.processed, b.accepted) == (2, 2)
        assert w.session.scalar(select(func.count()).select_from(ExemptionCertification)
                                .where(ExemptionCertification.status == "filed")) >= 2
    outcomes = _outcomes(app, bid)
    assert [outcomes[n][0] for n in sorted(outcomes)] == ["accepted"] * 2 + [None] * 4
    page = login(app, "lender").get(f"{PAGE}/{bid}")
    assert "Refresh" not in page.headers and "Detenido" in page.get_data(as_text=True)
    # run again: it goes on from row 3, and files each row once
    monkeypatch.setattr(batch_filing.Step, "write", real)
    with app_uow(app) as w:
        lb.process(w, bid)
    assert _certifications(app) == before + 6
    assert {o for o, _c, _r in _outcomes(app, bid).values()} == {"accepted"}


def database_of(app: Flask):  # noqa: ANN201
    with app.app_context():
        return database()


# --- the CSVs ---------------------------------------------------------------------------------

def test_failed_rows_round_trip_and_formulas_are_neutralised(app):
    from portal.lenders.batches import COLUMNS
    rows = good_rows(app, 4)
    sent = [dict(rows[0], loan_number="=HYPERLINK(\"http://x\")"),
            dict(rows[1], officer_attests="no"), rows[2],
            dict(rows[3], owners="@SUM(A1)")]
    client = login(app, "lender")
    bid = batch_of(upload(client, batch_csv(sent)))
    failed = client.get(f"{PAGE}/{bid}/fallidas.csv")
    assert failed.status_code == 200 and failed.mimetype == "text/csv"
    text = failed.get_data(as_text=True)
    assert "'=HYPERLINK" in text and "'@SUM(A1)" in text
    assert "\n=" not in text and ",=" not in text and ",@" not in text
    table = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert len(table) == 1 + 3  # the header and the three rejected rows
    full = client.get(f"{PAGE}/{bid}/informe.csv").get_data(as_text=True)
    assert "'=HYPERLINK" in full and "EXR-" in full
    # fix the rejected rows in the downloaded file and upload only those
    header = table[0]
    fixed = [header]
    for cells in table[1:]:
        cells = list(cells)
        cells[0] = rows[0]["loan_number"] if cells[0].startswith("'=") else cells[0]
        k, attests = COLUMNS.index("owners"), COLUMNS.index("officer_attests")
        cells[k] = rows[3]["owners"] if cells[k].startswith("'@") else cells[k]
        cells[attests] = "sí"
        fixed.append(cells)
    buf = io.StringIO()
    csv.writer(buf).writerows(fixed)
    again = batch_of(upload(client, buf.getvalue().encode("utf-8")))
    got = _outcomes(app, again)
    assert len(got) == 3 and {o for o, _c, _r in got.values()} == {"accepted"}


def test_the_template_and_the_guide(app):
    from portal.lenders.batches import COLUMNS, HEADERS
    client = login(app, "lender")
    for lang in ("es", "en"):
        t = client.get(f"{PAGE}/plantilla.csv?lang={lang}")
        assert t.status_code == 200 and t.mimetype == "text/csv"
        head = next(csv.reader(io.StringIO(t.get_data(as_text=True).lstrip("\ufeff"))))
        assert head == [HEADERS[lang][c] for c in COLUMNS]
        guide = client.get(f"{PAGE}/guia?lang={lang}").get_data(as_text=True)
        for c in COLUMNS:
            assert HEADERS["es"][c] in guide and HEADERS["en"][c] in guide
    assert "número del préstamo" in client.get(f"{PAGE}/guia?lang=es").get_data(as_text=True)


# --- who may ----------------------------------------------------------------------------------

@pytest.mark.parametrize("role", ["owner", "lessee", "staff", "other"])
def test_only_the_lenders_members_upload_or_see_a_batch(app, role):
    from portal.models import LenderBatch
    rows = good_rows(app, 1)
    lender = login(app, "lender")
    bid = batch_of(upload(lender, batch_csv(rows)))
    if role == "other":
        _another_lender(app)  # user00001 is lender B's administrator
    client = login(app, role)
    for path in (PAGE, f"{PAGE}/guia", f"{PAGE}/plantilla.csv", f"{PAGE}/{bid}",
                 f"{PAGE}/{bid}/informe.csv", f"{PAGE}/{bid}/fallidas.csv"):
        code = client.get(path).status_code
        if role == "other" and path in (PAGE, f"{PAGE}/guia", f"{PAGE}/plantilla.csv"):
            assert code == 200, path  # B's own pages
        else:
            assert code == 404, (role, path)
    page = client.get("/cuenta/").get_data(as_text=True)
    with app_uow(app) as w:
        before = w.session.scalar(select(func.count()).select_from(LenderBatch))
    r = client.post(PAGE, data={"csrf_token": csrf_token(page) if "csrf_token" in page
                                else "", "file": (io.BytesIO(batch_csv(rows)), "x.csv")},
                    content_type="multipart/form-data")
    with app_uow(app) as w:
        after = w.session.scalar(select(func.count()).select_from(LenderBatch))
    if role == "other":  # B uploads its own batch: A's loans are not B's
        assert r.status_code == 303
        assert set(_outcomes(app, batch_of(r)).values()) == {
            ("rejected", "loan_number", "not_your_loan")}
    else:
        assert r.status_code == 404 and after == before


def test_a_clerk_uploads_too(app):
    from portal.models import PartyMember, User
    with app_uow(app) as w:
        uid = w.session.scalar(select(User.id).where(User.email == "lender@demo.pr"))
        w.session.execute(PartyMember.__table__.update().where(PartyMember.user_id == uid)
                          .values(role="employee"))
    client = login(app, "lender")
    bid = batch_of(upload(client, batch_csv(good_rows(app, 1))))
    assert {o for o, _c, _r in _outcomes(app, bid).values()} == {"accepted"}


def test_the_portfolio_links_to_the_uploads(app):
    html = login(app, "lender").get("/prestamista/prestamos").get_data(as_text=True)
    assert PAGE in html


def test_many_new_homes_filed_in_one_upload(app):
    rows = add_homes(app, 60)
    client = login(app, "lender")
    bid = batch_of(upload(client, batch_csv(rows, encoding="cp1252", delimiter=";")))
    assert {o for o, _c, _r in _outcomes(app, bid).values()} == {"accepted"}
    html = client.get(f"{PAGE}/{bid}?resultado=accepted&pagina=2").get_data(as_text=True)
    assert "L-090-0050" in html and "L-090-0049" not in html
    assert client.get(f"{PAGE}/{bid}?pagina=3").status_code == 404
    assert client.get(f"{PAGE}/{bid}?resultado=nada").status_code == 400


def _same_records(app: Flask, rows: list[dict[str, str]]) -> tuple:
    """Submit the rows as the bank's user, run the job (a step per transaction), then the
    same rows again: (outcomes of each, the filing numbers and exemptions computed)."""
    from portal.jobs import runner
    from portal.lenders import batches as lb
    from portal.models import LenderBatchRow
    from portal.people import users
    out = []
    for _ in range(2):
        with app_uow(app) as w:
            bank = users.find_by_email(w, "lender@demo.pr")
            batch = lb.submit(w, bank, rows, source="csv", filename="pg.csv")
            bid, job_id = batch.id, batch.job_id
        assert runner.run(database_of(app), job_id).status == "succeeded"
        with app_uow(app) as w:
            out.append(sorted(w.session.execute(
                select(LenderBatchRow.row_number, LenderBatchRow.outcome,
                       LenderBatchRow.reason, LenderBatchRow.exemption_amount,
                       LenderBatchRow.net_tax)
                .where(LenderBatchRow.batch_id == bid)).all()))
    return tuple(tuple(tuple(r) for r in o) for o in out)


@pytest.mark.postgres
def test_on_postgresql_the_same_records_as_on_sqlite(tmp_path, app, monkeypatch):
    from portal.lenders import batches as lb
    from tests.support.app import demo_on_postgresql
    monkeypatch.setattr(lb, "STEP", 7)  # several transactions
    sent = add_homes(app, 20)
    sent[4] = dict(sent[4], officer_attests="no")
    on_sqlite = _same_records(app, sent)
    with demo_on_postgresql(tmp_path) as (pg, _result):
        add_homes(pg, 20)
        on_pg = _same_records(pg, sent)
    assert on_pg == on_sqlite
    first, second = on_sqlite
    assert [o for _n, o, *_ in first].count("accepted") == 19
    assert [o for _n, o, *_ in second].count("duplicate") == 19
