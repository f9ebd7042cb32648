"""A lender's batch filed a step at a time (`exemptions.batch_filing.Step`) gives the same
records as the single filing's path a row at a time (`filings.file_for_lender`), on SQLite
and on PostgreSQL: the same outcome, column, reason and figures per row, the same
certifications (answers, owners, loan, dates, attestation, filing number), events and audit
records, for good and bad rows mixed, with R-B6's one dwelling between rows of one step and
of two steps, a draft on file, duplicates and the same rows sent again."""

from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import select, text

from portal import clock
from portal.accounts import bulk
from portal.db import Database, UnitOfWork
from portal.exemptions import filings
from portal.lenders import batches as lb
from portal.models import (
    AuditRecord,
    Base,
    ExemptionCertification,
    ExemptionEvent,
    ExemptionOwner,
    LenderBatch,
    LenderBatchRow,
    Loan,
    Parcel,
    Party,
    User,
)

N = 24  # homes of the bank's loans (k = 0 .. N-1), and two more parcels without a loan


def _catastro(k: int) -> str:
    return f"070-000-{k:03d}-00"


def _world(database: Database) -> None:
    """The bank (its officer's user), another bank, the homes of its loans with one owner
    each (a person) and the CRIM's facts of the open year, and the cases the rows try."""
    from portal.models import (
        Lender,
        OwnershipShare,
        PartyMember,
        PropertyTaxFact,
    )
    fy = filings.certification_year(clock.today())
    with UnitOfWork(database) as uow:
        s = uow.session
        officer = User(email="oficial@banco.pr", password_hash="x", name="Oficial")
        owner = User(email="duena@correo.pr", password_hash="x", name="Dueña 8")
        bank, other = (Party(kind="organisation", name="Banco"),
                       Party(kind="organisation", name="Banco B"))
        s.add_all([officer, owner, bank, other])
        s.flush()
        lender, lender_b = Lender(party_id=bank.id, code="BAN"), Lender(party_id=other.id,
                                                                         code="BBB")
        s.add_all([lender, lender_b, PartyMember(party_id=bank.id, user_id=officer.id,
                                                 role="administrator")])
        s.flush()
        pids = bulk.insert_rows(uow, Parcel, [
            {"catastro": _catastro(k), "address": f"Calle Sol {k}", "municipality": "San Juan",
             "zone": "urban", "land_area_cuerdas": Decimal("0.250000"),
             "land_valuation": Decimal("6000.00") + k, "structure_valuation": Decimal("14000.00"),
             "owner_kind": "private", "transferred": False, "tax_incentive_exempt": False,
             "benefit_units": Decimal("1.0000")} for k in range(N + 2)], return_ids=True)
        people = bulk.insert_rows(uow, Party, [
            {"kind": "person", "name": f"Dueña {k}", "language": "es"} for k in range(N + 2)],
            return_ids=True)
        spouse = Party(kind="person", name="Cónyuge 3", language="es")
        s.add(spouse)
        s.flush()
        shares = [{"parcel_id": p, "party_id": o, "share": Decimal(1), "kind": "sole",
                   "starts_on": date(2015, 1, 1)} for p, o in zip(pids, people)]
        for k in (3, 14):  # spouses: 3 with "Cónyuge 3", 14 with Dueña 15
            shares[k] = dict(shares[k], share=Decimal("0.5"), kind="spouse")
        shares += [
            {"parcel_id": pids[3], "party_id": spouse.id, "share": Decimal("0.5"),
             "kind": "spouse", "starts_on": date(2015, 1, 1)},
            {"parcel_id": pids[14], "party_id": people[15], "share": Decimal("0.5"),
             "kind": "spouse", "starts_on": date(2015, 1, 1)},
            # Dueña 9 also owns parcel N (filed below); Dueña 10 co-owns 11, Dueña 12 co-owns
            # 17, Dueña 14 (Dueña 15's spouse) co-owns 13
            {"parcel_id": pids[N], "party_id": people[9], "share": Decimal("0.5"),
             "kind": "co_owner", "starts_on": date(2015, 1, 1)},
            {"parcel_id": pids[11], "party_id": people[10], "share": Decimal("0.5"),
             "kind": "co_owner", "starts_on": date(2015, 1, 1)},
            {"parcel_id": pids[17], "party_id": people[12], "share": Decimal("0.5"),
             "kind": "co_owner", "starts_on": date(2015, 1, 1)},
            {"parcel_id": pids[13], "party_id": people[14], "share": Decimal("0.5"),
             "kind": "co_owner", "starts_on": date(2015, 1, 1)}]
        bulk.insert_rows(uow, OwnershipShare, shares)
        facts = [{"parcel_id": p, "fiscal_year_start": fy, "municipality": "San Juan",
                  "zone": "urban", "land_area_cuerdas": Decimal("0.250000"),
                  "land_valuation": Decimal("6000.00") + k,
                  "structure_valuation": Decimal("14000.00"),
                  "debt_on_january_1": Decimal(0), "illustrative": True, "source": "test"}
                 for k, p in enumerate(pids) if k != 5]  # 5: no facts
        facts[5] = dict(facts[5], debt_on_january_1=Decimal("100.00"))  # parcel 6 owes
        facts[6] = dict(facts[6], municipality="Atlántida")  # parcel 7: no tax rate
        facts[17] = dict(facts[17], residential_valuation=Decimal("9000.00"))  # parcel 18
        bulk.insert_rows(uow, PropertyTaxFact, facts)
        bulk.insert_rows(uow, Loan, [
            {"lender_id": lender.id, "parcel_id": p, "loan_number": f"L-{k:03d}",
             "starts_on": date(2020, 1, 1)} for k, p in enumerate(pids[:N])])
        s.add(Loan(lender_id=lender_b.id, parcel_id=pids[1], loan_number="B-001",
                   starts_on=date(2020, 1, 1)))
        # parcel 8: its owner started the wizard (a draft); parcel N: filed, naming Dueña 9;
        # parcel N + 1: returned to its owner
        draft = ExemptionCertification(parcel_id=pids[8], fiscal_year_start=fy, status="draft",
                                       created_by_id=owner.id, language="en",
                                       answers={"owners": [people[8]], "occupants": "Ana"},
                                       step="use", returned_steps=[])
        filed = ExemptionCertification(parcel_id=pids[N], fiscal_year_start=fy,
                                       status="filed", created_by_id=owner.id,
                                       answers={"owners": [people[9]]}, step="attest",
                                       returned_steps=[], filed_on=clock.today())
        returned = ExemptionCertification(parcel_id=pids[19], fiscal_year_start=fy,
                                          status="returned", created_by_id=owner.id,
                                          answers={"owners": [people[19]]}, step="attest",
                                          returned_steps=["veteran"], filed_on=clock.today())
        s.add_all([draft, filed, returned])
        s.flush()
        s.add_all([ExemptionOwner(certification_id=draft.id, party_id=people[8]),
                   ExemptionOwner(certification_id=filed.id, party_id=people[9]),
                   ExemptionOwner(certification_id=returned.id, party_id=people[19])])
        filed.filing_number = filings.filing_number(fy, filed.id)


