"""The calendar (docs/REMINDERS.md): an iCalendar (RFC 5545) feed per account at a secret
address (`/calendario/<token>.ics`, reset from /cuenta/recordatorios) and a `.ics` download
per parcel, with each installment's last timely day, the lump-sum deadline and a demand's last
day, as all-day events in the account's language. Each event's UID is stable (parcel, kind,
day), so a calendar that polls the feed updates events rather than adding copies.

The file is written here, line by line (`_Writer`): it holds one calendar and a handful of
all-day events with a few fixed properties, and building them as `icalendar` objects then
serialising them was about two thirds of the download's CPU (its folding walks every
character). The writer escapes TEXT values and folds long lines as `icalendar` does
(RFC 5545 3.1, 3.3.11), writes X-WR-CALNAME as given (as it writes a property it does not
type), and writes the properties in its order:
tests/data/test_reminders.py checks the bytes against `icalendar`'s for the same calendar,
and the tests read every file back with it.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from portal import clock, i18n
from portal.accounts import access, facts, statements
from portal.accounts.errors import NotFound
from portal.core import reminders as core
from portal.db import UnitOfWork
from portal.models import User
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


#: RFC 5545 3.1: lines longer than 75 octets are folded; `icalendar` folds before the 75th
#: octet (a line holds at most 74, a continuation a space and 74).
_FOLD_AT = 74


def _text(value: str) -> str:
    """RFC 5545 3.3.11: a TEXT value escaped, as `icalendar` escapes it (in this order)."""
    return (value.replace("\\N", "\n").replace("\\", "\\\\").replace(";", "\\;")
            .replace(",", "\\,").replace("\r\n", "\\n").replace("\n", "\\n")
            .replace("\r", "\\n"))


def _fold(line: str) -> bytes:
    """The content line in UTF-8, folded as `icalendar` folds it: each piece the longest that
    fits in `_FOLD_AT` octets, cut between characters, and not just after a backslash or a
    caret (an escape is not split across lines)."""
    b = line.encode()
    if len(b) <= _FOLD_AT:
        return b
    pieces, start = [], 0
    while len(b) - start > _FOLD_AT:
        end = start + _FOLD_AT
        while b[end] & 0xC0 == 0x80:  # inside a character: cut before it
            end -= 1
        if end - 1 > start and b[end - 1] in (0x5C, 0x5E):  # "\\" or "^" starts the next
            end -= 1
        pieces.append(b[start:end])
        start = end
    pieces.append(b[start:])
    return b"\r\n ".join(pieces)


class _Writer:
    """An iCalendar file of all-day events, written as `icalendar` writes these properties."""

    def __init__(self, name: str) -> None:
        self.lines = [b"BEGIN:VCALENDAR", b"VERSION:2.0", _fold("PRODID:" + _text(PRODID)),
                      b"CALSCALE:GREGORIAN", b"METHOD:PUBLISH",
                      _fold("X-WR-CALNAME:" + name),  # an X- property: as given
                      b"REFRESH-INTERVAL;VALUE=DURATION:PT12H", b"X-PUBLISHED-TTL:PT12H",
                      b"X-WR-TIMEZONE:America/Puerto_Rico"]

    def event(self, *, uid: str, stamp: bytes, day: date, summary: str, description: str,
              url: str) -> None:
        self.lines += [
            b"BEGIN:VEVENT", _fold("SUMMARY:" + _text(summary)),
            b"DTSTART;VALUE=DATE:" + day.strftime("%Y%m%d").encode(),
            b"DTEND;VALUE=DATE:" + (day + timedelta(days=1)).strftime("%Y%m%d").encode(),
            stamp, _fold("UID:" + _text(uid)), _fold("DESCRIPTION:" + _text(description)),
            b"TRANSP:TRANSPARENT", _fold("URL:" + url), b"END:VEVENT"]

    def to_ical(self) -> bytes:
        return b"\r\n".join(self.lines + [b"END:VCALENDAR", b""])


def _dtstamp(instant: datetime) -> bytes:
    """DTSTAMP (RFC 5545 3.8.7.2): the instant in UTC, to the second."""
    return instant.astimezone(UTC).strftime("DTSTAMP:%Y%m%dT%H%M%SZ").encode()


def _events(cal: _Writer, parcel: Any, days: list[core.CalendarDay], pay_url: str,
            host: str) -> None:
    stamp = _dtstamp(clock.now())
    for d in days:
        cal.event(uid=f"{parcel.id}-{d.kind}-{d.day.isoformat()}@{host}", stamp=stamp,
                  day=d.day, summary=_summary(d, parcel.catastro),
                  description=_description(d, pay_url), url=pay_url)


def _parcel_days(uow: UnitOfWork, parcels: list[Any], today: date
                 ) -> list[tuple[Any, list[core.CalendarDay]]]:
    fy = facts.fiscal_year_on(uow, today)
    if fy is None or not parcels:
        return [(p, []) for p in parcels]
    ids = [p.id for p in parcels]
    loaded = facts.load_many(uow, ids, fy, rows=True)
    # The last demand mailed on each account, as plain rows (`demands_of` loads ORM notices
    # through a statement it builds per call): this fiscal year's.
    demands = {pid: d for (pid, fy_id), d in statements.demands_by_account(uow, ids).items()
               if fy_id == fy.id}
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
        cal = _Writer(i18n.gettext("District assessments"))
        for p, days in _parcel_days(uow, parcels, clock.today()):
            _events(cal, p, days, links.pay(config, p.id), _host(config))
    return cal.to_ical()


def parcel_file(uow: UnitOfWork, user: Any, parcel_id: int | str, lang: str,
                config: Any) -> tuple[Any, bytes]:
    """One parcel's calendar, for whoever may see the parcel (NotFound otherwise); the
    parcel is a plain record of its columns (`access.ParcelRecord`): the file only reads."""
    parcel, _relation = access.get_parcel_and_relation(uow, user, parcel_id, rows=True)
    with i18n.use_language(lang):
        cal = _Writer(i18n.gettext("District assessments %(catastro)s",
                                   catastro=parcel.catastro))
        for p, days in _parcel_days(uow, [parcel], clock.today()):
            _events(cal, p, days, links.pay(config, p.id), _host(config))
    return parcel, cal.to_ical()
