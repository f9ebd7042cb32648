"""Instructions an account of `calc.run("statement")`, of its parts and of the naive reference,
counted by valgrind's callgrind (the load of the shared host does not change a count). A script.

    .venv/bin/python bench/core_instructions.py [--accounts 200] [--parts core naive read ...]

For each part it runs this script under `valgrind --tool=callgrind` (all at once, with
PYTHONHASHSEED=0): N seeded accounts of bench/core_oracle_bench.py are made and run once through
everything (a warm-up: the core's caches filled), then only that part runs; a run with no part
gives the set-up's count, taken off each. Parts: `core` (calc.run("statement")), `naive` (the
reference), `read` (reading and validating the input), `eval` (statement.evaluate), `explain`
(building the trace), `tojson` (rendering it in both languages), `output` (the output's
figures, installments and applications: `calc.statement_figures`). Slow: about five minutes for
200 accounts on a loaded host.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("core", "naive", "read", "eval", "explain", "tojson", "output")


def run_part(part: str, n: int) -> None:
    """The inner run (under valgrind): set up, warm up, then only `part`."""
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    import gc

    from core_oracle_bench import make_accounts
    from naive_statement import statement as naive

    from portal.core import calc
    from portal.core.calc import (
        _read_installments,
        _rules,
        read_statement_facts,
        statement_figures,
    )
    from portal.core.inputs import Reader
    from portal.core.statement import evaluate

    def read(a: dict[str, Any]) -> tuple[Any, ...]:
        r = Reader(a)
        as_of = r.date("as_of")
        items, _ = _read_installments(r)
        payments, costs, adjustments, refunds = read_statement_facts(r)
        return as_of, items, payments, costs, _rules(r), adjustments, refunds

    def ev(x: tuple[Any, ...]) -> Any:
        return evaluate(x[0], x[1], x[2], x[3], x[4], None, adjustments=x[5], refunds=x[6])

    accounts = make_accounts(n, 2026)
    for a in accounts:
        calc.run("statement", a)
        naive(a)
    inputs = [read(a) for a in accounts]
    statements = [ev(x) for x in inputs]
    traces = [s.trace() for s in statements]
    gc.collect()
    run = {"none": lambda: None,
           "core": lambda: [calc.run("statement", a) and None for a in accounts],
           "naive": lambda: [naive(a) and None for a in accounts],
           "read": lambda: [read(a) and None for a in accounts],
           "eval": lambda: [ev(x) and None for x in inputs],
           "explain": lambda: [s.trace() and None for s in statements],
           "tojson": lambda: [t.to_json() and None for t in traces],
           "output": lambda: [statement_figures(s) and None for s in statements]}[part]
    run()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--accounts", type=int, default=200)
    ap.add_argument("--parts", nargs="+", choices=PARTS, default=["core", "naive"])
    ap.add_argument("--inner", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inner:
        run_part(args.inner, args.accounts)
        return 0
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as tmp:
        procs = {}
        for part in ("none", *args.parts):
            out = Path(tmp) / f"{part}.out"
            procs[part] = (out, subprocess.Popen(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                 __file__, "--inner", part, "--accounts", str(args.accounts)],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        counts = {}
        for part, (out, proc) in procs.items():
            proc.wait()
            found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.M)
            if proc.returncode or found is None:
                print(f"{part}: valgrind failed ({proc.returncode})")
                return 1
            counts[part] = int(found.group(1))
    for part in args.parts:
        print(f"{part:8s} {(counts[part] - counts['none']) / args.accounts:12,.0f} "
              "instructions an account")
    if "core" in counts and "naive" in counts:
        ratio = (counts["naive"] - counts["none"]) / (counts["core"] - counts["none"])
        print(f"core speed in instructions: {ratio:.2f}x the naive reference's")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