def _row(k: int, **changes: str) -> dict[str, str]:
    fy = filings.certification_year(clock.today())
    row = {"loan_number": f"L-{k:03d}", "catastro": _catastro(k),
           "fiscal_year": f"{fy.year}-{fy.year + 1}", "owners": f"Dueña {k}",
           "delivery_date": clock.today().isoformat(), "rent": "no",
           "residential_use": "sí", "residential_fraction": "", "residential_valuation": "",
           "veteran_amount": "", "cooperative_share": "", "acquisition_date": "",
           "officer_name": "María Ortiz Colón", "officer_attests": "sí"}
    row.update(changes)
    return row


def _rows() -> list[dict[str, str]]:
    """Good and bad rows mixed, in steps of 4 (`STEP` below)."""
    return [
        _row(0),                                             # accepted
        _row(1, loan_number="B-001"),                        # another bank's: not_your_loan
        _row(2, veteran_amount="1500.00"),                   # accepted, a veteran's amount
        _row(3),                                             # both_spouses
        _row(4, residential_fraction="0.5"),                 # accepted, half the home
        _row(5),                                             # no_property_tax_facts
        _row(6),                                             # owes_property_tax
        _row(7),                                             # cannot_compute
        _row(8),                                             # the owner's draft, completed
        _row(9),                                             # one_dwelling (on file)
        _row(10),                                            # accepted
        _row(11, owners="Dueña 11|Dueña 10"),                # one_dwelling (same step)
        _row(12),                                            # accepted (the step's last)
        _row(13, fiscal_year="2026"),                        # bad_fiscal_year
        _row(0),                                             # duplicate (an earlier step)
        _row(0, veteran_amount="500.00"),                    # already_filed (other answers)
        _row(15),                                            # accepted
        _row(17, owners="Dueña 17|Dueña 12"),                # one_dwelling (an earlier step)
        _row(18, residential_valuation="5000.00"),           # accepted (the CRIM's wins)
        _row(19),                                            # already_filed (returned)
        _row(13, owners="Dueña 13|Dueña 14"),                # one_dwelling (a spouse's)
        _row(20, cooperative_share="0.25", cooperative_name="Coop Vivienda Sol",
             cooperative_election="residencial"),            # accepted, a cooperative's unit
        _row(21, acquisition_date="2026-03-15"),             # accepted, a new structure
        _row(22, owners="Nadie"),                            # owner_not_on_record
        _row(23, residential_use="no"),                      # not_residential
        _row(16, officer_attests="no"),                      # not_attested
        _row(16),                                            # accepted
        _row(16),                                            # duplicate (same step)
    ]


