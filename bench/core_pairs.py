"""`calc.run("statement")` against the naive reference, in paired processes of two code trees.
A script.

    .venv/bin/python bench/core_pairs.py --base /tmp/base [--pairs 5] [--accounts 3000]
        [--rounds 5]

Each pair runs one process of this tree, then one of the tree given as --base (the untouched
code), alternately, so a burst of load on the shared host hits both. In each process the same
seeded accounts (`core_oracle_bench.make_accounts`) are run through `calc.run("statement")` and
through the naive reference in alternating rounds, and the best CPU time of each gives the
ratio (the reference's time over the core's: above 1, the core is faster). Prints each pair,
then the median of each tree and in how many pairs this tree's ratio is the higher, with the
load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

CHILD = """
import sys, time, gc
sys.path.insert(0, "bench")
from core_oracle_bench import make_accounts
from naive_statement import statement as naive
from portal.core import calc
accounts = make_accounts({accounts}, {seed})
def cpu(fn):
    gc.collect(); t = time.process_time(); fn(); return time.process_time() - t
def core():
    for a in accounts: calc.run("statement", a)
def ref():
    for a in accounts: naive(a)
core(); ref()
tc, tn = [], []
for _ in range({rounds}):
    tc.append(cpu(core)); tn.append(cpu(ref))
print(min(tc) / len(accounts) * 1e6, min(tn) / len(accounts) * 1e6)
"""


def one(tree: Path, accounts: int, seed: int, rounds: int) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    out = subprocess.run([sys.executable, "-c", CHILD.format(accounts=accounts, seed=seed,
                                                             rounds=rounds)],
                         cwd=tree, env=env, capture_output=True, text=True, check=True)
    core, naive = map(float, out.stdout.split())
    return core, naive


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the untouched code's tree")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--accounts", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    print(f"load average {load()}; {args.pairs} pairs of {args.accounts:,} accounts, best of "
          f"{args.rounds} alternating rounds; ratio = reference time / core time")
    new, base = [], []
    for k in range(args.pairs):
        c, n = one(HERE, args.accounts, args.seed, args.rounds)
        bc, bn = one(args.base.resolve(), args.accounts, args.seed, args.rounds)
        new.append(n / c)
        base.append(bn / bc)
        print(f"  pair {k + 1}: this tree {c:6.1f} µs vs {n:6.1f} µs: {n / c:.3f}x; "
              f"base {bc:6.1f} µs vs {bn:6.1f} µs: {bn / bc:.3f}x  (load {load()})")
    higher = sum(a > b for a, b in zip(new, base, strict=True))
    print(f"this tree: {min(new):.2f}-{max(new):.2f}x, median {statistics.median(new):.3f}x; "
          f"base: {min(base):.2f}-{max(base):.2f}x, median {statistics.median(base):.3f}x; "
          f"this tree higher in {higher} of {len(new)} pairs; load average {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
