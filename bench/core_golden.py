"""A golden digest of the calculation core's outputs: the guard of its optimisations. A script.

    .venv/bin/python bench/core_golden.py [--accounts 3000] [--seed 2026] > before.digest
    .venv/bin/python bench/core_golden.py --check before.digest

Runs `calc.run_json` (as `portal calc NAME` does) on every case of tests/cases/*.yaml (all
operations, the error cases too), on N seeded random `statement` accounts (the generator of
bench/core_oracle_bench.py) and on as many mutated copies of them (one field made wrong or
unusual: a bad date, a date with a trailing newline, an amount with three decimals, a JSON
number, an unknown field, an integer amount...), and writes one line per input: its name and
the SHA-256 of the whole output JSON text (every figure, the applications, the trace's rules
and explanation in both languages) or of the error's one-line message. With `--check FILE`
it recomputes them, prints how many are identical and the names of the first that differ,
and exits 1 when any differs.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from core_oracle_bench import make_accounts  # noqa: E402

from portal.core import calc  # noqa: E402
from portal.core.errors import CalcError  # noqa: E402
from tests.support.cases import CASES, input_text  # noqa: E402


def _mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One change to a valid account: mostly input errors, some valid but unusual forms."""
    d = copy.deepcopy(data)
    lists = [k for k in ("installments", "payments", "costs", "adjustments", "refunds")
             if d.get(k)]
    kind = rng.randrange(16)
    name = rng.choice(lists) if lists else "installments"
    items = d.get(name) or [{}]
    item = rng.choice(items)
    if kind == 0:
        d["as_of"] = rng.choice(["2026-02-30", "2026-7-01", "2026-07-01\n", " 2026-07-01",
                                 "2026-07-01T00:00", 20260701, None, "", "２０２６-07-01",
                                 "9999-12-31", "0000-01-01"])
    elif kind == 1:
        item["date" if name != "installments" else "due_date"] = rng.choice(
            ["2026-13-01", "2026-07-01\n", "2026/07/01", "1.5", 7, "2026-07-32", "2026-06-31"])
    elif kind == 2:
        item["amount"] = rng.choice(["1.234", "-5.00", "1,000.00", "12.", ".50", " 12.00",
                                     "12.00 ", "1e3", "NaN", "0x10", "٣", "", "12.0",
                                     "00012.30", "999999999999.99", "1000000000000.00",
                                     "99999999999999999999999", 12, 0, -1, True, 1.5])
    elif kind == 3:
        item["colour"] = "blue"
    elif kind == 4:
        d["unexpected"] = 1
    elif kind == 5 and name == "installments":
        item["number"] = rng.choice([0, -1, "1", 1.0, True, items[0].get("number")])
    elif kind == 6:
        d[name] = rng.choice(["not a list", None, {}, [1], [None]])
    elif kind == 7:
        d.setdefault("rules", {})[rng.choice(["grace_day", "interest_rate", "late_fee_rate",
                                             "late_fee_base", "lump_sum_discount_rate",
                                             "closed_days", "other"])] = rng.choice(
            [0, 32, "x", "1.5", "-0.1", ["2026-07-01\n"], [], 10, "0.05", None])
    elif kind == 8 and name == "payments":
        item[rng.choice(["lump_sum", "reversed_on"])] = rng.choice(
            [True, False, "yes", None, "2026-01-01", "2030-01-01"])
    elif kind == 9:
        item.pop(rng.choice(list(item) or ["amount"]), None)
    elif kind == 10:
        d["annual"] = rng.choice(["1000.00", "0", "x", 100, None])
    elif kind == 11:
        d["closed_days"] = rng.choice([["2026-07-10"], "2026-07-10", ["x"], [None]])
    elif kind == 12 and name in ("costs", "adjustments"):
        item["description"] = rng.choice([5, None, "", "año", True])
    else:  # valid but unusual forms of money
        item["amount"] = rng.choice(["0", "0.0", "7", 7, "0.00", "10.5", "3.10"])
    return d


def inputs(accounts: int, seed: int) -> Iterator[tuple[str, str, str]]:
    """(name, operation, JSON text) for every input of the digest."""
    for k, (area, case) in enumerate(CASES):
        if "operation" in case:
            yield f"case {k} {area}: {case.get('name', '?')}", case["operation"], input_text(case)
    rng = random.Random(seed + 1)
    for k, data in enumerate(make_accounts(accounts, seed)):
        yield f"account {k}", "statement", json.dumps(data)
        yield f"mutant {k}", "statement", json.dumps(_mutate(data, rng))


def digest(operation: str, text: str) -> str:
    try:
        out = calc.run_json(operation, text)
    except CalcError as exc:
        out = f"{type(exc).__name__}: {exc.one_line()}"
    return hashlib.sha256(out.encode()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--accounts", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--check", metavar="FILE", help="compare with a digest written before")
    args = ap.parse_args(argv)
    lines = [f"{name}\t{digest(op, text)}" for name, op, text in inputs(args.accounts,
                                                                          args.seed)]
    if not args.check:
        print("\n".join(lines))
        return 0
    before = dict(line.split("\t") for line in Path(args.check).read_text().splitlines())
    now = dict(line.split("\t") for line in lines)
    same = [n for n in now if before.get(n) == now[n]]
    differ = [n for n in now if n in before and before[n] != now[n]]
    missing = sorted(set(before) ^ set(now))
    print(f"{len(same):,} of {len(before):,} outputs identical; {len(differ)} differ; "
          f"{len(missing)} inputs in only one of the two runs")
    for n in differ[:10]:
        print(f"  differs: {n}")
    return 0 if len(same) == len(before) == len(now) else 1


if __name__ == "__main__":
    raise SystemExit(main())