def _records(database: Database) -> tuple[Any, ...]:
    """Every record the batches wrote, by what it is about (catastro, names, emails, loan
    numbers), not by the ids the two paths may number differently."""
    def js(value: Any) -> str:
        return json.dumps(value, sort_keys=True, default=str)

    with UnitOfWork(database) as uow:
        s = uow.session
        catastro = dict(s.execute(select(Parcel.id, Parcel.catastro)).all())
        email = dict(s.execute(select(User.id, User.email)).all())
        name = dict(s.execute(select(Party.id, Party.name)).all())
        loan = dict(s.execute(select(Loan.id, Loan.loan_number)).all())
        key: dict[int, str] = {}
        certs = {}
        for c in s.scalars(select(ExemptionCertification).order_by(ExemptionCertification.id)):
            key[c.id] = catastro[c.parcel_id]
            assert c.filing_number in (None, filings.filing_number(c.fiscal_year_start, c.id))
            answers = dict(c.answers or {})
            answers["owners"] = sorted(name[p] for p in answers.get("owners", []))
            owners = sorted(name[p] for p in s.scalars(select(ExemptionOwner.party_id).where(
                ExemptionOwner.certification_id == c.id)))
            events = sorted((e.from_status, e.to_status, email.get(e.actor_id), js(e.reasons),
                             e.note, e.created_at) for e in s.scalars(select(
                                 ExemptionEvent).where(ExemptionEvent.certification_id == c.id)))
            audits = sorted((a.action, email.get(a.actor_id), js(a.before), js(a.after), a.ip,
                             a.at) for a in s.scalars(select(AuditRecord).where(
                                 AuditRecord.object_type == "exemption_certifications",
                                 AuditRecord.object_id == str(c.id))))
            certs[key[c.id]] = (
                c.status, c.fiscal_year_start, email[c.created_by_id], c.language, js(answers),
                c.step, c.filing_number is not None, c.filed_at, c.filed_on,
                loan.get(c.loan_id), c.attested_name, c.attested_at, c.plan_payments,
                c.plan_first_due, js(c.returned_steps), c.decided_by_id, c.decided_at,
                c.created_at, c.updated_at, owners, events, audits, c.delivered_on,
                c.coop_election_id is not None)
        rows = [(r.batch_id, r.row_number, r.outcome, r.error_column, r.reason,
                 js(r.reason_params), r.exemption_amount, r.net_tax,
                 key.get(r.certification_id or 0))
                for r in s.scalars(select(LenderBatchRow).order_by(LenderBatchRow.batch_id,
                                                                   LenderBatchRow.row_number))]
        batches = [(b.total, b.processed, b.accepted, b.rejected, b.duplicates, b.status)
                   for b in s.scalars(select(LenderBatch).order_by(LenderBatch.id))]
    return certs, rows, batches


