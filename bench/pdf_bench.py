"""PDF benchmark: the statement of account against a trivial page, as a ratio in one run.

    .venv/bin/python bench/pdf_bench.py [--rounds 30]

Loads the demo District into a throwaway SQLite database, words the statement of the demo
owner's delinquent parcel (interest, late fees, a certified-mail cost, a demand: the longest
statement of the demo) in Spanish and in English, then times `portal.pdf.render` of that
document and of a trivial document (a title and one line) in the same process. Fonts are
read once per process (`portal.pdf.tagged.add_cached_font`): the first render pays for it
and is printed apart. Each round times a block of trivial pages and a block of statements
(each block at least 0.2 s); the ratio is the median of the rounds' ratios, with its
quartiles. Target: a statement PDF in at most 20x a trivial page's time. Then the same
through the app (the Flask test client, signed in as the demo owner): the statement PDF's
route against the home page, the trivial page of `bench/web_bench.py` (for comparison with
the 57-71x measured before this layer; no target of its own).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from portal import clock, i18n, pdf  # noqa: E402
from portal.accounts import statements  # noqa: E402
from portal.app import create_app  # noqa: E402
from portal.db import Database, reset_databases, upgrade  # noqa: E402
from portal.demo import district  # noqa: E402
from portal.people import users  # noqa: E402

TODAY = date(2026, 11, 30)
TARGET = 20.0


def statement_documents(folder: Path) -> tuple[dict[str, pdf.Document], object, int]:
    from portal.documents.statement import statement_document
    from portal.web.accounts import views
    from portal.web.data import uow
    url = f"sqlite:///{folder / 'bench.db'}"
    upgrade(url, "head")
    database = Database(url)
    district.load(database, users_n=len(district.SIGN_INS) + 2)
    database.dispose()
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": url,
                      "INSTANCE_PATH": str(folder / "instance"), "MAIL_SERVER": None,
                      "OUTBOX_DIR": str(folder / "outbox"), "RATELIMIT_ENABLED": False})
    docs = {}
    with app.app_context():
        with uow() as w:
            owner = users.find_by_email(w, "owner@demo.pr")
            pid = next(s.parcel.id for s in statements.dashboard(w, owner, TODAY)
                       if s.status == "overdue")
        for lang in ("es", "en"):
            with i18n.use_language(lang):
                docs[lang] = statement_document(views.parcel_view(owner, pid, TODAY))
    return docs, app, pid


def block(work: object, seconds: float = 0.2) -> float:
    """Seconds per call of `work`, over a block of at least `seconds`."""
    n, start = 0, time.perf_counter()
    while True:
        work()  # type: ignore[operator]
        n += 1
        elapsed = time.perf_counter() - start
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
        for lang in ("es", "en"):
            report(f"{lang}: trivial page", lambda lang=lang: pdf.render(trivial, lang),
                   "statement", lambda lang=lang: pdf.render(docs[lang], lang), args.rounds,
                   TARGET)

        from web_bench import sign_in
        client = sign_in(app, "owner@demo.pr", district.DEMO_PASSWORD)
        url = f"/propiedad/{pid}/estado-de-cuenta.pdf"
        assert client.get(url).status_code == 200 and client.get("/").status_code == 200
        report("through the app: home page", lambda: client.get("/"), "statement PDF",
               lambda: client.get(url), max(args.rounds // 3, 5), None)
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
    print(f"{name_a} {ta * 1000:.1f} ms, {name_b} {tb * 1000:.1f} ms ({1 / tb:.0f} per second, "
          f"one process); ratio {med:.1f}x (quartiles {q1:.1f}-{q3:.1f}{verdict})")


if __name__ == "__main__":
    main()
