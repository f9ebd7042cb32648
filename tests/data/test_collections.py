"""Collections (J9): the delinquency run as a job (R-A12, R-A17) streams the accounts in
batches, all or nothing per batch, and re-running the same day creates nothing twice; the
mailing, the return receipt, the court list after the 15-day window (R-A13) and the claim
filed; who may read a demand letter (404 for anyone else)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.accounts import audit, facts
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.collections import demands
from portal.jobs import runner
from portal.models import DemandLetter, Job, Notice, Party, User
from tests.support.clock import TODAY, at
from tests.support.world import pay


def _staff(uow, world):
    return uow.session.get(User, world.staff.id)


def _letters(world, *where):
    with world.uow() as uow:
        return uow.session.scalar(select(func.count()).select_from(DemandLetter).where(*where))


def _run_job(world, run_on: date = TODAY) -> Job:
    with world.uow() as uow:
        job_id = runner.submit(uow, _staff(uow, world), demands.KIND,
                             {"run_on": run_on.isoformat()}).id
    return runner.run(world.database, job_id)


def test_the_run_demands_every_delinquent_account_once_a_day(world, monkeypatch):
    """R-A12: A, B, C and D owe every installment since July (nobody paid): four demands,
    each the statement's figures as of the run's day, as NUMERIC; the same day again is a
    no-op (R-A17: idempotent), in batches of two accounts (CHUNK)."""
    monkeypatch.setattr(demands, "CHUNK", 2)
    pay(world, "B", "10000.00", date(2026, 7, 5))  # B pays the whole year: not delinquent
    job = _run_job(world)
    assert job.status == "succeeded", job.error_code
    assert job.result == {"run_on": "2026-11-30", "demands": 3}
    assert job.done == job.total == 4  # A, B, C, D have assessments; E is exempt
    with world.uow() as uow:
        letters = {dl.parcel_id: dl for dl in uow.session.scalars(select(DemandLetter))}
        assert set(letters) == {world.parcel[k] for k in "ACD"}
        for pid, dl in letters.items():
            n = uow.session.get(Notice, dl.notice_id)
            fy = uow.session.get(facts.FiscalYear, world.fy_id)
            st = facts.load(uow, pid, fy).evaluate(TODAY)
            assert isinstance(dl.total, Decimal)
            assert (dl.interest, dl.late_fees, dl.costs, dl.delinquent_principal, dl.total) == (
                st.interest, st.late_fees, st.costs, st.delinquent_principal, st.total_due_now)
            assert dl.installments == ",".join(str(i.number) for i in st.installments
                                               if i.status == "delinquent")
            assert n.kind == "demand" and n.amount == st.total_due_now and n.mailed_on is None
            assert dl.job_id == job.id
        lessee = uow.session.get(Notice, letters[world.parcel["D"]].notice_id)
        assert uow.session.get(Party, lessee.addressee_party_id).name == "Lessee LLC"  # R-A16
    again = _run_job(world)
    assert again.status == "succeeded" and again.result["demands"] == 3
    assert _letters(world) == 3
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(Notice).where(
            Notice.kind == "demand")) == 3


def test_a_failed_batch_leaves_the_batches_before_it_and_nothing_of_its_own(world, monkeypatch):
    """All or nothing per batch: the second batch fails on its second demand; the first
    batch's demands stay, none of the second's; running again completes it."""
    monkeypatch.setattr(demands, "CHUNK", 2)
    real = audit.record
    calls = {"n": 0}

    def flaky(uow, actor, action, *a, **kw):
        if action == "demand.queued":
            calls["n"] += 1
            if calls["n"] == 4:
                raise RuntimeError("disk full")
        return real(uow, actor, action, *a, **kw)

    monkeypatch.setattr(demands.audit, "record", flaky)
    job = _run_job(world)
    assert job.status == "failed" and job.error_code == runner.UNEXPECTED
    assert job.done == 2
    assert _letters(world) == 2
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(Notice).where(
            Notice.kind == "demand")) == 2
    monkeypatch.setattr(demands.audit, "record", real)
    assert _run_job(world).status == "succeeded"
    assert _letters(world) == 4


def test_a_new_delinquency_gets_a_new_demand_and_old_ones_none(world):
    """R-A18: a run the next day finds nothing new (the same installments were demanded); on
    2026-12-11, December's installment is delinquent too (its day G, 12-10, has passed): a
    new demand for each account."""
    with world.uow() as uow:
        demands.run(uow, _staff(uow, world), TODAY)
    assert _letters(world) == 4
    with clock.fixed(at(date(2026, 12, 1))), world.uow() as uow:
        assert demands.run(uow, _staff(uow, world)).demands == 0
    with clock.fixed(at(date(2026, 12, 11))), world.uow() as uow:
        assert demands.run(uow, _staff(uow, world)).demands == 4
    assert _letters(world) == 8


def test_only_staff_run_and_not_for_a_day_to_come(world):
    with world.uow() as uow:
        alice = uow.session.get(User, world.alice.id)
        with pytest.raises(Forbidden):
            runner.submit(uow, alice, demands.KIND, {"run_on": TODAY.isoformat()})
        staff = _staff(uow, world)
        for bad in ("2026-12-01", "tomorrow", None):
            with pytest.raises(InvalidInput):
                runner.submit(uow, staff, demands.KIND, {"run_on": bad})
        with pytest.raises(Conflict):  # no fiscal year on that day
            runner.submit(uow, staff, demands.KIND, {"run_on": "2020-01-02"})


def test_mailing_receipt_window_court_list_and_claim(world):
    """R-A12, R-A13: mailed 2026-11-04 (Wed): 15 days is 11-19, Puerto Rican Identity Day,
    so the last day is 11-20 and the account is claimable from 11-21; on the court list
    today (11-30) with what the demand listed still owed; claimed once, not before 11-21."""
    with clock.fixed(at(date(2026, 11, 3))), world.uow() as uow:
        demands.run(uow, _staff(uow, world))
    with world.uow() as uow:
        staff = _staff(uow, world)
        a = uow.session.scalar(select(Notice).where(
            Notice.parcel_id == world.parcel["A"], Notice.kind == "demand"))
        with pytest.raises(InvalidInput):
            demands.record_mailing(uow, staff, a.id, date(2026, 12, 1), "9400 1000 0000 0000 0001")
        demands.record_mailing(uow, staff, a.id, date(2026, 11, 4), "9400 1000 0000 0000 0001",
                                   Decimal("7.00"))
        with pytest.raises(Conflict):
            demands.record_mailing(uow, staff, a.id, date(2026, 11, 4), "9400 1000 0000 0000 0002")
        with pytest.raises(InvalidInput):  # a receipt before the mailing
            demands.record_receipt(uow, staff, a.id, date(2026, 11, 3))
        demands.record_receipt(uow, staff, a.id, date(2026, 11, 9))
        a_id = a.id
    with world.uow() as uow:
        staff = _staff(uow, world)
        rows = {r.notice.id: r for r in demands.demands(uow, staff)}
        assert rows[a_id].last_day == date(2026, 11, 20)
        assert rows[a_id].claimable_from == date(2026, 11, 21)
        court = demands.court_list(uow, staff)
        assert [r.notice.id for r in court] == [a_id]
        assert court[0].stop_amount > 0
        queued = demands.demands(uow, staff, status="queued")
        assert a_id not in {r.notice.id for r in queued} and len(queued) == 3
    with clock.fixed(at(date(2026, 11, 20))), world.uow() as uow:
        staff = _staff(uow, world)
        assert demands.court_list(uow, staff) == []  # the last day: not yet
        assert demands.demands(uow, staff, status="received")[0].notice.id == a_id
    with world.uow() as uow:
        staff = _staff(uow, world)
        with pytest.raises(InvalidInput):
            demands.record_claim(uow, staff, a_id, date(2026, 11, 20), "SJ2026CV001")
        demands.record_claim(uow, staff, a_id, date(2026, 11, 25), "SJ2026CV001")
    with world.uow() as uow:
        staff = _staff(uow, world)
        with pytest.raises(Conflict):
            demands.record_claim(uow, staff, a_id, date(2026, 11, 26), "SJ2026CV002")
        assert demands.court_list(uow, staff) == []
        assert demands.demands(uow, staff, status="claimed")[0].notice.id == a_id


def test_paying_what_the_demand_listed_takes_it_off_the_court_list(world):
    """R-A18: paid in full (here the whole year) the demand is not claimable any more."""
    with clock.fixed(at(date(2026, 11, 3))), world.uow() as uow:
        demands.run(uow, _staff(uow, world))
        a = uow.session.scalar(select(Notice).where(
            Notice.parcel_id == world.parcel["A"], Notice.kind == "demand"))
        demands.record_mailing(uow, _staff(uow, world), a.id, date(2026, 11, 3),
                               "9400 1000 0000 0000 0001")
    pay(world, "A", "10000.00", date(2026, 11, 29))
    with world.uow() as uow:
        assert demands.court_list(uow, _staff(uow, world)) == []


def test_who_may_read_a_demand_letter(world):
    """The owner (A: Alice) and staff; not another owner (Bob), not the lender (its loan is
    on C), not an unknown id: NotFound, as for a letter that does not exist."""
    with world.uow() as uow:
        demands.run(uow, _staff(uow, world), TODAY)
        ids = {n.parcel_id: n.id for n in uow.session.scalars(select(Notice).where(
            Notice.kind == "demand"))}
    a, c = ids[world.parcel["A"]], ids[world.parcel["C"]]
    with world.uow() as uow:
        s = uow.session
        got = demands.letter(uow, s.get(User, world.alice.id), a)
        assert got.parcel.id == world.parcel["A"]
        assert got.timeline.next is not None and got.timeline.next.amount > 0
        assert demands.letter(uow, _staff(uow, world), c).parcel.id == world.parcel["C"]
        for user, nid in ((world.bob, a), (world.lender_user, c), (world.alice, c),
                          (world.alice, 10**6), (None, a)):
            with pytest.raises(NotFound):
                demands.letter(uow, s.get(User, user.id) if user else None, nid)


def test_the_run_reads_the_accounts_a_batch_at_a_time(world, monkeypatch):
    """Constant memory: each step loads at most CHUNK accounts' facts, by key, never every
    parcel at once (docs/JOBS.md, "Batches and memory")."""
    monkeypatch.setattr(demands, "CHUNK", 2)
    sizes: list[int] = []
    real = facts.load_many

    def spy(uow, ids, fy, **kw):  # noqa: ANN001, ANN003, ANN202
        ids = list(ids)
        sizes.append(len(ids))
        return real(uow, ids, fy, **kw)

    monkeypatch.setattr(demands.facts, "load_many", spy)
    with world.uow() as uow:
        assert demands.run(uow, _staff(uow, world), TODAY).demands == 4
    assert sizes == [2, 2]


def _csv(lines: list[str]) -> bytes:
    return "\n".join(lines).encode()


def _queued(world) -> dict[str, int]:
    """The demands of A, B, C and D, queued on 13 November (before the mailings below)."""
    with clock.fixed(at(date(2026, 11, 13))), world.uow() as uow:
        demands.run(uow, _staff(uow, world))
        return {k: uow.session.scalar(select(Notice.id).where(
            Notice.parcel_id == world.parcel[k], Notice.kind == "demand")) for k in "ABCD"}


def test_the_post_offices_file_records_every_row_or_none(world):
    """R-A12: mailings and return receipts from a CSV; one bad row and nothing is recorded,
    with each row's errors; the same file again changes nothing."""
    ids = _queued(world)
    num = "9407 1118 9876 5432 1001 0"
    bad = ["requerimiento,numero,enviado,acuse,franqueo",
           f"{ids['A']},{num}1,2026-11-20,2026-11-24,7.00",
           f"{ids['B']},,2026-11-20,,",                        # no number
           f"{ids['C']},{num}3,2026-12-01,,",                 # a day to come
           f"{ids['D']},{num}4,2026-11-20,2026-11-19,abc",    # receipt before mailing; cost
           f"999999,{num}5,2026-11-20,,",                     # no such demand
           f"{ids['A']},{num}1,2026-11-20,,"]                 # the same demand twice
    rows, problems = demands.read_mailings(_csv(bad))
    assert problems == [] and len(rows) == 6
    with pytest.raises(InvalidInput) as info:
        with world.uow() as uow:
            demands.record_mailings(uow, _staff(uow, world), rows)
    found = {(e.line, e.field, e.code) for e in info.value.params["errors"]}
    assert found == {(3, "number", "missing"), (4, "mailed_on", "future"),
                     (5, "received_on", "before_mailing"), (5, "cost", "invalid"),
                     (6, "demand", "not_found"), (7, "demand", "twice")}
    with world.uow() as uow:  # nothing recorded, not even row 2
        assert uow.session.get(Notice, ids["A"]).mailed_on is None
    good = ["\ufeffDemand,Certified_mail_number,Mailed_on,Received_on,Cost",
            f"{ids['A']},9407 1118 9876 5432 1001 01,2026-11-20,2026-11-24,7.00", "",
            f"{ids['B']},9407 1118 9876 5432 1001 02,2026-11-21,,"]
    for _ in range(2):  # the same file again: a no-op
        rows, problems = demands.read_mailings(_csv(good))
        assert problems == [] and len(rows) == 2
        with world.uow() as uow:
            demands.record_mailings(uow, _staff(uow, world), rows)
    with world.uow() as uow:
        a, b = uow.session.get(Notice, ids["A"]), uow.session.get(Notice, ids["B"])
        assert (str(a.mailed_on), a.certified_mail_number, str(a.acknowledged_on)) == (
            "2026-11-20", "9407 1118 9876 5432 1001 01", "2026-11-24")
        assert a.cost_entry_id is not None and b.acknowledged_on is None
        from portal.models import LedgerEntry
        assert uow.session.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.parcel_id == world.parcel["A"], LedgerEntry.kind == "cost")) == 1
    other = [good[0], f"{ids['A']},9407 1118 9876 5432 1001 99,2026-11-20,,"]
    with pytest.raises(InvalidInput) as info, world.uow() as uow:
        demands.record_mailings(uow, _staff(uow, world), demands.read_mailings(_csv(other))[0])
    assert [e.code for e in info.value.params["errors"]] == ["other_mailing"]
    c3 = f"{ids['C']},9407 1118 9876 5432 1001 03,2026-11-20"
    odd = [good[0], "１２,9407 1118 9876 5432 1001 11,２０２６-１１-２０,,１２", f"{c3},,1e2",
           f"{c3},,7.001"]
    with pytest.raises(InvalidInput) as info, world.uow() as uow:
        demands.record_mailings(uow, _staff(uow, world), demands.read_mailings(_csv(odd))[0])
    assert {(e.line, e.field) for e in info.value.params["errors"]} == {
        (2, "demand"), (2, "mailed_on"), (2, "cost"), (3, "cost"), (4, "demand"), (4, "cost")}
    assert demands.read_mailings(b"numero,enviado")[1][0].code == "missing:demand"
    assert demands.read_mailings(b"")[1][0].code == "empty"


