"""The assessment notices of a published roll (J8; R-A4, R-A5, R-A16): printed with a new
access code only for unclaimed parcels, emailed once to each linked payer in their language,
idempotent, and the notice PDF in both languages (long address, amendment) printing cleanly."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import date
from decimal import Decimal
from email import message_from_bytes
from email.policy import default as email_policy

import pytest
from sqlalchemy import func, select

from portal import clock, storage
from portal.accounts import parcels
from portal.accounts.errors import Conflict, Forbidden, NotFound
from portal.jobs import runner
from portal.models import (
    AccessCode,
    NoticeDelivery,
    NoticePrintFile,
    OwnershipShare,
    Parcel,
    Party,
    User,
)
from portal.roll import budgets, notices, roll
from portal.roll.budgets import LineInput
from tests.support.clock import at
from tests.support.documents import LONG_ADDRESS, check, pages_of, structure

POPPLER = pytest.mark.skipif(shutil.which("pdftotext") is None or shutil.which("pdfinfo")
                             is None, reason="poppler-utils (pdftotext, pdfinfo) missing")
BASE = "http://127.0.0.1:5000"
LONG_NAME = "Sucesión de Doña Carmen Milagros Rodríguez de la Fuente y Otros Herederos"


@pytest.fixture
def world(world, tmp_path):
    w = world
    with w.uow() as uow:
        s = uow.session
        c = s.get(Parcel, w.parcel["C"])
        c.address = LONG_ADDRESS
        owner = Party(kind="person", name=LONG_NAME, language="en")
        s.add(owner)
        s.flush()
        s.add(OwnershipShare(parcel_id=c.id, party_id=owner.id, share=Decimal("1"),
                             starts_on=date(2001, 1, 1)))
        s.get(User, w.bob.id).language = "en"
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield w
    storage.use(None)


@pytest.fixture
def config(tmp_path):
    return {"MAIL_FROM": "Portal <portal@example.pr>", "OUTBOX_DIR": str(tmp_path / "outbox"),
            "PORTAL_BASE_URL": BASE, "MAIL_SERVER": None,
            "MAIL_INLINE": True}  # sent after each batch commits (no worker here)


def outbox(config) -> list:
    folder = __import__("pathlib").Path(config["OUTBOX_DIR"])
    return [message_from_bytes(p.read_bytes(), policy=email_policy)
            for p in sorted(folder.glob("*.eml"))] if folder.exists() else []


def _notify(world, config, roll_id=None):
    with clock.fixed(at(date(2026, 6, 11))), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        return notices.notify(uow, staff, roll_id or world.roll_id, config)


def _count(uow, model, *where):
    return uow.session.scalar(select(func.count()).select_from(model).where(*where))


def text_of(data: bytes, tmp_path) -> str:
    path = tmp_path / "text.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True, check=True).stdout


def test_codes_only_for_unclaimed_parcels_and_emails_once_in_each_language(world, config):
    with world.uow() as uow:
        codes_before = _count(uow, AccessCode)
    result = _notify(world, config)
    # A and B are claimed (emails to Alice and Bob); C has no account and no code: a new one;
    # D (leased, the lessee pays) has no account but a live code: kept, never a second.
    assert result == {"roll_id": world.roll_id, "emails": 2, "printed": 4, "codes": 1,
                      "paperless": 0, "email_stopped": 0}
    with world.uow() as uow:
        assert _count(uow, AccessCode) == codes_before + 1
        new = uow.session.scalar(select(AccessCode).order_by(AccessCode.id.desc()).limit(1))
        assert new.parcel_id == world.parcel["C"] and new.revoked_at is None
        for key in ("A", "B", "D"):
            assert _count(uow, AccessCode, AccessCode.parcel_id == world.parcel[key],
                          AccessCode.revoked_at.is_(None)) == 1
        printed = uow.session.scalars(select(NoticeDelivery).where(
            NoticeDelivery.channel == "print")).all()
        assert [d.access_code_id is not None for d in printed].count(True) == 1
        assert {d.language for d in printed} == {"es", "en"}  # C's owner reads English
    mails = outbox(config)
    assert sorted(str(m["To"]) for m in mails) == ["alice@test.pr", "bob@test.pr"]
    by_to = {str(m["To"]): m for m in mails}
    assert by_to["alice@test.pr"]["Content-Language"] == "es-PR"
    assert by_to["bob@test.pr"]["Content-Language"] == "en-US"
    alice = by_to["alice@test.pr"].get_content()
    bob = by_to["bob@test.pr"].get_content()
    assert "040-000-000-01" in alice and "$1,000.00" in alice
    assert f"{BASE}/propiedad/{world.parcel['A']}" in alice
    assert "is due on July 1, 2026" in bob and "$3,000.00" in bob
    assert "Derrama de la propiedad" in str(by_to["alice@test.pr"]["Subject"])


def test_sending_again_changes_nothing(world, config):
    _notify(world, config)
    with world.uow() as uow:
        before = (_count(uow, AccessCode), _count(uow, NoticeDelivery),
                  _count(uow, NoticePrintFile))
    again = _notify(world, config)
    assert again == {"roll_id": world.roll_id, "emails": 0, "printed": 0, "codes": 0,
                     "paperless": 0, "email_stopped": 0}
    with world.uow() as uow:
        assert (_count(uow, AccessCode), _count(uow, NoticeDelivery),
                _count(uow, NoticePrintFile)) == before
    assert len(outbox(config)) == 2


def test_a_batch_that_fails_sends_no_email_and_issues_no_code(world, config, monkeypatch):
    def broken(_docs):
        raise RuntimeError("printer on fire")
    monkeypatch.setattr(notices, "render_print_file", broken)
    with pytest.raises(RuntimeError), clock.fixed(at(date(2026, 6, 11))), world.uow() as uow:
        notices.notify(uow, uow.session.get(User, world.staff.id), world.roll_id, config)
    with world.uow() as uow:
        assert _count(uow, NoticeDelivery) == 0
        assert _count(uow, AccessCode, AccessCode.parcel_id == world.parcel["C"]) == 0
    assert outbox(config) == []


def test_the_job_kind_is_registered_and_checks_its_roll(world):
    assert "roll.notify" in runner.KINDS
    with world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        job = runner.submit(uow, staff, "roll.notify", {"roll_id": world.roll_id})
        assert job.status == "queued"
        with pytest.raises(NotFound):
            runner.submit(uow, staff, "roll.notify", {"roll_id": 999999})
        with pytest.raises(Forbidden):
            notices.notifiable(uow, uow.session.get(User, world.alice.id), world.roll_id)


@POPPLER
def test_the_printed_code_claims_the_parcel(world, config, tmp_path):
    _notify(world, config)
    with world.uow() as uow:
        f = uow.session.scalars(select(NoticePrintFile)).one()
        data = storage.store().get(f.storage_key)
    text = text_of(data, tmp_path)
    codes = re.findall(r"\b[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}\b", text)
    assert codes and len(set(codes)) == 1  # C's, and no one else's
    assert "Assessment notice" in text and "Aviso de derrama" in text
    # each notice counts its own pages, in its own language (C's owner reads English)
    assert "Parcel 040-000-000-03 · Page 1 of" in text
    assert "Propiedad 040-000-000-01 · Página 1 de" in text
    assert "Página 1 de 8" not in text and "Página 5 de" not in text
    with clock.fixed(at(date(2026, 6, 20))), world.uow() as uow:
        dave = User(email="dave@test.pr", name="Dave", password_hash="x", language="es")
        uow.session.add(dave)
        uow.session.flush()
        parcels.claim(uow, dave, "040-000-000-03", codes[0])


@POPPLER
@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_notice_prints_cleanly_in_both_languages(world, config, lang, tmp_path):
    _notify(world, config)
    with world.uow() as uow:
        loaded = notices.staff_notice(uow, uow.session.get(User, world.staff.id),
                                           world.roll_id, world.parcel["C"])
    f, state, printed_on = loaded
    assert state == "printed"
    with __import__("portal.i18n", fromlist=["use_language"]).use_language(lang):
        doc = notices.document(f, BASE, state, None, printed_on)
    data = notices.notice_pdf(loaded, lang, BASE)
    check(doc, data, lang, tmp_path, min_pages=1)
    words = " ".join(b.text for _, _, boxes in pages_of(data, tmp_path) for b in boxes)
    assert "Calle Fortaleza" in words and "Rodríguez" in words
    assert ("$6,000.00" in words) and ("Installment schedule" in words
                                        if lang == "en" else "plazos" in words)


def _figure_alts(data: bytes) -> list[str]:
    """The /Alt text of each /Figure of the structure tree."""
    import io

    from pypdf import PdfReader
    out: list[str] = []

    def walk(node) -> None:  # noqa: ANN001
        node = node.get_object()
        if isinstance(node, list):
            for kid in node:
                walk(kid)
        elif hasattr(node, "get") and node.get("/Type") != "/MCR" and "/K" in node:
            if node.get("/S") == "/Figure":
                out.append(str(node["/Alt"]))
            walk(node["/K"])

    walk(PdfReader(io.BytesIO(data)).trailer["/Root"]["/StructTreeRoot"])
    return out


def doc_issuer(doc, lang: str) -> str:  # noqa: ANN001
    from portal import pdf
    return pdf.issuer(doc.on, lang).name


def _content_lines(data: bytes, tmp_path) -> list[int]:
    """Each page's lines of text between its header (the Authority) and its footer."""
    out = []
    for _w, height, boxes in pages_of(data, tmp_path):
        top = max(b.y1 for b in boxes if "·" in b.text and b.y0 < height / 4)  # the contact
        lines = {round(b.y0) for b in boxes if top < b.y0 < height - 40}
        out.append(len(lines))
    return out


