"""Every document the portal issues (the statement of account and the receipt), in both
languages, from the demo District's own figures with a long address and enough lines for
three pages and more: read back with poppler (`pdftotext -bbox`, `pdfinfo`), no two runs of
text overlap, every amount is printed whole, each page names the Authority and its page
number, and the file is tagged with its title and language.

The documents are the real callers' (`portal.documents`: `statement.statement_document`,
`receipt.receipt_document`); only the parcel's address and the number of lines are made
longer than the demo's."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from portal import i18n, pdf
from portal.pdf.model import Document, Why
from tests.support.clock import TODAY
from tests.support.demo import parcel_ids
from tests.support.documents import (
    LONG_ADDRESS,
    MONEY,
    check,
    merged_structure,
    needs_poppler,
    pages_of,
    structure,
)

pytestmark = [needs_poppler, pytest.mark.usefixtures("no_missing_glyph")]


def longer_statement(v):  # noqa: ANN001, ANN201
    """The parcel page's values with a long address and four times the schedule's lines."""
    v = copy.copy(v)
    v.parcel = v.parcel._replace(address=LONG_ADDRESS)
    v.installments = list(v.installments) * 4
    v.costs = list(v.costs) * 6
    return v


def statement_documents(demo_app, lang: str) -> Iterator[tuple[Document, bytes]]:  # noqa: ANN001
    from portal import clock
    from portal.documents.statement import statement_document
    from portal.people import users
    from portal.web.accounts import views
    from portal.web.data import uow
    with demo_app.app_context(), i18n.use_language(lang):
        with uow() as w:
            owner = users.find_by_email(w, "owner@demo.pr")
        for pid in parcel_ids(demo_app)["owner"]:
            v = longer_statement(views.parcel_view(owner, pid, clock.today()))
            doc = statement_document(v)
            yield doc, pdf.render(doc, lang)


def receipt_documents(demo_app, lang: str) -> Iterator[tuple[Document, bytes]]:  # noqa: ANN001
    from portal.documents import receipt
    from portal.models import Payment
    from portal.payments import receipts
    from portal.web.data import uow
    with demo_app.app_context(), i18n.use_language(lang):
        with uow() as w:
            payments = w.session.scalars(select(Payment).where(Payment.status == "succeeded")
                                         .order_by(Payment.id).limit(3)).all()
            views = [receipt.receipt_view(receipts.build_for_payment(w, p)) for p in payments]
        assert views, "the demo has no payment"
        for view in views:
            view.parts = [dict(p, address=LONG_ADDRESS, lines=list(p["lines"]) * 12)
                          for p in view.parts] * 8
            doc = receipt.receipt_document(view)
            yield doc, pdf.render(doc, lang)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_statement_prints_cleanly(demo_app, lang, tmp_path):  # noqa: ANN001
    docs = list(statement_documents(demo_app, lang))
    assert len(docs) >= 3
    for doc, data in docs:
        assert LONG_ADDRESS in dict(doc.facts).values()
        check(doc, data, lang, tmp_path)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_statement_answers_first(demo_app, lang, tmp_path):  # noqa: ANN001
    """After the Authority and the title, the first thing on page 1 is the answer: what is
    owed now and by which day, or that nothing is due (the parcel page's `views.answer`,
    its figures the offer's), in large text, before the facts and the amounts."""
    kinds = set()
    for doc, data in statement_documents(demo_app, lang):
        assert doc.answer and doc.answer_heading
        elems = structure(data, tmp_path, pdf.issuer(doc.on, lang).name)
        roles = [(r, t) for _d, r, t in elems]
        h1 = roles.index(("H1", doc.title))
        heading = roles.index(("H2", doc.answer_heading))
        first_table = next(i for i, (r, _t) in enumerate(roles) if r == "Table")
        assert h1 < heading < first_table
        said = [t for r, t in roles[heading + 1:first_table] if r == "P"]
        assert [" ".join(a.replace("\u00a0", " ").split()) for a in doc.answer] == \
            [" ".join(t.replace("\u00a0", " ").split()) for t in said]
        _w, _h, boxes = pages_of(data, tmp_path)[0]
        big = [b for b in boxes if b.y1 - b.y0 > 13]  # 14 pt against the body's 10.5
        first_word = doc.answer[0].split()[0]
        assert any(b.text == first_word for b in big), f"{first_word!r} not in large text"
        kinds.add(doc.answer[0].split()[0])
    assert kinds


def test_the_answer_says_each_case(demo_app):  # noqa: ANN001
    """Each kind of answer in words, with its figure and its day (formatted, never computed)."""
    from datetime import date
    from decimal import Decimal
    from types import SimpleNamespace

    from portal.documents.statement import answer_lines
    today = date(2026, 11, 30)
    with i18n.use_language("en"):
        due = SimpleNamespace(kind="due", amount=Decimal("250.00"), count=2,
                              day=date(2026, 12, 10))
        assert answer_lines(due, today) == [
            "You have $250.00 (2 installments) due now: pay it by December 10, 2026 "
            "(10 days left) to avoid a late fee."]
        done = SimpleNamespace(kind="done", amount=None, count=0, day=None)
        assert answer_lines(done, today) == ["You are up to date: nothing else is due this "
                                             "year."]
        nxt = SimpleNamespace(kind="next", amount=Decimal("125.00"), count=1,
                              day=date(2027, 1, 11))
        assert "$125.00 by January 11, 2027" in answer_lines(nxt, today)[0]
    assert answer_lines(None, today) == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_receipt_prints_cleanly(demo_app, lang, tmp_path):  # noqa: ANN001
    for doc, data in receipt_documents(demo_app, lang):
        check(doc, data, lang, tmp_path)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_rules_are_footnotes_in_plain_words(demo_app, lang, tmp_path):  # noqa: ANN001
    doc, data = next(statement_documents(demo_app, lang))
    refs = {w.ref for r in doc.rows for w in r.why if isinstance(w, Why) and w.ref}
    assert any(r.rule == "R-A8" and r.source == "23 LPRA § 6432(d)" for r in refs)
    text = " ".join(b.text for _, _, boxes in pages_of(data, tmp_path) for b in boxes)
    words = {"es": "regla del portal R-A8", "en": "portal's rule R-A8"}[lang]
    assert words in text.replace("\u00a0", " ")
    assert "23 LPRA § 6432(d)" in text


def test_an_amount_row_stays_with_its_label_across_pages(tmp_path):  # noqa: ANN001
    """Many rows with long explanations: no page starts with an explanation line whose amount
    is on another page, and the amounts' header repeats on each page."""
    from portal import clock
    ref = pdf.Ref("R-A8", "23 LPRA § 6432(d)", "Interest on delinquent principal")
    rows = [pdf.Row(f"Interest on installment {i}", f"${i * 13:,}.37",
                    [Why("10% a year x $1,234.56 x 31 / 365 days = $10.49, from the day after "
                         "the last timely day until today " * 2, ref)]) for i in range(1, 40)]
    doc = Document("Statement of account", "A test", [("Address", LONG_ADDRESS)], rows=rows,
                   rows_heading="Amounts", reference="Parcel 1")
    with clock.fixed(TODAY):
        data = pdf.render(doc, "en")
    pages = pages_of(data, tmp_path)
    assert len(pages) >= 3
    check(doc, data, "en", tmp_path)
    for _, _, boxes in pages[1:]:
        body = sorted((b for b in boxes if b.y0 > 60), key=lambda b: (round(b.y0), b.x0))
        assert [b.text for b in body[:3]] == ["What", "Amount", "Interest"], body[:3]
        amount = next(b for b in body if MONEY.fullmatch(b.text))
        assert abs(amount.y0 - body[2].y0) < 1, (amount, body[2])  # beside its label


def test_letters_beyond_the_shared_repertoire_print_and_read_back(tmp_path):  # noqa: ANN001
    """A name with letters outside the glyph set every document starts with (so its font
    subset is made for it, not the one kept for the process) prints and reads back."""
    from portal import clock
    name = "François Øster-Çelik, Ștefan Łukasz"
    doc = Document("Payment receipt", "", [("Payer", name), ("Amount paid", "$1,234.56")])
    with clock.fixed(TODAY):
        data = pdf.render(doc, "en")
        again = pdf.render(Document("Payment receipt", "", [("Payer", "Ana")]), "en")
    check(doc, data, "en", tmp_path, min_pages=1)
    text = " ".join(b.text for _, _, boxes in pages_of(data, tmp_path) for b in boxes)
    assert name in text
    assert "Ana" in " ".join(b.text for _, _, boxes in pages_of(again, tmp_path) for b in boxes)


def test_cells_taller_than_a_page_run_on_without_overlap(tmp_path):  # noqa: ANN001
    """A value longer than a page (a 10 kB payer name, an address typed without spaces) runs
    on across pages in its column; nothing is drawn over anything, nothing is cut off."""
    from portal import clock
    name = "Ana " * 1500 + "Fin"
    long_word = "Calle" + "x" * 400
    doc = Document("Payment receipt", "", [("Payer", name), ("Address", long_word)],
                   tables=[pdf.Table(("Parcel", "Applied to", "Amount"),
                                     [("1", name[:3000], "$1.00"), ("2", "Installment 1",
                                                                   "$2,000.00")],
                                     (1, 3, 1), "LLR", heading="Applied to")])
    with clock.fixed(TODAY):
        data = pdf.render(doc, "en")
    check(doc, data, "en", tmp_path)
    words = [b.text for _, _, boxes in pages_of(data, tmp_path) for b in boxes]
    assert words.count("Fin") == 1 and words.count("Ana") >= 1500 + 750
    assert "".join(w for w in words if w.startswith(("Calle", "x"))).count("x") >= 400


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_letter_is_the_same_layer(lang, tmp_path):  # noqa: ANN001
    """A notice or letter (what later issues add) is a `Document` with paragraphs: the same
    page furniture, footnotes, tags and checks."""
    from portal import clock
    ref = pdf.Ref("R-A12", "23 LPRA § 6432(d)", "Demand by certified mail")
    with clock.fixed(TODAY), i18n.use_language(lang):
        doc = Document("Demand for payment", "", [("Parcel", "040-000-001-07"),
                                                  ("Address", LONG_ADDRESS)],
                       body=[Why("We ask you to pay $1,475.36 within 15 days. " * 70, ref),
                             "Sincerely, the Authority."] * 3,
                       rows=[pdf.Row("Total due now", "$1,475.36", strong=True)],
                       rows_heading="What is due", reference="Parcel 040-000-001-07")
        data = pdf.render(doc, lang)
    check(doc, data, lang, tmp_path)


@needs_poppler
def test_files_put_together_stay_tagged(tmp_path):  # noqa: ANN001
    """`pdf.merge`: three documents (one bilingual) put together as they are: the file is
    tagged, its tree has a Part each with its own language and headings, every page and
    its text kept, the fonts written once."""
    from datetime import date

    from portal.pdf.demand import render_bilingual
    from portal.pdf.merge import merge

    def doc(title: str, lang: str) -> Document:
        with i18n.use_language(lang):
            return Document(title=title, subtitle="", facts=[("A", "B")],
                            rows=[pdf.Row("x", "$1.00")], rows_heading="Amounts",
                            reference="R", on=date(2026, 11, 30))

    parts = [pdf.render(doc("Estado de cuenta", "es"), "es"),
             render_bilingual(doc("Requerimiento de pago", "es"), "es",
                              doc("Demand for payment", "en"), "en"),
             pdf.render(doc("Receipt of mailing", "en"), "en")]
    data = merge(iter(parts))
    names = [pdf.issuer(TODAY, x).name for x in ("es", "es", "en")]
    tree = merged_structure(data, tmp_path, names)
    assert [[t for _d, r, t in part if r == "H1"] for part in tree] == [
        ["Estado de cuenta"], ["Requerimiento de pago", "Demand for payment"],
        ["Receipt of mailing"]]
    assert b"/Lang (en-US)" in data and b"/Lang (es-PR)" in data
    assert len(pages_of(data, tmp_path)) == 4
    assert len(data) < sum(len(p) for p in parts) * 0.7  # the fonts once, not three times
