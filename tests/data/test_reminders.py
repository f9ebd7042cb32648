"""The reminders' services (docs/REMINDERS.md): the day's sending is idempotent, says
nothing of what is paid or what a lender's intent covers, stops on one click, waits for a
relative's confirmation; the preferences and the calendar. Each test sets the clock it needs.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from email import message_from_bytes
from email.policy import default as email_policy

import pytest
from icalendar import Calendar
from sqlalchemy import select

from portal import clock, mail
from portal.accounts import pay_links
from portal.accounts.errors import Forbidden, InvalidInput, NotFound
from portal.db import UnitOfWork
from portal.models import OutboxMessage
from portal.models.reminders import ReminderSent
from portal.reminders import calendar, preferences, relatives, sending
from tests.support.clock import at
from tests.support.world import pay, seed

CONFIG = {"MAIL_FROM": "portal@test.pr", "PORTAL_BASE_URL": "https://portal.test",
          "SECRET_KEY": "k"}
NOV_3 = date(2026, 11, 3)  # 7 days before installment 5's last timely day (10 November)
NOV_11 = date(2026, 11, 11)  # the day installment 5 became late


@pytest.fixture
def world(database):
    w = seed(database, ("1200.00",))
    pay(w, "0", "400.00", date(2026, 7, 5))  # installments 1-4
    return w


def run(world, day):
    with clock.fixed(at(day, 6)):
        return sending.run(world.database, day, CONFIG)


def messages(world) -> list:
    with world.uow() as uow:
        rows = uow.session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
        return [message_from_bytes(r.raw, policy=email_policy) for r in rows]


def test_one_reminder_per_day_and_a_second_run_sends_nothing(world):
    assert run(world, NOV_3)["sent"] == 1
    assert run(world, NOV_3)["sent"] == 0
    assert run(world, date(2026, 11, 4))["sent"] == 0  # the same day's reminder: already sent
    (msg,) = messages(world)
    assert msg["To"] == "duena@example.com"
    body = msg.get_content()
    assert "$100.00" in body and "10 de noviembre de 2026" in body
    assert f"https://portal.test/pagar?parcela={world.parcel['0']}" in body
    assert msg["List-Unsubscribe"].startswith("<https://portal.test/recordatorios/baja/")
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    with world.uow() as uow:  # the address whole, never RFC 2047 words a reader cannot use
        raw = uow.session.scalars(select(OutboxMessage.raw)).one()
        assert b"List-Unsubscribe: <https://portal.test/recordatorios/baja/" in raw
    with world.uow() as uow:
        (row,) = uow.session.scalars(select(ReminderSent)).all()
        assert (row.kind, row.day, row.recipient) == ("installment_due", date(2026, 11, 10),
                                                      "duena@example.com")


def test_the_late_day_says_what_was_added(world):
    assert run(world, NOV_11)["sent"] == 1
    body = messages(world)[0].get_content()
    assert "$5.00" in body and "cargo por demora" in body


def test_a_paid_installment_gets_no_reminder(world):
    pay(world, "0", "100.00", date(2026, 11, 2))  # installment 5
    assert run(world, NOV_3)["sent"] == 0
    assert run(world, NOV_11)["sent"] == 0


def test_unsubscribe_stops_them(world):
    assert run(world, NOV_3)["sent"] == 1
    with world.uow() as uow:
        token = preferences.settings_of(uow, world.owner.id).unsubscribe_token
    with clock.fixed(at(NOV_3, 9)), world.uow() as uow:
        assert preferences.unsubscribe(uow, token).who == "account"
    with world.uow() as uow:
        assert preferences.unsubscribe(uow, token).stopped  # twice: no change
        with pytest.raises(NotFound):
            preferences.unsubscribe(uow, "nope")
    assert run(world, NOV_11)["sent"] == 0


def test_a_parcel_turned_off_and_the_days_before(world):
    with world.uow() as uow:
        owner = world.user(uow, "owner")
        preferences.save(uow, owner, enabled=True, days_before=14, parcels_on=[])
    assert run(world, NOV_3)["sent"] == 0
    with world.uow() as uow:
        owner = world.user(uow, "owner")
        preferences.save(uow, owner, enabled=True, days_before="14",
                         parcels_on=[world.parcel["0"]])
        with pytest.raises(InvalidInput):
            preferences.save(uow, owner, enabled=True, days_before=8, parcels_on=[])
        with pytest.raises(InvalidInput):  # not one's own parcel
            preferences.save(uow, owner, enabled=True, days_before=7, parcels_on=[999999])
    assert run(world, date(2026, 10, 27))["sent"] == 1  # 14 days before


def test_what_a_lender_said_it_will_pay_gets_no_reminder(world, monkeypatch):
    monkeypatch.setattr(sending, "covered_by_intents", lambda uow, pid, fy: {5})
    assert run(world, NOV_3)["sent"] == 0


def test_autopay_covers_it(world, monkeypatch):
    monkeypatch.setattr(sending, "covered_by_autopay", lambda uow, pid, day: True)
    assert run(world, NOV_3)["sent"] == 0
    assert run(world, NOV_11)["sent"] == 1  # once late, the owner is told


def test_a_relative_gets_nothing_before_confirming(world):
    with world.uow() as uow:
        owner = world.user(uow, "owner")
        rel = relatives.add(uow, owner, world.parcel["0"], "Nieta@Example.com", "en",
                            config=CONFIG)
        token = rel.confirm_token
        other = world.user(uow, "other")
        with pytest.raises(NotFound):
            relatives.add(uow, other, world.parcel["0"], "x@example.com", "es", config=CONFIG)
    (confirm,) = messages(world)
    assert confirm["To"] == "nieta@example.com"
    assert f"https://portal.test/recordatorios/confirmar/{token}" in confirm.get_content()
    assert run(world, NOV_3)["sent"] == 1  # the owner only
    with world.uow() as uow:
        relatives.confirm(uow, token)
    assert run(world, date(2026, 11, 4))["sent"] == 1  # the relative's, in English
    msg = messages(world)[-1]
    assert msg["To"] == "nieta@example.com" and msg["Content-Language"] == "en-US"
    body = msg.get_content()
    link = re.search(r"https://portal.test/pagar-sin-cuenta/enlace/(\S+)", body)
    assert link and pay_links.parcel_of(link.group(1), "k") == world.parcel["0"]
    assert "November 10, 2026" in body


def test_only_a_manager_adds_a_relative(world):
    with world.uow() as uow:
        staff = world.user(uow, "staff")
        with pytest.raises((Forbidden, NotFound)):
            relatives.add(uow, staff, world.parcel["0"], "x@example.com", "es", config=CONFIG)


def test_calendar_feed_parses_back_and_resets(world):
    with world.uow() as uow:
        token = preferences.view(uow, world.user(uow, "owner")).calendar_token
    with clock.fixed(at(NOV_3)), world.uow() as uow:
        data = calendar.account_feed(uow, token, CONFIG)
    cal = Calendar.from_ical(data)
    events = cal.walk("VEVENT")
    days = {e.decoded("dtstart"): str(e["summary"]) for e in events}
    assert days[date(2026, 11, 10)].startswith("Último día para pagar el plazo 5")
    uids = [str(e["uid"]) for e in events]
    assert len(set(uids)) == len(uids)
    with clock.fixed(at(NOV_3)), world.uow() as uow:
        again = Calendar.from_ical(calendar.account_feed(uow, token, CONFIG))
    assert [str(e["uid"]) for e in again.walk("VEVENT")] == uids  # stable
    with world.uow() as uow:
        new = preferences.reset_calendar(uow, world.user(uow, "owner"))
    with world.uow() as uow:
        with pytest.raises(NotFound):
            calendar.account_feed(uow, token, CONFIG)
        assert calendar.account_feed(uow, new, CONFIG)


def _with_icalendar(name: str, events: list[dict]) -> bytes:
    """The same calendar built with `icalendar`, as calendar.py wrote it before its writer."""
    from icalendar import Event
    cal = Calendar()
    for k, v in (("prodid", calendar.PRODID), ("version", "2.0"), ("calscale", "GREGORIAN"),
                 ("method", "PUBLISH"), ("x-wr-calname", name),
                 ("x-wr-timezone", "America/Puerto_Rico"), ("x-published-ttl", "PT12H")):
        cal.add(k, v)
    cal.add("refresh-interval", timedelta(hours=12), parameters={"VALUE": "DURATION"})
    for e in events:
        ev = Event()
        ev.add("uid", e["uid"])
        ev.add("dtstamp", e["stamp"])
        ev.add("dtstart", e["day"])
        ev.add("dtend", e["day"] + timedelta(days=1))
        ev.add("summary", e["summary"])
        ev.add("description", e["description"])
        ev.add("transp", "TRANSPARENT")
        ev.add("url", e["url"])
        cal.add_component(ev)
    return cal.to_ical()


def test_the_calendar_file_is_byte_for_byte_what_icalendar_writes():
    # Escapes (backslash, semicolon, comma, new lines, a literal \N), carets, accented letters
    # and a 4-octet character around the 75-octet fold, long lines folded several times.
    texts = ["Último día para pagar el plazo 1 a tiempo (040-000-000-00)",
             "Monto adeudado hoy: $1,234.56. El portal muestra el monto del día en que paga.\n"
             "Pagar: https://portal.test/pagar?parcela=12",
             "a; b, c \\ d \\N e\r\nf\rg ^ h " * 7, "ñ" * 80, "x" * 73 + "\\" + "y" * 80,
             "x" * 72 + "^" + "é" * 40, "𝄞" * 30 + "a" * 50, ""]
    stamp = datetime(2026, 11, 30, 10, 0, 7, 123456, tzinfo=UTC)
    for name in [t for t in texts if "\n" not in t and "\r" not in t]:
        events = [{"uid": f"7-installment_due-2026-12-{n + 10}@portal.test", "stamp": stamp,
                   "day": date(2026, 12, n + 10), "summary": text, "description": texts[-n - 1],
                   "url": "https://portal.test/pagar?parcela=7&" + "q" * (n * 20)}
                  for n, text in enumerate(texts)]
        cal = calendar._Writer(name)
        for e in events:
            cal.event(uid=e["uid"], stamp=calendar._dtstamp(e["stamp"]), day=e["day"],
                      summary=e["summary"], description=e["description"], url=e["url"])
        assert cal.to_ical() == _with_icalendar(name, events)


def test_mail_after_commit_waits_for_the_outer_commit(sqlite_database):
    """A savepoint released inside a unit of work is not its commit: the hooks are told
    once, after the real commit (SQLAlchemy calls after_commit for a savepoint too)."""
    told: list[str] = []

    def hook(url, config):
        told.append(url)

    mail.on_committed(hook)
    try:
        with UnitOfWork(sqlite_database) as uow:
            with uow.session.begin_nested():
                mail.send(uow, "a@example.pr", "reset", "es", config=CONFIG, name="A",
                          link="x")
            assert told == []
        assert len(told) == 1
    finally:
        mail._COMMITTED.remove(hook)


@pytest.mark.postgres
def test_two_runs_at_once_on_postgresql_send_each_reminder_once(pg_database):
    """Two workers running the day's reminders at the same moment: the unique (parcel, kind,
    day, recipient) row lets one of them queue each email; the other's savepoint rolls back."""
    import threading

    from portal.db import Database
    from tests.support import schema
    database = Database(pg_database)
    schema.truncate(database)
    try:
        w = seed(database, ("1200.00", "600.00", "2400.00", "360.00"))
        gate = threading.Barrier(2)
        counts: list[int] = []

        def worker() -> None:
            gate.wait()
            counts.append(sending.run(database, NOV_3, CONFIG)["sent"])

        threads = [threading.Thread(target=worker) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        with w.uow() as uow:
            sent = uow.session.scalars(select(ReminderSent)).all()
            queued = uow.session.scalars(select(OutboxMessage)).all()
        assert sum(counts) == len(sent) == len(queued) == 4  # one per parcel
        assert len({(r.parcel_id, r.kind, r.day, r.recipient) for r in sent}) == 4
    finally:
        database.dispose()