def _run(database: Database, *, one_by_one: bool) -> tuple[Any, ...]:
    """The world, then the rows sent twice, each batch processed a step of `STEP` rows at
    a time (the single path or the batched one); the records."""
    _world(database)
    for _ in range(2):
        with UnitOfWork(database) as uow:
            officer = uow.session.scalar(select(User).where(User.email == "oficial@banco.pr"))
            batch = lb.submit(uow, officer, _rows(), source="csv", filename="lote.csv")
            lb.process(uow, batch.id, one_by_one=one_by_one)
    return _records(database)


def _processed(uow: UnitOfWork, rows: list[dict[str, str]]) -> list[LenderBatchRow]:
    """The bank officer's batch of `rows`, processed: its rows in order."""
    officer = uow.session.scalar(select(User).where(User.email == "oficial@banco.pr"))
    batch = lb.submit(uow, officer, rows, source="csv", filename="lote.csv")
    lb.process(uow, batch.id)
    return list(uow.session.scalars(select(LenderBatchRow).where(
        LenderBatchRow.batch_id == batch.id).order_by(LenderBatchRow.row_number)))


def _empty(database: Database) -> None:
    """Every table emptied, the ids from 1 again (the same parcel and loan ids in the
    second run)."""
    tables = [t.name for t in reversed(Base.metadata.sorted_tables)]
    with database.engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text(f'TRUNCATE {", ".join(tables)} RESTART IDENTITY CASCADE'))
        else:
            for t in tables:
                conn.execute(text(f'DELETE FROM "{t}"'))


def test_the_batched_path_files_the_same_records_as_the_single_path(database, monkeypatch):
    monkeypatch.setattr(lb, "STEP", 4)  # several steps: rows meet within and across steps
    single = _run(database, one_by_one=True)
    _empty(database)
    batched = _run(database, one_by_one=False)
    certs, rows, batches = batched
    assert batched == single
    # what the rows were meant to try
    first = {n: (o, c, r) for _b, n, o, c, r, *_ in rows if _b == rows[0][0]}
    want = {1: ("rejected", "loan_number", "not_your_loan"),
            3: ("rejected", "owners", "both_spouses"),
            5: ("rejected", None, "no_property_tax_facts"),
            6: ("rejected", None, "owes_property_tax"),
            7: ("rejected", None, "cannot_compute"),
            9: ("rejected", "owners", "one_dwelling"),
            11: ("rejected", "owners", "one_dwelling"),
            13: ("rejected", "fiscal_year", "bad_fiscal_year"),
            14: ("duplicate", None, None),
            15: ("rejected", None, "already_filed"),
            17: ("rejected", "owners", "one_dwelling"),
            19: ("rejected", None, "already_filed"),
            20: ("rejected", "owners", "one_dwelling"),
            23: ("rejected", "owners", "owner_not_on_record"),
            24: ("rejected", "residential_use", "not_residential"),
            25: ("rejected", "officer_attests", "not_attested"),
            27: ("duplicate", None, None)}
    for i in range(len(_rows())):
        assert first[i + 1] == want.get(i, ("accepted", None, None)), i
    assert batches == [(28, 28, 11, 15, 2, "done"), (28, 28, 0, 15, 13, "done")]
    # the draft its owner started is the one filed (its creator and language kept)
    draft = certs[_catastro(8)]
    assert draft[:4] == ("filed", filings.certification_year(clock.today()),
                         "duena@correo.pr", "en")
    assert draft[9] == "L-008" and draft[20][-1][:3] == ("draft", "filed", "oficial@banco.pr")
    # the figures differ where the answers do
    amounts = {r[1]: (r[6], r[7]) for r in rows if r[0] == rows[0][0] and r[2] == "accepted"}
    assert len(set(amounts.values())) > 3


