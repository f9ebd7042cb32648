"""R-A5: the email of an amendment sent in December names the parcel page's figures (the one
offer, `core.offer`): the next amount with a last day not yet gone, and the credit."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from email import message_from_bytes
from email.policy import default as email_policy
from pathlib import Path

import pytest

from portal import clock, outbox  # noqa: F401 - `outbox` delivers inline (MAIL_INLINE)
from portal.accounts import statements
from portal.i18n import formats, use_language
from portal.models import User
from portal.roll import budgets, notices, roll
from portal.roll.budgets import LineInput
from portal.web.accounts.views import answer
from tests.support.clock import at
from tests.support.world import pay

DECEMBER = date(2026, 12, 15)


def _mails(folder: Path) -> dict[str, str]:
    out = {}
    for p in sorted(folder.glob("*.eml")):
        m = message_from_bytes(p.read_bytes(), policy=email_policy)
        out[str(m["To"])] = m.get_content()
    return out


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_amendment_email_names_the_parcel_pages_next_payment_and_credit(world, tmp_path,
                                                                             lang):
    config = {"MAIL_FROM": "Portal <portal@example.pr>", "OUTBOX_DIR": str(tmp_path / "out"),
              "PORTAL_BASE_URL": "http://127.0.0.1:5000", "MAIL_SERVER": None,
              "MAIL_INLINE": True}
    with world.uow() as uow:
        uow.session.get(User, world.bob.id).language = lang
        uow.session.get(User, world.alice.id).language = lang
    pay(world, "B", "1000.00", date(2026, 7, 8))  # B (3,000.00 a year) pays ahead
    with clock.fixed(at(DECEMBER)), world.uow() as uow:  # the Board halves the project
        staff = uow.session.get(User, world.staff.id)
        fy = uow.session.get(budgets.FiscalYear, world.fy_id)
        v2 = budgets.draft(uow, staff, fy, [
            LineInput("project", "Proyecto", "Project", Decimal("15000.00"), Decimal("1000.00")),
            LineInput("maintenance", "Mantenimiento", "Maintenance", Decimal("2000.00"),
                      Decimal("2000.00"))], reference="Res. 2", effective_on=DECEMBER)
        budgets.adopt(uow, staff, v2.id, DECEMBER)
        r2 = roll.compute(uow, staff, v2.id)
        roll.publish(uow, staff, r2.id, DECEMBER)
    with clock.fixed(at(DECEMBER)), world.uow() as uow:
        notices.notify(uow, uow.session.get(User, world.staff.id), r2.id, config)

    mails = _mails(tmp_path / "out")
    f = formats(lang)
    for who, key in (("alice", "A"), ("bob", "B")):
        body = mails[f"{who}@test.pr"]
        with clock.fixed(at(DECEMBER)), world.uow() as uow, use_language(lang):
            user = uow.session.get(User, getattr(world, who).id)
            acct = statements.statement_for(uow, user, world.parcel[key])
            page = answer(acct, f)  # what the parcel page says first
            credit = acct.offer.statement.credit
            nxt = acct.offer.to_pay_next
        if page.amount:
            assert nxt is not None and nxt.owed == page.amount
            assert nxt.last_timely_day >= DECEMBER and (page.day is None
                                                        or page.day == nxt.last_timely_day)
            assert f.money(page.amount) in body and f.date_long(nxt.last_timely_day) in body
        else:
            assert nxt is None and page.kind == "done"
        assert (credit > 0) == (f.money(credit) in body) == (key == "B"), body
        assert f.date_long(date(2026, 7, 10)) not in body  # the first installment's day
        assert ("What to pay next" in body or "Nothing else" in body) == (lang == "en"), body
