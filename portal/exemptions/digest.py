"""One email a day to each lender's users with the decisions made the day before on the
certifications of its loans, instead of an email per decision (R-B9: the
lender is told of each decision; docs/EXEMPTION.md, "Review in bulk").

A daily task (`portal.jobs.daily`, registered by `portal/domains.py`): run for day D, it
sends the decisions (approved, returned) made on day D - 1, Puerto Rico's day, so a day's
decisions are complete when they are sent. Idempotent for its day: each digest's Message-ID
is made of the lender, the user and the day, and the outbox keeps Message-IDs unique, so a
second run (another worker, the next hour, `portal daily --on`) finds it queued and sends
nothing twice. Each digest carries the one-click unsubscribe (`accounts.notice_emails`); a
user who stopped emailed notices gets none (the decisions stay on the lender's list)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, time, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal import clock, mail
from portal.accounts import notice_emails
from portal.config import mail_settings
from portal.db import Database, UnitOfWork
from portal.models import (
    ExemptionCertification,
    ExemptionEvent,
    Lender,
    Loan,
    OutboxMessage,
    Parcel,
    PartyMember,
    User,
)

NAME = "exemptions.decision_digest"
TEMPLATE = "exemption_digest"
DECISIONS = ("approved", "returned")


def _fy(start: date) -> str:
    return f"{start.year}-{start.year + 1}"


def decisions(uow: UnitOfWork, day: date) -> dict[int, list[dict[str, Any]]]:
    """{lender id: the decisions of `day` on its loans' certifications, in order}."""
    c = ExemptionCertification
    rows = uow.session.execute(
        select(Loan.lender_id, c.filing_number, Parcel.catastro, c.fiscal_year_start,
               ExemptionEvent.to_status)
        .join(c, c.id == ExemptionEvent.certification_id)
        .join(Loan, Loan.id == c.loan_id)
        .join(Parcel, Parcel.id == c.parcel_id)
        .where(ExemptionEvent.to_status.in_(DECISIONS),
               ExemptionEvent.created_at >= clock.pr_instant(day, time(0, 0)),
               ExemptionEvent.created_at < clock.pr_instant(day + timedelta(days=1),
                                                            time(0, 0)))
        .order_by(ExemptionEvent.id))
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for lender_id, number, catastro, fy, status in rows:
        out[lender_id].append({"number": number, "catastro": catastro,
                               "fiscal_year": _fy(fy), "status": status})
    return dict(out)


def message_id(lender_id: int, user_id: int, day: date, config: Any) -> str:
    return f"<exemption-digest.{lender_id}.{user_id}.{day.isoformat()}@{mail.domain(config)}>"


def send(database: Database, day: date, config: Any = None) -> dict[str, int]:
    """The digests of the decisions made on the day before `day` (the daily task)."""
    config = config or mail_settings()
    decided_on = day - timedelta(days=1)
    sent = already = 0
    link = str(config.get("PORTAL_BASE_URL") or "").rstrip("/") + "/prestamista/exoneraciones"
    with UnitOfWork(database) as uow:
        found = decisions(uow, decided_on)
        for lender_id, items in sorted(found.items()):
            users = uow.session.execute(
                select(User.id, User.email, User.language)
                .join(PartyMember, PartyMember.user_id == User.id)
                .join(Lender, Lender.party_id == PartyMember.party_id)
                .where(Lender.id == lender_id, PartyMember.revoked_at.is_(None))
                .order_by(User.id)).all()
            off = notice_emails.stopped(uow, [u for u, _e, _l in users])
            for user_id, email, lang in users:
                mid = message_id(lender_id, user_id, decided_on, config)
                if uow.session.scalar(select(OutboxMessage.id).where(
                        OutboxMessage.message_id == mid)) is not None:
                    already += 1
                    continue
                if user_id in off:  # stopped emailed notices: the list still shows them
                    continue
                stop = notice_emails.link(config, user_id, lang or "es")
                subject, body = mail.render(TEMPLATE, lang or "es", day=decided_on,
                                            items=items, link=link, unsubscribe_url=stop,
                                            paper=False)
                msg = mail.build(email, subject, body, lang or "es", config, unsubscribe=stop)
                del msg["Message-ID"]
                msg["Message-ID"] = mid
                try:
                    with uow.session.begin_nested():
                        mail.queue(uow, msg, TEMPLATE, config=config, bulk=True)
                        uow.session.flush()
                except IntegrityError:  # another worker queued it at the same moment
                    already += 1
                else:
                    sent += 1
    return {"lenders": len(found), "sent": sent, "already_sent": already}