@pytest.mark.parametrize("one_by_one", [False, True])
def test_a_step_stopped_midway_leaves_nothing_and_runs_again(database, monkeypatch,
                                                             one_by_one):
    """All or nothing per step, on either path: a failure after some rows of a step were
    filed leaves none of that step; running again files each row once."""
    from portal.exemptions import batch_filing
    from portal.jobs import runner
    monkeypatch.setattr(lb, "STEP", 4)
    _world(database)
    calls = {"n": 0}
    real = batch_filing.OneByOne.file if one_by_one else batch_filing.Step.write

    def failing(self, *a: Any, **k: Any) -> Any:
        out = real(self, *a, **k)
        calls["n"] += 1
        if calls["n"] == (3 if one_by_one else 2):  # the second step's first filing
            raise RuntimeError("the worker was stopped")
        return out

    monkeypatch.setattr(batch_filing.OneByOne if one_by_one else batch_filing.Step,
                        "file" if one_by_one else "write", failing)
    monkeypatch.setitem(runner.KINDS, lb.KIND, lambda _u, p: lb.Processing(
        int(p["batch_id"]), one_by_one=one_by_one))
    with UnitOfWork(database) as uow:
        officer = uow.session.scalar(select(User).where(User.email == "oficial@banco.pr"))
        batch = lb.submit(uow, officer, _rows(), source="csv", filename="lote.csv")
        bid, job_id = batch.id, batch.job_id
    assert runner.run(database, job_id).status == "failed"
    with UnitOfWork(database) as uow:
        b = uow.session.get(LenderBatch, bid)
        assert (b.processed, b.accepted) == (4, 2)
        filed = uow.session.scalars(select(ExemptionCertification.parcel_id).where(
            ExemptionCertification.status == "filed",
            ExemptionCertification.loan_id.is_not(None))).all()
        assert len(filed) == 2  # rows 1 and 3; none of the second step's
    monkeypatch.setattr(batch_filing.OneByOne if one_by_one else batch_filing.Step,
                        "file" if one_by_one else "write", real)
    with UnitOfWork(database) as uow:
        lb.process(uow, bid, one_by_one=one_by_one)
    certs, rows, batches = _records(database)
    assert batches == [(28, 28, 11, 15, 2, "done")]
    assert sum(1 for c in certs.values() if c[9] is not None) == 11


def test_a_row_states_who_lives_there_rent_and_the_delivery(database):
    """R-B7 decided by the core from the row: only the owner's son lives there (family, 1st
    degree) is filed; a first cousin's child (5th degree) or any rent is refused with the
    rule and the core's reason, worded in each language. R-B13: the filing is dated the
    owner's delivery to the lender, and R-B11's 30 days run from it."""
    from portal.i18n import use_language
    _world(database)
    delivered = clock.today() - timedelta(days=20)
    rows = [_row(0, occupant="familia", family_relationship="hijo",
                 delivery_date=delivered.isoformat()),
            _row(2, occupant="family", family_relationship="first_cousin_once_removed"),
            _row(4, rent="sí", rent_part="el apartamento de abajo"),
            _row(10, delivery_date=(clock.today() + timedelta(days=1)).isoformat())]
    with UnitOfWork(database) as uow:
        got = _processed(uow, rows)
        assert [(r.outcome, r.error_column, r.reason) for r in got] == [
            ("accepted", None, None),
            ("rejected", "family_relationship", "not_eligible_because"),
            ("rejected", "rent", "not_eligible_because"),
            ("rejected", "delivery_date", "date_in_future")]
        with use_language("en"):
            assert lb.reason_text(got[1]) == (
                "The certification does not meet R-B7: The people who live in the home are "
                "not the owner's family: family is the spouse and the relatives within the "
                "4th degree by blood or the 2nd by marriage.")
            assert lb.reason_text(got[2]) == ("The certification does not meet R-B7: Rent "
                                              "is received for the property.")
        with use_language("es"):
            assert lb.reason_text(got[2]) == ("La certificación no cumple con R-B7: Se "
                                              "recibe renta por la propiedad.")
        cert = uow.session.get(ExemptionCertification, got[0].certification_id)
        assert (cert.filed_on, cert.delivered_on) == (delivered, delivered)
        assert cert.answers["occupant"] == "family"
        assert cert.answers["family_relationship"] == "child"


