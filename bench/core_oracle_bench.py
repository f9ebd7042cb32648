"""The calculation core against a naive reference of RULES.md section D. A script, not a test.

    .venv/bin/python bench/core_oracle_bench.py [--accounts 20000] [--seed 2026]
        [--parcels 2000 --rolls 10] [--no-timing] [--profile]

1. Generates N accounts (seeded) in the `statement` JSON contract's shape: one year of
   installments (some moved by a late notice), payments on time, late, partial, reversed, lump
   sums, costs, the odd adjustment or refund, declared closed days and varied rules.
2. Checks that the naive reference (`bench/naive_statement.py: statement`, written from the
   rules, not from the core) agrees with `calc.run("statement", ...)` on every contract figure
   of every account, and that the tight Decimal loop (`tight_payoff`) gives the same payoff as
   `portal.core.statement.evaluate`; prints how many of N agree and the first disagreements.
3. Prints, as ratios of CPU time within this one run with the load average beside them:
   calc.run("statement") against the naive reference (target at least 1x: the core as fast as
   the oracle), `statement.evaluate` against the tight loop (target at most 2x), and
   calc.run("assessment_roll") against a naive roll apportionment (R-A2, R-A3).

Each timing is the best of three alternating rounds (A, B, A, B, A, B) so a burst of load on the
shared machine hits both sides. With --profile, calc.run("statement") is run under cProfile on a
tenth of the accounts and the top functions are printed.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import random
import sys
import time
from collections.abc import Callable
from datetime import date, timedelta
from decimal import ROUND_FLOOR, Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from naive_statement import statement as naive_statement  # noqa: E402
from naive_statement import tight_payoff  # noqa: E402

from portal.core import calc  # noqa: E402
from portal.core.installments import Installment  # noqa: E402
from portal.core.statement import (  # noqa: E402
    Adjustment,
    Cost,
    Payment,
    Refund,
    StatementRules,
    evaluate,
)

FY_START = date(2026, 7, 1)
FIGURES = ("interest", "late_fees", "costs", "delinquent_principal", "due_principal",
           "upcoming_principal", "discount", "credit", "total_due_now", "payoff")
CENT = Decimal("0.01")


def _money(x: Decimal) -> str:
    return f"{x:.2f}"


def _split(annual: Decimal, n: int) -> list[Decimal]:
    """R-A4: equal installments, the extra cents to the earliest."""
    cents_total = int(annual * 100)
    base, extra = divmod(cents_total, n)
    return [Decimal(base + (1 if k < extra else 0)).scaleb(-2) for k in range(n)]


def _first_of_month(start: date, k: int) -> date:
    m = start.month - 1 + k
    return date(start.year + m // 12, m % 12 + 1, 1)


def make_account(rng: random.Random) -> dict[str, Any]:
    """One account in the `statement` contract's shape (all money as strings)."""
    annual = Decimal(rng.randint(12_000, 1_200_000)).scaleb(-2)
    count = rng.choice([12] * 8 + [10, 6])
    amounts = _split(annual, count)
    dues = [_first_of_month(FY_START, k) for k in range(count)]
    if rng.random() < 0.15:  # a late notice: earlier installments fall due after it (R-A4)
        notice = FY_START + timedelta(days=rng.randint(0, 80))
        moved = _first_of_month(notice, 1)
        dues = [max(d, moved) if d <= notice else d for d in dues]
    installments = [{"number": k + 1, "due_date": d.isoformat(), "amount": _money(a)}
                    for k, (d, a) in enumerate(zip(dues, amounts, strict=True))]
    as_of = FY_START + timedelta(days=rng.randint(0, 450))
    monthly = amounts[0]
    payments: list[dict[str, Any]] = []
    for k in range(rng.randint(0, count)):
        due = dues[min(k, count - 1)]
        kind = rng.random()
        if kind < 0.45:  # on time, in full
            day, amount = due + timedelta(days=rng.randint(0, 9)), monthly
        elif kind < 0.7:  # late
            day, amount = due + timedelta(days=rng.randint(9, 70)), monthly * rng.randint(1, 2)
        elif kind < 0.9:  # partial
            day = due + timedelta(days=rng.randint(0, 40))
            amount = (monthly * Decimal(rng.randint(10, 90)) / 100).quantize(CENT)
        else:  # a round sum at any time
            day = FY_START + timedelta(days=rng.randint(0, 420))
            amount = Decimal(rng.randint(1, 2000))
        pay: dict[str, Any] = {"date": day.isoformat(), "amount": _money(amount)}
        if rng.random() < 0.04:
            pay["reversed_on"] = (day + timedelta(days=rng.randint(0, 30))).isoformat()
        payments.append(pay)
    lump = rng.random() < 0.08
    if lump:  # a lump sum: in time or not, whole or short
        day = FY_START + timedelta(days=rng.randint(-20, 25))
        amount = annual - (annual * Decimal("0.02")).quantize(CENT) * rng.choice([1, 1, 0, 2])
        payments.insert(0, {"date": day.isoformat(), "amount": _money(amount),
                            "lump_sum": True})
    costs = [{"date": (FY_START + timedelta(days=rng.randint(20, 400))).isoformat(),
              "amount": _money(Decimal(rng.randint(300, 9000)).scaleb(-2)),
              "description": "certified mail"} for _ in range(rng.choice([0, 0, 0, 1, 2]))]
    rules: dict[str, Any] = {}
    if rng.random() < 0.2:
        rules["grace_day"] = rng.choice([5, 15, 20, 28, 31])
    if rng.random() < 0.2:
        rules["late_fee_base"] = "unpaid"
    if rng.random() < 0.2:
        rules["interest_rate"] = rng.choice(["0.06", "0.12", "0.18"])
    if rng.random() < 0.2:
        rules["late_fee_rate"] = rng.choice(["0.02", "0.10"])
    if rng.random() < (0.7 if lump else 0.1):
        rules["lump_sum_discount_rate"] = "0.02"
    if rng.random() < 0.25:  # the Board closes the office around day G of some month
        rules["closed_days"] = sorted({
            (_first_of_month(FY_START, rng.randint(0, 12)) + timedelta(days=rng.randint(6, 14))
             ).isoformat() for _ in range(rng.randint(1, 3))})
    data: dict[str, Any] = {"as_of": as_of.isoformat(), "installments": installments,
                            "payments": payments, "costs": costs, "rules": rules}
    if rng.random() < 0.05:
        data["adjustments"] = [{"date": (FY_START + timedelta(days=rng.randint(0, 400))
                                         ).isoformat(),
                                "amount": _money(monthly), "description": "correction"}]
    if rng.random() < 0.3:  # a refund of part of the credit the account has that day
        day = FY_START + timedelta(days=rng.randint(30, 440))
        if day <= as_of:
            credit = Decimal(naive_statement({**data, "as_of": day.isoformat()})["credit"])
            if credit > 0:
                data["refunds"] = [{"date": day.isoformat(),
                                    "amount": _money((credit / 2).quantize(CENT, ROUND_FLOOR))}]
    return data


