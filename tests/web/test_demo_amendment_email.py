"""R-A5 on the demo District: the Board adds $300,000.00 to the budget in December; every
amendment email names the figures of the addressee's parcel page (the one offer,
`core.offer`): the next amount with a last day not yet gone, and the credit when there is
one, in the addressee's language; and the roll's review explains its net change by parts
that add up to it exactly."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import select

from portal import clock
from portal.accounts import statements
from portal.i18n import formats, use_language
from portal.models import Budget, BudgetVersion, FiscalYear, User
from portal.roll import budgets, notices, review, roll
from portal.roll.budgets import LineInput
from portal.web.accounts.views import answer
from tests.support.clock import at
from tests.support.demo import app_uow
from tests.support.pages import ROLES, STAFF_ROLE_EMAILS, outbox, read_mail

DECEMBER = date(2026, 12, 4)


def _amend(app, change: Decimal) -> int:
    with clock.fixed(at(DECEMBER, 9)), app_uow(app) as w:
        admin = w.session.scalar(select(User).where(
            User.email == STAFF_ROLE_EMAILS["administrator"]))
        w.session.scalar(select(User).where(User.email == ROLES["owner"])).language = "en"
        fy = w.session.scalar(select(FiscalYear).where(FiscalYear.starts_on <= DECEMBER,
                                                       FiscalYear.ends_on >= DECEMBER))
        latest = w.session.scalar(select(BudgetVersion).join(
            Budget, Budget.id == BudgetVersion.budget_id).where(
            Budget.fiscal_year_id == fy.id, BudgetVersion.status == "adopted")
            .order_by(BudgetVersion.version.desc()).limit(1))
        v2 = budgets.amend(w, admin, latest.id)
        lines = [LineInput(ln.kind, ln.description_es, ln.description_en, ln.amount,
                           ln.financed_by_assessments) for ln in budgets.lines(w, v2.id)]
        first = lines[0]
        lines[0] = replace(first, amount=first.amount + change,
                           financed_by_assessments=first.financed_by_assessments + change)
        budgets.update_draft(w, admin, v2.id, lines, reference="Res. 2026-12")
        budgets.adopt(w, admin, v2.id, DECEMBER)
        r2 = roll.compute(w, admin, v2.id)
        why = review.differences(w, admin, r2.id).why
        roll.publish(w, admin, r2.id, DECEMBER)
        assert why.explained and why.parts[0] == ("budget", change), why
    with clock.fixed(at(DECEMBER, 10)), app_uow(app) as w:
        admin = w.session.scalar(select(User).where(
            User.email == STAFF_ROLE_EMAILS["administrator"]))
        notices.notify(w, admin, r2.id, app.config)
    return r2.id


@pytest.mark.parametrize("change", ["300000.00", "-300000.00"])
def test_the_amendment_emails_name_the_parcel_pages_figures(demo_app, change):
    app = demo_app
    before = len(outbox(app))
    _amend(app, Decimal(change))
    mails = [read_mail(p) for p in outbox(app)[before:]]
    mails = [m for m in mails if "/propiedad/" in m.get_payload(decode=True).decode()]
    assert mails
    credits, langs = 0, set()
    for m in mails:
        body = m.get_payload(decode=True).decode()
        pid = int(re.search(r"/propiedad/(\d+)", body).group(1))
        with clock.fixed(at(DECEMBER, 10)), app_uow(app) as w:
            user = w.session.scalar(select(User).where(User.email == str(m["To"])))
            lang = user.language if user.language in ("es", "en") else "es"
            f = formats(lang)
            with use_language(lang):
                acct = statements.statement_for(w, user, pid)
                page = answer(acct, f)
            nxt, credit = acct.offer.to_pay_next, acct.offer.statement.credit
        if page.amount:
            assert nxt.owed == page.amount and nxt.last_timely_day >= DECEMBER
            assert f.money(page.amount) in body and f.date_long(nxt.last_timely_day) in body
        assert (f.money(credit) in body) == (credit > 0), body
        credits += credit > 0
        langs.add(lang)
        assert ("What to pay next" in body or "Nothing else" in body) == (lang == "en"), body
    assert langs == {"es", "en"}
    assert credits or Decimal(change) > 0, "a decrease leaves a lump-sum payer a credit"