def test_a_cooperatives_election_is_recorded_as_the_cooperatives(database):
    """R-B4, R-B20: the rows of a cooperative's units name the cooperative and its
    election; it is recorded once, as the cooperative's (who elected, who recorded it), and
    every unit filed points to it; a row giving the other election for the same cooperative
    is refused; the cooperatives law's exemption is the cooperative's election too, and the
    core refuses the unit's residential exemption (R-B4)."""
    from portal.exemptions import cooperatives
    from portal.i18n import use_language
    from portal.models import CooperativeElection
    _world(database)
    coop = {"cooperative_share": "0.25", "cooperative_name": "Cooperativa  Jardines",
            "cooperative_election": "residencial"}
    rows = [_row(0, **coop), _row(2, **dict(coop, cooperative_name="COOPERATIVA JARDINES")),
            _row(4, **dict(coop, cooperative_election="ley_cooperativas")),
            _row(10, **dict(coop, cooperative_name="Coop Otra",
                            cooperative_election="cooperative_law")),
            _row(12, cooperative_name="Coop Sin Unidad"),
            _row(15, cooperative_share="0.1")]
    with UnitOfWork(database) as uow:
        officer = uow.session.scalar(select(User).where(User.email == "oficial@banco.pr"))
        batch = lb.submit(uow, officer, rows, source="csv", filename="lote.csv")
        lb.process(uow, batch.id)
        got = list(uow.session.scalars(select(LenderBatchRow).where(
            LenderBatchRow.batch_id == batch.id).order_by(LenderBatchRow.row_number)))
        assert [(r.outcome, r.error_column, r.reason) for r in got] == [
            ("accepted", None, None), ("accepted", None, None),
            ("rejected", "cooperative_election", "coop_election_differs"),
            ("rejected", "cooperative_election", "not_eligible_because"),
            ("rejected", "cooperative_name", "coop_without_share"),
            ("rejected", "cooperative_name", "required")]
        with use_language("en"):
            assert "R-B4" in lb.reason_text(got[3])
        elections = {e.name_key: (e.cooperative_name, e.election, e.recorded_by_id)
                     for e in uow.session.scalars(select(CooperativeElection))}
        assert elections == {"cooperativa jardines": ("Cooperativa Jardines", "residential",
                                                      officer.id),
                             "coop otra": ("Coop Otra", "cooperative_law", officer.id)}
        first = uow.session.get(ExemptionCertification, got[0].certification_id)
        shown = cooperatives.shown(uow, first)
        assert (shown.cooperative, shown.election, shown.recorded_by) == (
            "Cooperativa Jardines", "residential", "Banco")
        assert shown.units == (_catastro(0), _catastro(2))
        assert first.answers["coop_elected_by"] == "cooperative"


def test_a_year_the_crim_has_not_adopted_its_values_for_refuses_each_row_saying_so(database):
    """A fiscal year the parameter files hold no CRIM values for (FY 2027-2028: the rates,
    the bills and the filing date are adopted up to 2026-2027): each of the bank's rows is
    refused naming the year, in both languages, never "cannot be computed from these values"
    (the values are fine) nor last year's rates; a row of another bank's loan still says
    only that it is not the bank's."""
    from portal.i18n import use_language
    from tests.support.clock import fixed_on
    with fixed_on(date(2027, 9, 15)):
        _world(database)
        rows = [_row(0), _row(1, loan_number="X-999")]
        with UnitOfWork(database) as uow:
            got = _processed(uow, rows)
            assert [(r.outcome, r.error_column, r.reason) for r in got] == [
                ("rejected", None, "crim_not_adopted"),
                ("rejected", "loan_number", "not_your_loan")]
            assert uow.session.scalar(select(ExemptionCertification.id).where(
                ExemptionCertification.loan_id.is_not(None))) is None
            with use_language("en"):
                assert lb.reason_text(got[0]).startswith(
                    "The CRIM has not yet adopted its values for fiscal year 2027-2028 ")
            with use_language("es"):
                assert lb.reason_text(got[0]).startswith(
                    "El CRIM todavía no ha adoptado sus valores para el año fiscal 2027-2028 ")
