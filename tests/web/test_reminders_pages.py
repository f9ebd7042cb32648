"""The reminders' pages (docs/REMINDERS.md) on the demo District: the account's
choices, the dashboard's notice, the one-click unsubscribe without a session (RFC 8058), a
relative added and confirmed from their email, the calendars (parsed back: RFC 5545), and a
reminder's links that are the portal's routes."""

from __future__ import annotations

import re
from datetime import date

import pytest
from flask import Flask
from icalendar import Calendar

from portal import clock
from portal.reminders import links, sending
from tests.support.clock import at
from tests.support.demo import app_uow, parcel_ids
from tests.support.html import html_errors, needs_vnu
from tests.support.pages import csrf_token, error_messages, login, mail_link, outbox, read_mail

DEC_3 = date(2026, 12, 3)  # 7 days before the 10 December last timely day


def owner_token(app: Flask, which: str = "unsubscribe_token") -> str:
    from portal.people import users
    from portal.reminders import preferences
    with app_uow(app) as w:
        user = users.find_by_email(w, "owner@demo.pr")
        return getattr(preferences.ensure(w, user.id), which)


def send_reminders(app: Flask, day: date = DEC_3) -> dict[str, int]:
    from portal.web.data import database
    with app.app_context(), clock.fixed(at(day, 6)):
        return sending.run(database(), day, app.config)


def test_the_links_a_reminder_carries_are_the_routes(app: Flask):
    with app.test_request_context():
        from flask import url_for
        assert url_for("reminders.unsubscribe", token="T") == links.UNSUBSCRIBE.format(token="T")
        assert url_for("reminders.confirm", token="T") == links.CONFIRM_RELATIVE.format(token="T")
        assert url_for("reminders.feed", token="T") == links.CALENDAR_FEED.format(token="T")
        assert url_for("reminders.settings") == links.SETTINGS
        assert url_for("payments.choose") == links.PAY


@pytest.mark.parametrize("lang", ["es", "en"])
def test_settings_page_and_the_dashboard_notice(demo_app: Flask, lang: str):
    client = login(demo_app, "owner")
    client.post("/idioma", data={"lang": lang, "csrf_token": csrf_token(
        client.get("/").get_data(as_text=True))})
    dash = client.get("/mis-propiedades").get_data(as_text=True)
    assert "data-reminders-notice" in dash and "/cuenta/recordatorios" in dash
    page = client.get("/cuenta/recordatorios")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert ("Recordatorios y calendario" if lang == "es" else "Reminders and calendar") in html
    assert "/calendario/" in html and ".ics" in html
    mine = parcel_ids(demo_app)["owner"]
    tok = csrf_token(html)
    bad = client.post("/cuenta/recordatorios", data={"csrf_token": tok, "enabled": "y",
                                                     "days_before": "8"})
    assert bad.status_code == 400 and error_messages(bad.get_data(as_text=True))
    r = client.post("/cuenta/recordatorios", data={"csrf_token": tok, "enabled": "y",
                                                   "days_before": "14",
                                                   "parcels": [str(mine[0])]})
    assert r.status_code == 303
    html = client.get("/cuenta/recordatorios").get_data(as_text=True)
    assert 'value="14" selected' in html or "selected value=\"14\"" in html
    assert f'id="parcel-{mine[0]}" type="checkbox" name="parcels" value="{mine[0]}" checked' \
        in html
    if len(mine) > 1:
        assert f'value="{mine[1]}" checked' not in html
    assert "data-reminders-notice" not in client.get("/mis-propiedades").get_data(as_text=True)


def test_someone_elses_parcel_is_refused(demo_app: Flask):
    mine = parcel_ids(demo_app)["owner"]
    client = login(demo_app, "owner")
    tok = csrf_token(client.get("/cuenta/recordatorios").get_data(as_text=True))
    r = client.post("/cuenta/recordatorios", data={"csrf_token": tok, "enabled": "y",
                                                   "days_before": "7", "parcels": ["999999"]})
    assert r.status_code == 400
    other = login(demo_app, "other")
    assert other.get(f"/propiedad/{mine[0]}/calendario.ics").status_code == 404
    tok = csrf_token(other.get("/cuenta/recordatorios").get_data(as_text=True))
    r = other.post(f"/propiedad/{mine[0]}/recordatorios/familiares",
                   data={"csrf_token": tok, "email": "x@example.com", "language": "es"})
    assert r.status_code == 404


