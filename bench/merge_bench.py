"""Merged print file benchmark: memory and time of putting N kept letters in one tagged PDF.

    .venv/bin/python bench/merge_bench.py [--parts 50,200,500]

The staff's print file of the owners' copies (`collections.letters.print_file`) puts each
kept letter in one file as it is, with its structure tree (`portal.pdf.merge`), reading the
letters one at a time. Here one bilingual letter-like document (two versions, a table, the
footnotes: about the size of a demand letter) is rendered once, and N copies of its bytes
are merged from a generator, as the print file reads them from the store. Prints, for each
N: the peak of Python's allocations during the merge (`tracemalloc`), that peak per part,
the output's size and per part, and the CPU time per part. Memory that stays flat per part
means the parts are not all held at once next to the output's objects.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from portal import pdf  # noqa: E402
from portal.i18n import use_language  # noqa: E402
from portal.pdf.demand import render_bilingual  # noqa: E402
from portal.pdf.merge import merge  # noqa: E402


def letter() -> bytes:
    docs = []
    for lang in ("es", "en"):
        with use_language(lang):
            rows = [pdf.Row(f"Plazo {i} · 15 de agosto de 2026", f"${i * 111:,}.25",
                            [pdf.Why("Interés de 0.75 % mensual por 42 días",
                                     pdf.Ref("R-A8", "23 LPRA § 6432(d)", "Intereses"))])
                    for i in range(1, 7)]
            docs.append(pdf.Document(
                title="Requerimiento de pago", subtitle="Correo certificado",
                facts=[("Propiedad", "040-000-001-07"), ("Dirección", "Calle Luna 12")],
                body=["Le requerimos el pago de lo adeudado dentro de quince días. " * 6],
                rows=rows, rows_heading="Cantidades", reference="Requerimiento 12",
                on=date(2026, 11, 30)))
    return render_bilingual(docs[0], "es", docs[1], "en")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--parts", default="50,200,500")
    args = parser.parse_args()
    one = letter()
    merge([one])  # the first merge in a process imports and warms pypdf
    print(f"one letter: {len(one) / 1024:.0f} KiB")
    for n in (int(x) for x in args.parts.split(",")):
        tracemalloc.start()
        t0 = time.process_time()
        out = merge(bytes(one) for _ in range(n))  # a fresh copy each, as read from the store
        cpu = time.process_time() - t0
        _now, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"{n:5d} letters: peak {peak / 2**20:7.1f} MiB ({peak / n / 1024:6.1f} KiB a "
              f"letter), file {len(out) / 2**20:6.2f} MiB ({len(out) / n / 1024:5.1f} KiB a "
              f"letter), CPU {cpu * 1000 / n:5.1f} ms a letter (under tracemalloc)")


if __name__ == "__main__":
    main()
