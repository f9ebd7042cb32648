"""The documents and emails name the day the Board declared closed behind a last day they
state (RULES.md Conventions "Last days roll over"; R-A6, R-A11, R-A13), as the parcel page
does, in the document's language: the statement PDF, the assessment notice (its last timely
days), the demand letter (its last day to pay) and the notice's email. The demo District on
its day (30 November 2026); the closed days declared by the test."""

from __future__ import annotations

import shutil
import subprocess
from datetime import date, timedelta
from email import message_from_bytes
from email.policy import default as email_policy
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from portal import storage
from portal.core import params
from portal.core.calendar import within_days
from portal.core.deadlines import grace_day
from portal.db import UnitOfWork
from portal.models import AssessmentRoll, Notice
from portal.people import users
from portal.roll import board_parameters, notices
from portal.web.data import database
from tests.support.demo import parcel_ids
from tests.support.pages import login

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="poppler-utils (pdftotext) missing")
REASON = {"es": "Huracán Ernesto", "en": "Hurricane Ernesto"}
RESOLUTION = "Resolución 2026-15"


def _declare(app: Flask, first: date, last: date | None = None) -> None:
    with app.app_context(), UnitOfWork(database()) as w:
        board_parameters.declare_closed(w, users.find_by_email(w, "staff@demo.pr"), first,
                                        last, REASON["es"], REASON["en"], "2026-15",
                                        date(2026, 11, 29))


def _text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                         check=True).stdout.decode()
    return " ".join(out.split())


def _names_it(text: str, lang: str) -> bool:
    return REASON[lang] in text and RESOLUTION in text


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_statement_and_the_notice_name_the_closed_day(demo_app: Flask, lang, tmp_path):
    """R-A6: the installments due 1 December are timely through the 10th; the Board closes
    the 10th and the 11th: through Monday the 14th, and both documents say why."""
    pid = parcel_ids(demo_app)["owner"][0]
    owner = login(demo_app, "owner")
    before = _text(owner.get(f"/propiedad/{pid}/estado-de-cuenta.pdf?lang={lang}").data,
                   tmp_path)
    assert not _names_it(before, lang)
    _declare(demo_app, date(2026, 12, 10), date(2026, 12, 11))
    for path in (f"/propiedad/{pid}/estado-de-cuenta.pdf", f"/propiedad/{pid}/"
                 "aviso-de-tasacion.pdf"):
        r = owner.get(f"{path}?lang={lang}")
        assert r.status_code == 200, path
        text = _text(r.data, tmp_path)
        assert _names_it(text, lang), path
        assert ("14 de diciembre de 2026" if lang == "es" else "December 14, 2026") in text
    page = owner.get(f"/propiedad/{pid}?lang={lang}").get_data(as_text=True)
    assert REASON[lang] in page  # the page says the same


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_demand_letter_names_the_closed_day_behind_its_last_day(demo_app: Flask, lang,
                                                                   tmp_path):
    """R-A13: the lessee's demand, mailed in November, has 15 days; the Board closes its
    15th day and the three after it: the last day moves, and the lessee's parcel page says
    why. R-A17 (revision 3): the letter itself is kept as it was queued, never re-rendered:
    the same file before and after."""
    leased = set(parcel_ids(demo_app)["lessee"])
    with demo_app.app_context(), UnitOfWork(database()) as w:
        demand = next(n for n in w.session.scalars(select(Notice).where(
            Notice.kind == "demand", Notice.mailed_on.is_not(None)).order_by(Notice.id.desc()))
            if n.parcel_id in leased)
        nid, mailed = demand.id, demand.mailed_on
    fifteenth = within_days(mailed, params.value("demand_payment_days", mailed))
    lessee = login(demo_app, "lessee")
    kept = lessee.get(f"/cobros/requerimiento/{nid}.pdf?lang={lang}").data
    assert not _names_it(_text(kept, tmp_path), lang)
    with demo_app.app_context(), UnitOfWork(database()) as w:
        pid = w.session.get(Notice, nid).parcel_id
    assert not _names_it(lessee.get(f"/propiedad/{pid}?lang={lang}").get_data(as_text=True),
                         lang)
    _declare(demo_app, fifteenth, fifteenth + timedelta(days=3))
    r = lessee.get(f"/cobros/requerimiento/{nid}.pdf?lang={lang}")
    assert r.status_code == 200 and r.data == kept  # the letter as queued
    page = lessee.get(f"/propiedad/{pid}?lang={lang}").get_data(as_text=True)
    assert _names_it(page, lang)


def test_the_notice_email_names_the_closed_day(demo_app: Flask, tmp_path):
    """The notice's email states the first installment's last timely day: a day the Board
    declared closed that moved it is named, in the addressee's language."""
    config = {"MAIL_FROM": "Portal <portal@example.pr>", "OUTBOX_DIR": str(tmp_path / "out"),
              "PORTAL_BASE_URL": "http://localhost", "MAIL_SERVER": None,
              "MAIL_INLINE": True}  # sent after each batch commits (no worker here)
    storage.use(storage.FolderStore(tmp_path / "files"))
    try:
        with demo_app.app_context(), UnitOfWork(database()) as w:
            roll_id = w.session.scalar(select(AssessmentRoll.id).where(
                AssessmentRoll.status == "published").order_by(AssessmentRoll.id))
            first = notices._facts(w, notices._Roll(
                w, w.session.get(AssessmentRoll, roll_id)),
                w.session.execute(notices._notice_rows(roll_id).limit(1)).all()
            )[0].installments[0]
        _declare(demo_app, grace_day(first.due_date, 10))
        with demo_app.app_context(), UnitOfWork(database()) as w:
            staff = users.find_by_email(w, "staff@demo.pr")
            sent = notices.notify(w, staff, roll_id, config)
    finally:
        storage.use(None)
    assert sent["emails"] > 0
    mails = [message_from_bytes(p.read_bytes(), policy=email_policy)
             for p in sorted((tmp_path / "out").glob("*.eml"))]
    bodies = {" ".join(m.get_body(("plain",)).get_content().split()) for m in mails}
    named = [b for b in bodies if RESOLUTION in b]
    assert named and all(REASON["es"] in b or REASON["en"] in b for b in named)
    # every notice whose first installment is due on that day's month says it, with the day
    moved = [b for b in bodies if "vence el 1 de julio de 2026" in b
             or "is due on July 1, 2026" in b]
    assert moved and all(b in named for b in moved)
    assert all(("pay it by" in b or "páguelo a más tardar" in b) for b in bodies
               if "vence el" in b or "is due on" in b)