def test_the_post_office_file_reads_dates_and_postage_with_the_portals_parsers(world):
    """The post office's dates and postage go through the one parser of each kind: a Spanish
    reader's 20/11/2026 is the 20th of November; "1.500,00" and "1e3" are refused as amounts,
    each with the parser's own words; nothing is recorded while any row is wrong."""
    from portal import date_input, money_input

    ids = _queued(world)
    num = "9407 1118 9876 5432 1001 0"
    bad = ["requerimiento,numero,enviado,acuse,franqueo",
           f"{ids['A']},{num}1,20/11/2026,24/11/2026,7.00",
           f"{ids['B']},{num}2,2026-11-20,,1.500,00".replace("1.500,00", '"1.500,00"'),
           f"{ids['C']},{num}3,31/11/2026,,1e3"]
    rows, problems = demands.read_mailings(_csv(bad))
    assert problems == [] and len(rows) == 3
    with pytest.raises(InvalidInput) as info:
        with world.uow() as uow:
            demands.record_mailings(uow, _staff(uow, world), rows, "es")
    errors = {(e.line, e.field): e for e in info.value.params["errors"]}
    assert set(errors) == {(3, "cost"), (4, "mailed_on"), (4, "cost")}
    assert isinstance(errors[3, "cost"].typed, money_input.MoneyInputError)
    assert errors[3, "cost"].typed.code == "other_separators"
    assert errors[4, "cost"].typed.code == "exponent"
    assert isinstance(errors[4, "mailed_on"].typed, date_input.DateInputError)
    assert errors[4, "mailed_on"].typed.code == "bad_date"
    with world.uow() as uow:
        assert uow.session.get(Notice, ids["A"]).mailed_on is None
    with world.uow() as uow:
        assert demands.record_mailings(uow, _staff(uow, world), rows[:1], "es") == 1
    with world.uow() as uow:
        a = uow.session.get(Notice, ids["A"])
        assert (str(a.mailed_on), str(a.acknowledged_on)) == ("2026-11-20", "2026-11-24")
