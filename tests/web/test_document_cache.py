"""A document served again is the same document: `portal.pdf.cache` keeps a rendered PDF under
a digest of everything it shows, so a changed fact (a new payment, a bank debit completed) gives a
new PDF at once, and the PDF served from the cache is byte for byte the one a fresh render
gives (docs/DOCUMENTS.md "Speed")."""

from __future__ import annotations

import dataclasses
import subprocess
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select

from portal import clock, pdf
from portal.pdf import cache
from portal.pdf.model import Document, Row, Table, Why
from portal.pdf.qr import Code
from tests.support.demo import app_uow, parcel_ids
from tests.support.documents import needs_poppler
from tests.support.pages import login

pytestmark = needs_poppler


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The documents drawn (`pdf.render` called) while the test runs, by title; the cache
    starts empty."""
    drawn: list[str] = []
    original = pdf.render

    def counted(doc: Document, lang: str) -> bytes:
        drawn.append(doc.title)
        return original(doc, lang)

    cache.clear()
    monkeypatch.setattr(pdf, "render", counted)
    yield drawn
    cache.clear()


def text_of(data: bytes, tmp_path) -> str:  # noqa: ANN001
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True, check=True).stdout


def _pay(app, parcel_id: int, amount: str, status: str = "succeeded") -> int:  # noqa: ANN001
    """A payment of the parcel's current fiscal year, made now and posted."""
    from portal.accounts import ledger
    from portal.models import Assessment, Payment
    with app_uow(app) as w:
        fy = w.session.scalar(select(Assessment.fiscal_year_id).where(
            Assessment.parcel_id == parcel_id).order_by(Assessment.fiscal_year_id.desc()))
        p = Payment(parcel_id=parcel_id, fiscal_year_id=fy, status=status,
                    amount=Decimal(amount), idempotency_key=f"cache-{parcel_id}-{amount}",
                    completed_at=clock.now())
        w.session.add(p)
        w.session.flush()
        ledger.post_payment(w, p.id)
        return p.id


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_new_payment_gives_a_new_statement(demo_app, renders, lang, tmp_path):  # noqa: ANN001
    client = login(demo_app, "owner")
    pid = parcel_ids(demo_app)["owner"][0]
    url = f"/propiedad/{pid}/estado-de-cuenta.pdf?lang={lang}"
    first = client.get(url)
    assert first.status_code == 200 and first.content_type == "application/pdf"
    assert client.get(url).data == first.data
    assert len(renders) == 1, "the same statement again is served as it was drawn"

    _pay(demo_app, pid, "25.00")
    after = client.get(url).data
    assert len(renders) == 2, "a new payment is a new statement: drawn again"
    assert after != first.data
    assert text_of(after, tmp_path) != text_of(first.data, tmp_path)

    cache.clear()
    assert client.get(url).data == after, "what the cache serves is what a render gives"
    assert len(renders) == 3


def test_a_completed_payment_gives_a_new_receipt(demo_app, renders, tmp_path):  # noqa: ANN001
    from portal.core import payment_states as states
    from portal.models import Payment
    client = login(demo_app, "owner")
    pid = parcel_ids(demo_app)["owner"][0]
    payment = _pay(demo_app, pid, "30.00", states.PROCESSING)  # a bank debit, not yet done
    url = f"/pagos/pago/{payment}/recibo.pdf"
    first = client.get(url)
    assert first.status_code == 200 and first.content_type == "application/pdf"
    assert client.get(url).data == first.data and len(renders) == 1

    with app_uow(demo_app) as w:  # the bank completed it
        w.session.get(Payment, payment).status = states.SUCCEEDED
    after = client.get(url).data
    assert len(renders) == 2 and after != first.data
    assert text_of(after, tmp_path) != text_of(first.data, tmp_path)
    # the other language is another document
    assert client.get(url + "?lang=en").data != after and len(renders) == 3


def test_the_statements_link_is_the_same_within_the_hour(demo_app):  # noqa: ANN001
    """The QR code's pay link is made once an hour (so the statement asked for again is the
    same document) and opens the parcel's pay page."""
    from portal.accounts import pay_links
    from portal.documents.statement import pay_token
    secret = demo_app.config["SECRET_KEY"]
    start = clock.now().replace(minute=0, second=0, microsecond=0)
    with clock.fixed(start + timedelta(minutes=5)):
        token = pay_token(7, secret)
    with clock.fixed(start + timedelta(minutes=55)):
        assert pay_token(7, secret) == token
        assert pay_token(8, secret) != token
        assert pay_links.parcel_of(token, secret) == 7
    with clock.fixed(start + timedelta(minutes=65)):
        assert pay_token(7, secret) != token


def _document() -> Document:
    return Document(
        title="Estado de cuenta", subtitle="Portal", facts=[("Propiedad", "040-000-001-07")],
        rows=[Row("Total", "$100.00", [Why("Cuota de 12 meses")], strong=True)],
        tables=[Table(("No.", "Cantidad"), [("1", "$50.00"), ("2", "$50.00")])],
        notes=["Nota"], code=Code("https://example.pr/pagar/abc", "QR", ("Pague",)))


@pytest.mark.parametrize("change", [
    lambda d: d.rows[0].__setattr__("amount", "$100.01"),
    lambda d: d.rows[0].why.append(Why("Interés")),
    lambda d: d.tables[0].rows.append(("3", "$0.01")),
    lambda d: d.facts.append(("Dirección", "Calle 1")),
    lambda d: d.notes.__setitem__(0, "Otra nota"),
    lambda d: setattr(d, "code", dataclasses.replace(d.code, data="https://example.pr/x")),
    lambda d: setattr(d, "on", clock.today() + timedelta(days=1)),
])
def test_any_change_of_what_a_document_shows_is_another_key(change):  # noqa: ANN001
    doc = _document()
    before = cache.key(doc, "es")
    assert cache.key(_document(), "es") == before and cache.key(doc, "en") != before
    change(doc)
    assert cache.key(doc, "es") != before


def test_the_cache_keeps_a_bounded_number_of_documents(renders, monkeypatch):  # noqa: ANN001
    monkeypatch.setattr(cache, "SIZE", 2)
    docs = [dataclasses.replace(_document(), title=f"Doc {n}") for n in range(3)]
    for doc in docs:
        cache.rendered(doc, "es")
    cache.rendered(docs[2], "es")
    assert renders == ["Doc 0", "Doc 1", "Doc 2"]
    cache.rendered(docs[0], "es")  # the oldest was let go: drawn again
    assert renders[-1] == "Doc 0" and len(renders) == 4