def make_accounts(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [make_account(rng) for _ in range(n)]


def core_objects(data: dict[str, Any]) -> tuple[Any, ...]:
    """The same account as the core's own input objects (for evaluate and the tight loop)."""
    d = date.fromisoformat
    items = [Installment(i["number"], d(i["due_date"]), Decimal(i["amount"]))
             for i in data["installments"]]
    payments = [Payment(d(p["date"]), Decimal(p["amount"]), p.get("lump_sum", False),
                        d(p["reversed_on"]) if "reversed_on" in p else None)
                for p in data["payments"]]
    costs = [Cost(d(c["date"]), Decimal(c["amount"]), c["description"]) for c in data["costs"]]
    adjustments = [Adjustment(d(a["date"]), Decimal(a["amount"]), a["description"])
                   for a in data.get("adjustments", [])]
    refunds = [Refund(d(f["date"]), Decimal(f["amount"])) for f in data.get("refunds", [])]
    r = data["rules"]
    base = StatementRules()
    rules = StatementRules(
        grace_day=r.get("grace_day", base.grace_day),
        late_fee_rate=Decimal(r.get("late_fee_rate", base.late_fee_rate)),
        late_fee_base=r.get("late_fee_base", base.late_fee_base),
        interest_rate=Decimal(r.get("interest_rate", base.interest_rate)),
        lump_sum_discount_rate=Decimal(r.get("lump_sum_discount_rate",
                                             base.lump_sum_discount_rate)),
        closed_days=frozenset(d(x) for x in r.get("closed_days", [])))
    return d(data["as_of"]), items, payments, costs, rules, adjustments, refunds


def contract(result: dict[str, Any]) -> dict[str, Any]:
    """The contract's figures of a `statement` result (the core's output carries more)."""
    out = {k: result[k] for k in FIGURES}
    out["installments"] = [{k: i[k] for k in ("number", "status", "principal", "late_fee",
                                              "interest")} for i in result["installments"]]
    return out


def differences(data: dict[str, Any]) -> dict[str, Any]:
    """Where the naive reference and calc.run disagree on one account ({} when they agree)."""
    core = contract(calc.run("statement", data))
    naive = contract(naive_statement(data))
    diff = {k: {"core": core[k], "naive": naive[k]} for k in FIGURES if core[k] != naive[k]}
    for c, n in zip(core["installments"], naive["installments"], strict=True):
        if c != n:
            diff[f"installment {c['number']}"] = {"core": c, "naive": n}
    return diff


def agreement(accounts: list[dict[str, Any]], show: int = 3) -> tuple[int, int]:
    """How many accounts agree: (naive vs calc.run on every figure, tight loop vs evaluate on
    the payoff); prints the first few disagreements."""
    naive_ok = tight_ok = shown = 0
    for k, data in enumerate(accounts):
        diff = differences(data)
        as_of, items, pays, costs, rules, adjs, refunds = core_objects(data)
        core_payoff = evaluate(as_of, items, pays, costs, rules, adjustments=adjs,
                               refunds=refunds).payoff
        tight = tight_payoff(as_of, items, pays, costs, rules, adjs, refunds)
        if tight != core_payoff:
            diff["tight payoff"] = {"core": str(core_payoff), "tight": str(tight)}
        else:
            tight_ok += 1
        if not {k for k in diff if k != "tight payoff"}:
            naive_ok += 1
        if diff and shown < show:
            shown += 1
            print(f"account {k} disagrees: {diff}\n  input: {data}")
    return naive_ok, tight_ok


# --- the roll (R-A2, R-A3) ------------------------------------------------------------------

def make_roll(n: int, rng: random.Random) -> dict[str, Any]:
    parcels = []
    for k in range(n):
        owner = rng.choice(["private"] * 90 + ["authority"] * 7 + ["public"] * 3)
        p: dict[str, Any] = {"id": f"P{k:06d}", "benefit_units": str(
            Decimal(rng.randint(0, 5000)).scaleb(-2)), "owner": owner,
            "transferred": owner != "private" and rng.random() < 0.5,
            "tax_incentive_exempt": rng.random() < 0.05}
        if owner == "private" and k % 200 == 0:
            p["fixed_amount"] = _money(Decimal(rng.randint(50_000, 500_000)).scaleb(-2))
        parcels.append(p)
    return {"total": _money(Decimal(n * 1000) + Decimal("0.37")), "parcels": parcels}


def naive_roll(data: dict[str, Any]) -> dict[str, Any]:
    """R-A2 and R-A3 read directly: private (or transferred) parcels are assessed, an incentive
    exemption does not exempt; fixed amounts first, the rest by benefit units, each share
    floored to cents and the leftover cents to the largest remainders, ties by id."""
    assessable, exempt = [], []
    for p in data["parcels"]:
        (assessable if p["owner"] == "private" or p["transferred"] else exempt).append(p)
    shares = {p["id"]: Decimal(p["fixed_amount"]) for p in assessable if "fixed_amount" in p}
    rest_parcels = [p for p in assessable if "fixed_amount" not in p]
    rest = Decimal(data["total"]) - sum(shares.values(), Decimal(0))
    units = {p["id"]: Decimal(p["benefit_units"]) for p in rest_parcels}
    total_units = sum(units.values(), Decimal(0))
    exact = {i: rest * u / total_units for i, u in units.items()}
    floors = {i: x.quantize(CENT, ROUND_FLOOR) for i, x in exact.items()}
    left = int((rest - sum(floors.values(), Decimal(0))) / CENT)
    for i in sorted(floors, key=lambda i: (-(exact[i] - floors[i]), i))[:left]:
        floors[i] += CENT
    shares.update(floors)
    return {"assessments": {i: _money(a) for i, a in shares.items()},
            "exempt": [p["id"] for p in exempt]}


def roll_agrees(data: dict[str, Any]) -> bool:
    core = calc.run("assessment_roll", data)
    naive = naive_roll(data)
    return core["assessments"] == naive["assessments"] and \
        sorted(core["exempt"]) == sorted(naive["exempt"])


# --- timing ---------------------------------------------------------------------------------

def cpu(fn: Callable[[], object]) -> float:
    gc.collect()
    start = time.process_time()
    fn()
    return time.process_time() - start


def best_of(a: Callable[[], object], b: Callable[[], object], rounds: int = 3
            ) -> tuple[float, float]:
    """Best CPU seconds of each side over alternating rounds."""
    ta, tb = [], []
    for _ in range(rounds):
        ta.append(cpu(a))
        tb.append(cpu(b))
    return min(ta), min(tb)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--accounts", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--parcels", type=int, default=2_000, help="parcels in each roll")
    ap.add_argument("--rolls", type=int, default=10)
    ap.add_argument("--no-timing", action="store_true", help="only check the agreement")
    ap.add_argument("--profile", action="store_true",
                    help='cProfile calc.run("statement") on a tenth of the accounts')
    args = ap.parse_args(argv)

    accounts = make_accounts(args.accounts, args.seed)
    n = len(accounts)
    print(f"Python {sys.version.split()[0]}; {n:,} accounts (seed {args.seed}); "
          f"load average {load()} on {os.cpu_count()} CPUs")
    naive_ok, tight_ok = agreement(accounts)
    print(f"naive reference vs calc.run(\"statement\"): {naive_ok:,} of {n:,} agree on every "
          f"figure")
    print(f"tight loop vs statement.evaluate: {tight_ok:,} of {n:,} agree on the payoff")
    rng = random.Random(args.seed)
    rolls = [make_roll(args.parcels, rng) for _ in range(args.rolls)]
    roll_ok = sum(roll_agrees(r) for r in rolls)
    print(f"naive roll vs calc.run(\"assessment_roll\"): {roll_ok} of {len(rolls)} rolls of "
          f"{args.parcels:,} parcels agree")
    agreed = naive_ok == n and tight_ok == n and roll_ok == len(rolls)
    if args.no_timing:
        return 0 if agreed else 1

    objects = [core_objects(a) for a in accounts]

    def run_core() -> None:
        for a in accounts:
            calc.run("statement", a)

    def run_naive() -> None:
        for a in accounts:
            naive_statement(a)

    def run_evaluate() -> None:
        for as_of, items, pays, costs, rules, adjs, refunds in objects:
            evaluate(as_of, items, pays, costs, rules, adjustments=adjs, refunds=refunds)

    def run_tight() -> None:
        for as_of, items, pays, costs, rules, adjs, refunds in objects:
            tight_payoff(as_of, items, pays, costs, rules, adjs, refunds)

    print(f"\nCPU time, best of 3 alternating rounds (load average {load()}):")
    t_core, t_naive = best_of(run_core, run_naive)
    print(f"  calc.run(\"statement\") {1e6 * t_core / n:7.1f} µs/account, naive reference "
          f"{1e6 * t_naive / n:7.1f} µs: core speed {t_naive / t_core:.2f}x the oracle's "
          f"(target >= 1x)")
    t_eval, t_tight = best_of(run_evaluate, run_tight)
    print(f"  statement.evaluate   {1e6 * t_eval / n:7.1f} µs/account, tight loop      "
          f"{1e6 * t_tight / n:7.1f} µs: evaluate takes {t_eval / t_tight:.2f}x the loop "
          f"(target <= 2x)")
    t_roll, t_nroll = best_of(lambda: [calc.run("assessment_roll", r) for r in rolls],
                              lambda: [naive_roll(r) for r in rolls])
    parcels = args.parcels * len(rolls)
    print(f"  calc.run(\"assessment_roll\") {1e6 * t_roll / parcels:5.2f} µs/parcel, naive roll "
          f"{1e6 * t_nroll / parcels:5.2f} µs: core speed {t_nroll / t_roll:.2f}x the "
          f"oracle's (target >= 1x)")
    print(f"load average after the run: {load()}")

    if args.profile:
        prof = cProfile.Profile()
        part = accounts[: max(1, n // 10)]
        prof.enable()
        for a in part:
            calc.run("statement", a)
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(40)
        print(f"\n--- cProfile: calc.run(\"statement\") on {len(part):,} accounts ---")
        print(out.getvalue())
    return 0 if agreed else 1


if __name__ == "__main__":
    raise SystemExit(main())
