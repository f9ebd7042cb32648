"""Benchmark of the calculation core. A script, not a test.

    .venv/bin/python bench/core_bench.py [--parcels 100000] [--statements 100000] [--profile]

1. The roll: `assessment_roll` over N parcels (R-A2, R-A3), then 12 installments for each
   assessed parcel with `installments.schedule` (R-A4). Target: < 2 s for 100,000 parcels.
2. The statements: N one-year statements (12 installments, three payments, one of them late)
   with `statement.evaluate` (R-A6 to R-A10). Target: < 15 s for 100,000.

Prints parcels/s, statements/s, elapsed seconds and peak memory (the process's maximum
resident set size from `resource.getrusage`, and the peak of Python allocations traced by
`tracemalloc` when --tracemalloc is given: tracing slows the run). With --profile, each phase
is also run under cProfile on a tenth of the load and the top functions are printed.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import random
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from portal.core.allocation import ParcelFacts, assessment_roll  # noqa: E402
from portal.core.installments import Installment, schedule  # noqa: E402
from portal.core.money import ZERO  # noqa: E402
from portal.core.statement import Payment, evaluate  # noqa: E402

FY_START = date(2026, 7, 1)
TARGETS = {"roll": 2.0, "statements": 15.0}


def make_parcels(n: int, rng: random.Random) -> list[ParcelFacts]:
    owners = ["private"] * 90 + ["authority"] * 7 + ["public"] * 3
    parcels = []
    for k in range(n):
        owner = rng.choice(owners)
        fixed = Decimal(rng.randint(50_000, 500_000)).scaleb(-2) if k % 200 == 0 else None
        parcels.append(ParcelFacts(
            id=f"P{k:06d}", benefit_units=Decimal(rng.randint(0, 5000)).scaleb(-2),
            owner=owner, transferred=owner != "private" and rng.random() < 0.5,
            tax_incentive_exempt=rng.random() < 0.05, fixed_amount=fixed))
    return parcels


def build_roll(parcels: list[ParcelFacts], total: Decimal) -> dict[str, list[Installment]]:
    roll = assessment_roll(total, parcels)
    return {pid: schedule(amount, FY_START, 12) for pid, amount in roll.assessments.items()}


def make_accounts(n: int, rng: random.Random) -> list[tuple[list[Installment], list[Payment]]]:
    accounts = []
    for _ in range(n):
        annual = Decimal(rng.randint(12_000, 2_400_000)).scaleb(-2)
        items = schedule(annual, FY_START, 12)
        monthly = items[0].amount
        payments = [
            Payment(FY_START + timedelta(days=rng.randint(0, 9)), monthly),  # on time
            Payment(FY_START + timedelta(days=rng.randint(40, 120)),  # late, partial
                    monthly * rng.randint(1, 3)),
            Payment(FY_START + timedelta(days=rng.randint(150, 360)),
                    Decimal(rng.randint(100, int(annual * 100))).scaleb(-2)),
        ]
        accounts.append((items, payments))
    return accounts


def run_statements(accounts: list[tuple[list[Installment], list[Payment]]]) -> Decimal:
    as_of = date(2027, 6, 30)
    total = ZERO
    for items, payments in accounts:
        total += evaluate(as_of, items, payments).payoff
    return total


def timed(fn: Callable[[], object]) -> tuple[float, float, object]:
    """Elapsed (wall-clock) and CPU seconds of this process: on a shared machine the
    difference is time spent waiting for a core."""
    gc.collect()
    start, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - start, time.process_time() - cpu, result


def profile(label: str, fn: Callable[[], object], top: int = 25) -> None:
    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    print(f"\n--- cProfile: {label} (sorted by own time) ---")
    print(out.getvalue())


def peak_rss_mib() -> float:
    # ru_maxrss is in KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parcels", type=int, default=100_000)
    ap.add_argument("--statements", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--profile", action="store_true", help="cProfile a tenth of each phase")
    ap.add_argument("--tracemalloc", action="store_true", help="trace Python allocations")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)

    print(f"Python {sys.version.split()[0]}; {args.parcels:,} parcels, "
          f"{args.statements:,} statements (seed {args.seed})")
    parcels = make_parcels(args.parcels, rng)
    total = Decimal(args.parcels * 1000).quantize(Decimal("0.01")) + Decimal("0.37")
    if args.tracemalloc:
        tracemalloc.start()
    t_roll, c_roll, schedules = timed(lambda: build_roll(parcels, total))
    roll_peak = tracemalloc.get_traced_memory()[1] if args.tracemalloc else None
    assessed = sum(sum(i.amount for i in items) for items in schedules.values())  # type: ignore[union-attr]
    assert assessed == total, "the roll's installments must sum to the total"
    n_assessed = len(schedules)  # type: ignore[arg-type]
    del schedules  # the two phases are separate jobs: free the roll's 1.1 M installments
    if args.tracemalloc:
        tracemalloc.stop()
    accounts = make_accounts(args.statements, rng)
    evaluate(date(2027, 6, 30), *accounts[0])  # warm the holiday calendar caches
    if args.tracemalloc:
        tracemalloc.start()
    t_st, c_st, payoff_sum = timed(lambda: run_statements(accounts))
    st_peak = tracemalloc.get_traced_memory()[1] if args.tracemalloc else None
    if args.tracemalloc:
        tracemalloc.stop()

    def line(label: str, seconds: float, cpu: float, n: int, unit: str, target: float,
             peak: int | None) -> None:
        ok = "OK" if seconds < target else "MISSED"
        mem = f", traced peak {peak / 2**20:,.1f} MiB" if peak is not None else ""
        print(f"{label:<11} {seconds:7.2f} s elapsed ({cpu:.2f} s CPU)  "
              f"{n / seconds:>8,.0f} {unit}/s  target < {target:g} s: {ok}{mem}")

    line("roll", t_roll, c_roll, args.parcels, "parcels", TARGETS["roll"], roll_peak)
    line("statements", t_st, c_st, args.statements, "statements", TARGETS["statements"],
         st_peak)
    print(f"{'':<11} ({n_assessed:,} parcels assessed, {12 * n_assessed:,} installments; "
          f"sum of payoffs {payoff_sum})")
    print(f"load average during the run: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} CPUs")
    print(f"peak resident memory {peak_rss_mib():,.0f} MiB (whole process, inputs included)")

    if args.profile:
        profile("roll (1/10)", lambda: build_roll(parcels[: args.parcels // 10],
                                                   (total / 10).quantize(Decimal("0.01"))))
        profile("statements (1/10)", lambda: run_statements(accounts[: args.statements // 10]))
    return 0 if t_roll < TARGETS["roll"] and t_st < TARGETS["statements"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
