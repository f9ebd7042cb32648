"""PDF benchmark: the statement of account against a trivial page and against a plain fpdf2
document with the same text, as ratios in one run, and documents per CPU second of each.

    .venv/bin/python bench/pdf_bench.py [--rounds 30]

Loads the demo District into a throwaway SQLite database, words the statement of the demo
owner's delinquent parcel (interest, late fees, a certified-mail cost, a demand: the longest
statement of the demo) in Spanish and in English, with its QR code (the pay link) as the
route draws it, then times `portal.pdf.render` of that
document and of a trivial document (a title and one line) in the same process. Fonts are
read once per process (`portal.pdf.tagged.add_cached_font`): the first render pays for it
and is printed apart. Each round times a block of trivial pages and a block of statements
(each block at least 0.2 s); the ratio is the median of the rounds' ratios, with its
quartiles. Target: a statement PDF in at most 20x a trivial page's time.

The anchor: the statement's own text (read back from its PDF with pypdf) written by plain
fpdf2 on A4 pages in a built-in font (Helvetica, a `cell` per line, no tags, no embedded font),
what the PDF costs the library alone; target: the statement within 10x of it. The blocks are
timed in CPU seconds of this process (`time.process_time`), so the other processes on the
machine change the figures less; the load average is printed beside them. Then the same
through the app (the Flask test client, signed in as the demo owner): the statement PDF's
route against the home page, the trivial page of `bench/web_bench.py`, twice: served again
(the same statement, found in `portal.pdf.cache`: what a second download costs) and drawn
(the cache emptied before each request: a first download). The route's target, 5x the home
page, is judged by `bench/web_bench.py --only PDF`.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from portal import clock, domains, i18n, pdf  # noqa: E402, F401 - domains: every renderer
from portal.accounts import statements  # noqa: E402
from portal.db import reset_databases  # noqa: E402
from portal.people import users  # noqa: E402

TODAY = date(2026, 11, 30)
TARGET = 20.0
PLAIN_TARGET = 10.0


def document_text(data: bytes) -> str:
    """The text a PDF shows, read back with pypdf (the anchor writes the same words)."""
    from io import BytesIO

    from pypdf import PdfReader
    return "\n".join(page.extract_text() or "" for page in PdfReader(BytesIO(data)).pages)


def plain_fpdf2(text: str) -> bytes:
    """`text` on A4 pages by fpdf2 alone: Helvetica (its Windows-1252 glyphs), a `cell` per
    line as the statement broke them (no line breaking of its own), new pages as needed."""
    from fpdf import FPDF
    doc = FPDF(format="A4")
    doc.set_auto_page_break(True, margin=15)
    doc.add_page()
    doc.set_font("Helvetica", size=10)
    for line in text.splitlines():
        doc.cell(0, 5, line, new_x="LMARGIN", new_y="NEXT")
    return bytes(doc.output())


def statement_documents(folder: Path) -> tuple[dict[str, pdf.Document], object, int]:
    from document_bench import demo_app

    from portal.documents.statement import pay_code, pay_token, statement_document
    from portal.web.accounts import views
    from portal.web.data import external_url, uow
    app = demo_app(folder)
    docs = {}
    with app.app_context():
        with uow() as w:
            owner = users.find_by_email(w, "owner@demo.pr")
            pid = next(s.parcel.id for s in statements.dashboard(w, owner, TODAY)
                       if s.status == "overdue")
        link = external_url("payments.guest_link",
                            token=pay_token(pid, app.config["SECRET_KEY"]))
        for lang in ("es", "en"):
            with i18n.use_language(lang):
                v = views.parcel_view(owner, pid, TODAY)
                docs[lang] = statement_document(v)
                docs[lang].code = pay_code(v.parcel.catastro, link)  # as the route draws it
    return docs, app, pid


def drawn_anew(doc: pdf.Document, lang: str) -> bytes:
    """`pdf.render` with the QR code encoded anew (each parcel's link is its own)."""
    from document_bench import forget
    forget()
    return pdf.render(doc, lang)


def block(work: object, seconds: float = 0.2) -> float:
    """CPU seconds per call of `work`, over a block of at least `seconds` of CPU."""
    n, start = 0, time.process_time()
    while True:
        work()  # type: ignore[operator]
        n += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return elapsed / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    clock.set_fixed(TODAY)
    with tempfile.TemporaryDirectory() as tmp:
        docs, app, pid = statement_documents(Path(tmp))
        trivial = pdf.Document(title="Estado de cuenta", subtitle="",
                               facts=[("Propiedad", "1")])
        start = time.perf_counter()
        pdf.render(trivial, "es")
        cold = time.perf_counter() - start
        for lang in ("es", "en"):
            data = pdf.render(docs[lang], lang)
            pages = len(re.findall(rb"/Type /Page\b(?!s)", data))
            print(f"statement ({lang}): {len(data):,} bytes, {pages} pages")
        print(f"first render in this process (reads the fonts): {cold * 1000:.1f} ms")
        load = os.getloadavg()
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs);"
              " CPU time of this process")
        texts = {lang: document_text(pdf.render(docs[lang], lang)).encode(
            "cp1252", "replace").decode("cp1252") for lang in ("es", "en")}
        plain_pages = len(re.findall(rb"/Type /Page\b(?!s)", plain_fpdf2(texts["es"])))
        print(f"plain fpdf2 anchor: {len(texts['es']):,} characters, {plain_pages} pages")
        for lang in ("es", "en"):
            report(f"{lang}: plain fpdf2, same text",
                   lambda lang=lang: plain_fpdf2(texts[lang]), "statement",
                   lambda lang=lang: drawn_anew(docs[lang], lang), args.rounds, PLAIN_TARGET)
        for lang in ("es", "en"):
            report(f"{lang}: trivial tagged page", lambda lang=lang: pdf.render(trivial, lang),
                   "statement", lambda lang=lang: drawn_anew(docs[lang], lang), args.rounds,
                   TARGET)

        from document_bench import sign_in
        client = sign_in(app, "owner@demo.pr")
        url = f"/propiedad/{pid}/estado-de-cuenta.pdf"
        assert client.get(url).status_code == 200 and client.get("/").status_code == 200
        report("through the app: home page", lambda: client.get("/"),
               "statement PDF served again", lambda: client.get(url),
               max(args.rounds // 3, 5), None)

        from document_bench import forget

        def drawn() -> object:
            forget()
            return client.get(url)
        report("through the app: home page", lambda: client.get("/"),
               "statement PDF drawn (cache emptied)", drawn, max(args.rounds // 3, 5), None)
        reset_databases()


def report(name_a: str, a: object, name_b: str, b: object, rounds: int,
           target: float | None) -> None:
    ratios, a_s, b_s = [], [], []
    for _ in range(rounds):
        ta, tb = block(a), block(b)
        a_s.append(ta)
        b_s.append(tb)
        ratios.append(tb / ta)
    q1, med, q3 = statistics.quantiles(ratios, n=4)
    ta, tb = statistics.median(a_s), statistics.median(b_s)
    verdict = "" if target is None else (
        f"; target <= {target:.0f}x: {'ok' if med <= target else 'OVER TARGET'}")
    print(f"{name_a} {ta * 1000:.2f} ms ({1 / ta:.0f} per CPU second), {name_b} "
          f"{tb * 1000:.2f} ms ({1 / tb:.0f} per CPU second); ratio {med:.1f}x "
          f"(quartiles {q1:.1f}-{q3:.1f}{verdict})")


if __name__ == "__main__":
    main()