@POPPLER
@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_notice_leaves_no_near_empty_page(world, config, lang, tmp_path):
    """A typical notice is one page; with its QR code, or a long address and owner's name,
    its last page still holds a whole block (never a lone line or footnote under the
    Authority's header)."""
    _notify(world, config)
    with world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        loaded = {p: notices.staff_notice(uow, staff, world.roll_id, world.parcel[p])
                  for p in ("A", "B", "C", "D")}
    for p, one in loaded.items():
        plain = notices.notice_pdf(one, lang, BASE)
        coded = notices.notice_pdf(one, lang, BASE, secret="s3cret")
        if p in ("A", "B"):  # one sheet, with its QR code too
            assert [len(pages_of(d, tmp_path)) for d in (plain, coded)] == [1, 1], p
        for data in (plain, coded):
            lines = _content_lines(data, tmp_path)
            assert min(lines) >= 5, f"{p}: {lines} lines a page"


@POPPLER
@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_qr_code_stands_beside_the_schedule_tagged(world, config, lang, tmp_path):
    """The pay link's QR code and its caption take a column beside the installment schedule
    (so the code costs the notice no page): the notice prints cleanly on one page, and the
    code is a tagged figure with its alternative text, read after the schedule."""
    _notify(world, config)
    with world.uow() as uow:
        loaded = notices.staff_notice(uow, uow.session.get(User, world.staff.id),
                                      world.roll_id, world.parcel["A"])
    f, state, printed_on = loaded
    with __import__("portal.i18n", fromlist=["use_language"]).use_language(lang):
        doc = notices.document(f, BASE, state, None, printed_on, secret="s3cret")
    data = notices.notice_pdf(loaded, lang, BASE, secret="s3cret")
    check(doc, data, lang, tmp_path, min_pages=1)
    assert len(pages_of(data, tmp_path)) == 1
    roles = [role for _d, role, _t in structure(data, tmp_path, doc_issuer(doc, lang))]
    tables = [i for i, role in enumerate(roles) if role == "Table"]
    assert roles.count("Figure") == 1 and roles.index("Figure") > tables[-1], roles
    assert _figure_alts(data) == [doc.code.alt]
    words = " ".join(b.text for _, _, boxes in pages_of(data, tmp_path) for b in boxes)
    assert doc.code.caption[0] in words


