"""The mailing of a demand as recorded (R-A12, R-A13): a certified-mail number is a USPS
article number (a spreadsheet formula never is), the mailing date neither before the demand
existed nor a day to come; the post office's file read like every other upload (semicolons)
and the same file twice records nothing new; a recorded mailing corrected by staff, audited
with the old and the new value, the 15 days then running from the corrected date."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from portal import clock
from portal.accounts.errors import Conflict, Forbidden, InvalidInput
from portal.collections import demands, mailing
from portal.models import AuditRecord, Notice, User
from tests.support.clock import at

NUMBER = "9407 1118 9876 5432 1001 23"


def _staff(uow, world):
    return uow.session.get(User, world.staff.id)


def _queued_on_13_november(world) -> dict[str, int]:
    with clock.fixed(at(date(2026, 11, 13))), world.uow() as uow:
        demands.run(uow, _staff(uow, world))
        return {k: uow.session.scalar(select(Notice.id).where(
            Notice.parcel_id == world.parcel[k], Notice.kind == "demand")) for k in "ABCD"}


@pytest.mark.parametrize(("typed", "kept"), [
    ("94071118987654321001 23", NUMBER),
    (" 9407 1118 9876 5432 1001 23 ", NUMBER),
    ("9400 1000 0000 0000 0001", "9400 1000 0000 0000 0001"),  # the older 20 digits
    ('=HYPERLINK("http://evil","x")', None),
    ("=1+94071118987654321001", None),
    ("9407 1118 9876 5432 1001 2", None),  # 21 digits
    ("９４０７１１１８９８７６５４３２１００１２３", None),  # full-width digits
    ("9407-1118-9876-5432-1001-23", None),
    ("", None),
])
def test_a_certified_mail_number_is_20_or_22_digits(typed, kept):
    assert mailing.certified_number(typed) == kept


def test_a_mailing_that_cannot_be_true_is_refused(world):
    """Queued 13 November: a mailing on the 12th (before the demand existed), on 1 December
    (a day to come, today is 30 November) or with a formula for a number is refused, and
    nothing is kept; a true one is kept with its number in groups of four."""
    ids = _queued_on_13_november(world)
    for day, number, field, code in (
            (date(2026, 11, 12), NUMBER, "mailed_on", "before_demand"),
            (date(2026, 12, 1), NUMBER, "mailed_on", "future"),
            (date(2026, 11, 16), '=HYPERLINK("http://evil","x")', "certified_mail_number",
             "invalid")):
        with pytest.raises(InvalidInput) as info, world.uow() as uow:
            demands.record_mailing(uow, _staff(uow, world), ids["A"], day, number)
        assert (info.value.params["field"], info.value.code) == (field, code)
    with world.uow() as uow:
        assert uow.session.get(Notice, ids["A"]).mailed_on is None
        demands.record_mailing(uow, _staff(uow, world), ids["A"], date(2026, 11, 13),
                               "94071118987654321001 23")
    with world.uow() as uow:
        n = uow.session.get(Notice, ids["A"])
        assert (n.mailed_on, n.certified_mail_number) == (date(2026, 11, 13), NUMBER)


def test_the_post_offices_file_with_semicolons_and_twice(world):
    """A Spanish-locale spreadsheet's CSV (semicolons, Windows-1252) is read; the first upload
    records two rows; the same file again records nothing new (0); a row mailed before its
    demand existed, or with a formula for a number, is refused with its row."""
    ids = _queued_on_13_november(world)
    data = ("Requerimiento;Número;Enviado;Acuse\r\n"
            f"{ids['A']};{NUMBER};2026-11-16;2026-11-19\r\n"
            f"{ids['B']};9400 1000 0000 0000 0002;2026-11-17;\r\n").encode("cp1252")
    rows, problems = demands.read_mailings(data)
    assert problems == [] and [r.demand for r in rows] == [str(ids["A"]), str(ids["B"])]
    with world.uow() as uow:
        assert demands.record_mailings(uow, _staff(uow, world), rows) == 2
    with world.uow() as uow:
        assert demands.record_mailings(uow, _staff(uow, world),
                                       demands.read_mailings(data)[0]) == 0
    bad = ("requerimiento;numero;enviado\n"
           f"{ids['C']};{NUMBER};2026-11-12\n"
           f"{ids['D']};=HYPERLINK(\"http://evil\",\"x\");2026-11-16\n").encode()
    with pytest.raises(InvalidInput) as info, world.uow() as uow:
        demands.record_mailings(uow, _staff(uow, world), demands.read_mailings(bad)[0])
    assert {(e.line, e.field, e.code) for e in info.value.params["errors"]} == {
        (2, "mailed_on", "before_demand"), (3, "number", "invalid")}
    assert demands.read_mailings(b"\x00\x01")[1][0].code == "not_text"


def _row(world, notice_id: int) -> demands.DemandRow:
    with world.uow() as uow:
        return next(r for r in demands.demands(uow, _staff(uow, world))
                    if r.notice.id == notice_id)


def test_staff_correct_a_mailing_and_the_15_days_follow(world):
    """Recorded as mailed on 16 November (last day 1 December), corrected to 13 November: the
    audit keeps both values, and the last day is 30 November (15 days: the 28th, a Saturday,
    rolls to Monday the 30th) and the claim is possible from 1 December."""
    ids = _queued_on_13_november(world)
    with world.uow() as uow:
        demands.record_mailing(uow, _staff(uow, world), ids["A"], date(2026, 11, 16), NUMBER)
    assert _row(world, ids["A"]).last_day == date(2026, 12, 1)
    with world.uow() as uow:
        demands.correct_mailing(uow, _staff(uow, world), ids["A"], date(2026, 11, 13),
                                "9407 1118 9876 5432 1001 24")
    row = _row(world, ids["A"])
    assert (row.last_day, row.claimable_from) == (date(2026, 11, 30), date(2026, 12, 1))
    assert row.notice.certified_mail_number == "9407 1118 9876 5432 1001 24"
    with world.uow() as uow:
        rec = uow.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "demand.mailing_corrected"))
        assert (rec.object_id, rec.actor_id) == (str(ids["A"]), world.staff.id)
        assert rec.before == {"mailed_on": "2026-11-16", "certified_mail_number": NUMBER}
        assert rec.after == {"mailed_on": "2026-11-13",
                             "certified_mail_number": "9407 1118 9876 5432 1001 24"}


def test_a_correction_is_checked_like_the_mailing(world):
    """Refused: before the demand, a day to come, a formula, after the return receipt, the
    same values (nothing to correct), a demand not mailed, a demand already claimed, and
    read-only staff; nothing changes and nothing is audited."""
    ids = _queued_on_13_november(world)
    with world.uow() as uow:
        staff = _staff(uow, world)
        demands.record_mailing(uow, staff, ids["A"], date(2026, 11, 16), NUMBER)
        demands.record_receipt(uow, staff, ids["A"], date(2026, 11, 18))
    for day, number, code in ((date(2026, 11, 12), NUMBER, "before_demand"),
                              (date(2026, 12, 1), NUMBER, "future"),
                              (date(2026, 11, 19), NUMBER, "after_receipt"),
                              (date(2026, 11, 14), "=1+1", "invalid")):
        with pytest.raises(InvalidInput) as info, world.uow() as uow:
            demands.correct_mailing(uow, _staff(uow, world), ids["A"], day, number)
        assert info.value.code == code
    for nid, day in ((ids["A"], date(2026, 11, 16)), (ids["B"], date(2026, 11, 16))):
        with pytest.raises(Conflict) as info, world.uow() as uow:
            demands.correct_mailing(uow, _staff(uow, world), nid, day, NUMBER)
        assert info.value.code == ("unchanged" if nid == ids["A"] else "not_mailed")
    with clock.fixed(at(date(2026, 12, 2))):  # claimable from 2 December (last day the 1st)
        with world.uow() as uow:
            demands.record_claim(uow, _staff(uow, world), ids["A"], date(2026, 12, 2), "SJ1")
        with pytest.raises(Conflict) as info, world.uow() as uow:
            demands.correct_mailing(uow, _staff(uow, world), ids["A"], date(2026, 11, 14),
                                    NUMBER)
    assert info.value.code == "already_claimed"
    with world.uow() as uow:
        staff = _staff(uow, world)
        staff.staff_role = "read_only"
    with pytest.raises(Forbidden), world.uow() as uow:
        demands.correct_mailing(uow, _staff(uow, world), ids["B"], date(2026, 11, 14), NUMBER)
    with world.uow() as uow:
        assert uow.session.get(Notice, ids["A"]).mailed_on == date(2026, 11, 16)
        assert uow.session.scalar(select(AuditRecord.id).where(
            AuditRecord.action == "demand.mailing_corrected")) is None


def test_the_staffs_mail_by_counts_the_declared_closed_days(world):
    """R-A17: queued Friday 13 November, mailed within 5 working days: 16, 17, 18, 20 (the
    19th is Discovery Day) and Monday the 23rd; with the 17th declared closed by the Board,
    the 24th (closed days counted as the timeline counts them)."""
    from portal.roll import board_parameters

    ids = _queued_on_13_november(world)
    assert _row(world, ids["A"]).mail_by == date(2026, 11, 23)
    with world.uow() as uow:
        staff = _staff(uow, world)
        staff.staff_role = "administrator"
        board_parameters.declare_closed(uow, staff, date(2026, 11, 17), date(2026, 11, 17),
                                        "Huracán", "Hurricane", "2026-41", date(2026, 11, 16))
    assert _row(world, ids["A"]).mail_by == date(2026, 11, 24)
    with world.uow() as uow:
        demands.record_mailing(uow, _staff(uow, world), ids["A"], date(2026, 11, 20), NUMBER)
    assert _row(world, ids["A"]).mail_by is None
