"""The calendar (docs/REMINDERS.md): an iCalendar (RFC 5545) feed per account at a secret
address (`/calendario/<token>.ics`, reset from /cuenta/recordatorios) and a `.ics` download
per parcel, with each installment's last timely day, the lump-sum deadline and a demand's last
day, as all-day events in the account's language. Written with the `icalendar` library (a
maintained implementation of the format: folding, escaping and the required properties are
its); each event's UID is stable (parcel, kind, day), so a calendar that polls the feed
updates events rather than adding copies.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from icalendar import Calendar, Event

from portal import clock, i18n
from portal.accounts import access, facts, statements
from portal.accounts.errors import NotFound
from portal.core import reminders as core
from portal.db import UnitOfWork
from portal.models import Parcel, User
from portal.models.reminders import ReminderSettings
from portal.reminders import links
from portal.reminders.preferences import recipient_parcels

PRODID = "-//Autoridad de Distritos//Portal de derramas//ES"


def _summary(day: core.CalendarDay, catastro: str) -> str:
    _ = i18n.gettext
    if day.kind == core.INSTALLMENT_DUE:
        if len(day.numbers) == 1:
            return _("Last day to pay installment %(number)s on time (%(catastro)s)",
                     number=day.numbers[0], catastro=catastro)
        return _("Last day to pay installments %(numbers)s on time (%(catastro)s)",
                 numbers=", ".join(str(n) for n in day.numbers), catastro=catastro)
    if day.kind == core.LUMP_SUM_DEADLINE:
        return _("Last day for the lump-sum discount (%(catastro)s)", catastro=catastro)
    return _("Last day of the demand: pay to stop the court claim (%(catastro)s)",
             catastro=catastro)


def _description(day: core.CalendarDay, pay_url: str) -> str:
    _ = i18n.gettext
    parts = []
    if day.amount is not None and day.amount > 0:
        parts.append(_("Amount owed today: %(amount)s. The portal shows the amount for the "
                       "day you pay.", amount=i18n.money(day.amount)))
    elif day.kind == core.INSTALLMENT_DUE:
        parts.append(_("Paid."))
    parts.append(_("Pay: %(url)s", url=pay_url))
    return "\n".join(parts)


def _events(cal: Calendar, parcel: Any, days: list[core.CalendarDay], pay_url: str,
            host: str) -> None:
    stamp = clock.now()
    for d in days:
        ev = Event()
        ev.add("uid", f"{parcel.id}-{d.kind}-{d.day.isoformat()}@{host}")
        ev.add("dtstamp", stamp)
        ev.add("dtstart", d.day)
        ev.add("dtend", d.day + timedelta(days=1))
        ev.add("summary", _summary(d, parcel.catastro))
        ev.add("description", _description(d, pay_url))
        ev.add("transp", "TRANSPARENT")
        ev.add("url", pay_url)
        cal.add_component(ev)


def _calendar(name: str, lang: str) -> Calendar:
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", "America/Puerto_Rico")
    cal.add("x-published-ttl", "PT12H")
    cal.add("refresh-interval", timedelta(hours=12), parameters={"VALUE": "DURATION"})
    return cal


def _parcel_days(uow: UnitOfWork, parcels: list[Any], today: date
                 ) -> list[tuple[Any, list[core.CalendarDay]]]:
    fy = facts.fiscal_year_on(uow, today)
    if fy is None or not parcels:
        return [(p, []) for p in parcels]
    ids = [p.id for p in parcels]
    loaded = facts.load_many(uow, ids, fy, rows=True)
    demands = statements.demands_of(uow, ids, fy.id)
    out = []
    for p in parcels:
        f = loaded.get(p.id)
        if f is None or f.assessment is None:
            out.append((p, []))
            continue
        out.append((p, core.calendar(f.account(label=p.catastro, on=today), today,
                                     demand=demands.get(p.id))))
    return out


def _host(config: Any) -> str:
    from urllib.parse import urlsplit
    return urlsplit(links.base(config)).hostname or "localhost"


def account_feed(uow: UnitOfWork, token: str, config: Any) -> bytes:
    """The account's feed (every parcel it is reminded of), by the feed's secret; NotFound
    for an unknown secret (a reset one too)."""
    token = (token or "").strip()
    if not token or len(token) > 64:
        raise NotFound()
    settings = uow.session.query(ReminderSettings).filter_by(calendar_token=token).one_or_none()
    if settings is None:
        raise NotFound()
    user = uow.session.get(User, settings.user_id)
    if user is None or user.disabled_at is not None:
        raise NotFound()
    lang = user.language or "es"
    parcels = recipient_parcels(uow, user.id)
    with i18n.use_language(lang):
        cal = _calendar(i18n.gettext("District assessments"), lang)
        for p, days in _parcel_days(uow, parcels, clock.today()):
            _events(cal, p, days, links.pay(config, p.id), _host(config))
    return cal.to_ical()


def parcel_file(uow: UnitOfWork, user: Any, parcel_id: int | str, lang: str,
                config: Any) -> tuple[Parcel, bytes]:
    """One parcel's calendar, for whoever may see the parcel (NotFound otherwise)."""
    parcel = access.get_parcel(uow, user, parcel_id)
    with i18n.use_language(lang):
        cal = _calendar(i18n.gettext("District assessments %(catastro)s",
                                     catastro=parcel.catastro), lang)
        for p, days in _parcel_days(uow, [parcel], clock.today()):
            _events(cal, p, days, links.pay(config, p.id), _host(config))
    return parcel, cal.to_ical()