def _amend(world, total: str, day: date) -> int:
    with clock.fixed(at(day)), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        fy = uow.session.get(budgets.FiscalYear, world.fy_id)
        v2 = budgets.draft(uow, staff, fy, [
            LineInput("project", "Proyecto", "Project", Decimal("15000.00"), Decimal(total)),
            LineInput("maintenance", "Mantenimiento", "Maintenance", Decimal("2000.00"),
                      Decimal("2000.00")),
        ], reference="Res. 2", effective_on=day)
        budgets.adopt(uow, staff, v2.id, day)
        r2 = roll.compute(uow, staff, v2.id)
        roll.publish(uow, staff, r2.id, day)
        return r2.id


@POPPLER
@pytest.mark.parametrize("lang", ["es", "en"])
def test_an_amendment_notice_shows_old_and_new_amounts(world, config, lang, tmp_path):
    _notify(world, config)
    r2 = _amend(world, "12400.00", date(2026, 12, 15))
    with clock.fixed(at(date(2026, 12, 16))), world.uow() as uow:
        result = notices.notify(uow, uow.session.get(User, world.staff.id), r2, config)
    assert result["printed"] == 4 and result["codes"] == 0  # C keeps the code it was sent
    with world.uow() as uow:
        loaded = notices.staff_notice(uow, uow.session.get(User, world.staff.id), r2,
                                           world.parcel["B"])
    f = loaded[0]
    assert (f.previous, f.annual) == (Decimal("3000.00"), Decimal("3600.00"))
    with __import__("portal.i18n", fromlist=["use_language"]).use_language(lang):
        doc = notices.document(f, BASE, loaded[1], None, loaded[2])
    data = notices.notice_pdf(loaded, lang, BASE)
    check(doc, data, lang, tmp_path, min_pages=1)
    words = " ".join(b.text for _, _, boxes in pages_of(data, tmp_path) for b in boxes)
    assert "$3,000.00" in words and "$3,600.00" in words and "$600.00" in words
    mails = {str(m["To"]): m for m in outbox(config)[2:]}
    assert set(mails) == {"alice@test.pr", "bob@test.pr"}
    assert "$3,000.00" in mails["bob@test.pr"].get_content()