def test_one_click_unsubscribe_needs_no_session(demo_app: Flask):
    assert send_reminders(demo_app)["sent"] >= 1
    sent = [read_mail(p) for p in outbox(demo_app)]
    mine = [m for m in sent if m["To"] == "owner@demo.pr"]
    assert mine, [m["To"] for m in sent]
    header = mine[0]["List-Unsubscribe"].strip("<>")
    assert mine[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    path = header.removeprefix("http://localhost")
    anon = demo_app.test_client()
    page = anon.get(path)
    assert page.status_code == 200 and "owner@demo.pr" in page.get_data(as_text=True)
    r = anon.post(path, data="List-Unsubscribe=One-Click",
                  content_type="application/x-www-form-urlencoded")
    assert r.status_code == 200
    assert anon.post("/recordatorios/baja/not-a-token").status_code == 404
    assert send_reminders(demo_app, date(2026, 12, 4))["sent"] == 0 or all(
        read_mail(p)["To"] != "owner@demo.pr" for p in outbox(demo_app)[len(sent):])


def test_a_relative_confirms_from_their_email(demo_app: Flask):
    mine = parcel_ids(demo_app)["owner"]
    client = login(demo_app, "owner")
    html = client.get("/cuenta/recordatorios").get_data(as_text=True)
    r = client.post(f"/propiedad/{mine[0]}/recordatorios/familiares",
                    data={"csrf_token": csrf_token(html), "email": "not an email",
                          "language": "en"})
    assert r.status_code == 400
    r = client.post(f"/propiedad/{mine[0]}/recordatorios/familiares",
                    data={"csrf_token": csrf_token(html), "email": "Nieta@Example.com",
                          "language": "en"})
    assert r.status_code == 303
    last = outbox(demo_app)[-1]
    assert read_mail(last)["To"] == "nieta@example.com"
    link = mail_link(last).removeprefix("http://localhost")
    assert link.startswith("/recordatorios/confirmar/")
    anon = demo_app.test_client()
    page = anon.get(link).get_data(as_text=True)
    assert link.endswith("?lang=en") and "Yes, send me reminders" in page  # their language
    assert anon.post(link, data={"csrf_token": csrf_token(page)}).status_code == 200
    assert "waiting for confirmation" not in client.get(
        "/cuenta/recordatorios?lang=en").get_data(as_text=True)
    before = len(outbox(demo_app))
    send_reminders(demo_app)
    theirs = [read_mail(p) for p in outbox(demo_app)[before:]]
    theirs = [m for m in theirs if m["To"] == "nieta@example.com"]
    assert theirs and theirs[0]["Content-Language"] == "en-US"
    body = theirs[0].get_payload(decode=True).decode()
    guest = re.search(r"http://localhost(/pagar-sin-cuenta/enlace/\S+)", body)
    assert guest, body
    with clock.fixed(at(DEC_3, 7)):  # (a link is not read before the day it was made)
        r = anon.get(guest.group(1), follow_redirects=True)  # the parcel's guest pay page
    assert r.status_code == 200 and "040-" in r.get_data(as_text=True)


def test_calendars_parse_back_and_the_feed_resets(demo_app: Flask):
    mine = parcel_ids(demo_app)["owner"]
    token = owner_token(demo_app, "calendar_token")
    anon = demo_app.test_client()
    r = anon.get(f"/calendario/{token}.ics")
    assert r.status_code == 200 and r.mimetype == "text/calendar"
    cal = Calendar.from_ical(r.data)
    events = cal.walk("VEVENT")
    assert events and all(isinstance(e.decoded("dtstart"), date) for e in events)
    assert any(str(e["summary"]).startswith("Último día para pagar") for e in events)
    client = login(demo_app, "owner")
    r = client.get(f"/propiedad/{mine[0]}/calendario.ics?lang=en")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    client.post("/cuenta/recordatorios/calendario", data={"csrf_token": csrf_token(
        client.get("/cuenta/recordatorios").get_data(as_text=True))})
    assert anon.get(f"/calendario/{token}.ics").status_code == 404
    assert anon.get("/calendario/nothing.ics").status_code == 404


@needs_vnu
def test_the_secret_link_pages_and_the_errors_are_valid_html(demo_app: Flask, tmp_path):
    mine = parcel_ids(demo_app)["owner"]
    client = login(demo_app, "owner")
    html = client.get("/cuenta/recordatorios").get_data(as_text=True)
    pages = [("settings-errors", client.post(
        f"/propiedad/{mine[0]}/recordatorios/familiares",
        data={"csrf_token": csrf_token(html), "email": "no", "language": "es"}
    ).get_data(as_text=True))]
    client.post(f"/propiedad/{mine[0]}/recordatorios/familiares",
                data={"csrf_token": csrf_token(html), "email": "hijo@example.com",
                      "language": "es"})
    confirm = mail_link(outbox(demo_app)[-1])
    anon = demo_app.test_client()
    page = anon.get(confirm).get_data(as_text=True)
    pages += [("confirm", page), ("confirmed", anon.post(
        confirm, data={"csrf_token": csrf_token(page)}).get_data(as_text=True))]
    path = links.UNSUBSCRIBE.format(token=owner_token(demo_app))
    pages += [("unsubscribe", anon.get(path).get_data(as_text=True)),
              ("unsubscribed", anon.post(path).get_data(as_text=True))]
    assert html_errors(tmp_path, pages) == []