def test_a_notice_is_found_only_by_its_payers_and_staff(world, config):
    _notify(world, config)
    with world.uow() as uow:
        s = uow.session
        f, _state, _on = notices.latest_notice(s.get(User, world.alice.id) and uow,
                                                    s.get(User, world.alice.id),
                                                    world.parcel["A"])
        assert f.catastro == "040-000-000-01"
        with pytest.raises(NotFound):
            notices.latest_notice(uow, s.get(User, world.alice.id), world.parcel["B"])
        with pytest.raises(NotFound):
            notices.latest_notice(uow, s.get(User, world.lender_user.id),
                                       world.parcel["C"])
        with pytest.raises(Forbidden):
            notices.staff_notice(uow, s.get(User, world.alice.id), world.roll_id,
                                      world.parcel["A"])


def test_an_unpublished_roll_has_no_notices_to_send(world):
    with clock.fixed(at(date(2026, 12, 15))), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        fy = uow.session.get(budgets.FiscalYear, world.fy_id)
        v2 = budgets.draft(uow, staff, fy, [
            LineInput("project", "Proyecto", "Project", Decimal("15000.00"),
                      Decimal("12000.00"))], reference="Res. 3",
            effective_on=date(2026, 12, 15))
        budgets.adopt(uow, staff, v2.id, date(2026, 12, 15))
        r2 = roll.compute(uow, staff, v2.id)
        with pytest.raises(Conflict) as err:
            notices.notifiable(uow, staff, r2.id)
        assert err.value.code == "roll_not_published"


def _others_may_write(database) -> bool:
    """Whether another connection may write now: SQLite's write lock is free (BEGIN
    IMMEDIATE at once), or on PostgreSQL no other transaction of this database has written
    yet (a transaction id is assigned at a transaction's first write)."""
    if database.engine.dialect.name == "sqlite":
        import sqlite3
        other = sqlite3.connect(database.engine.url.database, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            return True
        except sqlite3.OperationalError:
            return False
        finally:
            other.close()
    from sqlalchemy import text
    with database.engine.connect() as conn:
        return not conn.scalar(text(
            "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'transactionid' AND l.pid <> pg_backend_pid() "
            "AND a.datname = current_database()"))


def test_the_print_file_is_made_before_the_batch_writes(world, database, config,
                                                        monkeypatch):
    """The seconds a batch's print file takes hold no write lock: the batch writes its rows
    (a new code among them) after rendering and storing it, so a request that writes
    meanwhile is not kept waiting past SQLite's busy timeout; sent once all the same."""
    render, seen = notices.render_print_file, []

    def watched(docs):
        seen.append(_others_may_write(database))
        return render(docs)
    monkeypatch.setattr(notices, "render_print_file", watched)
    result = _notify(world, config)
    assert seen == [True]
    assert result["printed"] == 4 and result["codes"] == 1 and result["emails"] == 2
    assert _notify(world, config)["printed"] == 0
