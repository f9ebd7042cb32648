"""A naive reference for the `statement` operation, written from RULES.md section D alone.

A direct reading of the rules in plain `Decimal`: no trace, no input validation (the input is
assumed valid), the same JSON input as `portal calc statement` and the contract's figures out
(money as strings with two decimals). It exists to keep the core honest and to measure it
against the arithmetic's limit (`bench/core_oracle_bench.py`); it is never used by the portal.

Also `tight_payoff`: a short Decimal loop over the core's own input objects that gives the
same `payoff` for the accounts the bench generates (installments, payments some late, partial,
reversed or lump sums, costs, closed days; no adjustments or refunds).
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Any

import holidays

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
DEFAULTS = {"grace_day": 10, "late_fee_rate": "0.05", "late_fee_base": "installment",
            "interest_rate": "0.10", "lump_sum_discount_rate": "0"}


def cents(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


@lru_cache(maxsize=64)
def _pr_holidays(year: int) -> frozenset[date]:
    # Conventions: the `holidays` calendar for US, subdivision PR, observed days included
    return frozenset(holidays.country_holidays("US", subdiv="PR", years=year, observed=True))


def roll(day: date, closed: frozenset[date]) -> date:
    """A last day on a weekend, a PR legal holiday or a declared closed day moves on."""
    while day.weekday() >= 5 or day in _pr_holidays(day.year) or day in closed:
        day += timedelta(days=1)
    return day


@lru_cache(maxsize=4096)
def day_g(due: date, grace: int, closed: frozenset[date]) -> date:
    """R-A6: day G of the due month (its last day if G is beyond it; the due date itself for
    an installment due after day G), rolled over."""
    last = calendar.monthrange(due.year, due.month)[1]
    g = date(due.year, due.month, min(grace, last))
    return roll(max(g, due), closed)


def _d(s: Any) -> date:
    return date.fromisoformat(s)


def _m(s: Any) -> Decimal:
    return Decimal(str(s))


def statement(data: dict[str, Any]) -> dict[str, Any]:
    as_of = _d(data["as_of"])
    r = {**DEFAULTS, **data.get("rules", {})}
    closed = frozenset(_d(x) for x in [*r.get("closed_days", []), *data.get("closed_days", [])])
    grace, base = int(r["grace_day"]), r["late_fee_base"]
    fee_rate, rate = _m(r["late_fee_rate"]), _m(r["interest_rate"])
    disc_rate = _m(r["lump_sum_discount_rate"])

    # R-A4: the installments, each with what is still owed on it
    inst = [{"number": int(i["number"]), "due": _d(i["due_date"]), "amount": _m(i["amount"]),
             "principal": _m(i["amount"]), "fee": ZERO, "S": Decimal(0), "int_paid": ZERO,
             "delinquent": False, "since": None} for i in data["installments"]]
    for i in inst:
        i["G"] = day_g(i["due"], grace, closed)
    due_order = sorted(inst, key=lambda i: (i["due"], i["number"]))
    number_order = sorted(inst, key=lambda i: i["number"])
    annual = _m(data["annual"]) if "annual" in data else sum((i["amount"] for i in inst), ZERO)
    first = min(inst, key=lambda i: i["number"])["due"] if inst else as_of
    deadline = roll(_d(r["lump_sum_deadline"]) if r.get("lump_sum_deadline") else first, closed)

    # the facts dated on or before as_of; a payment reversed on or before as_of never came
    payments = [p for p in data.get("payments", []) if _d(p["date"]) <= as_of
                and not (p.get("reversed_on") and _d(p["reversed_on"]) <= as_of)]
    costs = [{"date": _d(c["date"]), "amount": _m(c["amount"]), "owed": _m(c["amount"])}
             for c in data.get("costs", []) if _d(c["date"]) <= as_of]
    adjustments = [a for a in data.get("adjustments", []) if _d(a["date"]) <= as_of]
    refunds = [f for f in data.get("refunds", []) if _d(f["date"]) <= as_of]
    acct = {"credit": ZERO, "discount": ZERO, "principal_paid": False}
    added: list[dict[str, Any]] = []  # the costs added so far, oldest first

    def interest_owed(i: dict[str, Any]) -> Decimal:
        # R-A8: rounded only as a total, less the interest already paid on it
        return cents(rate * i["S"] / 365) - i["int_paid"]

    def accrue(day: date) -> None:
        # R-A8: simple interest on the principal unpaid each day, from the due date
        for i in inst:
            if i["delinquent"] and i["principal"] > 0:
                i["S"] += i["principal"] * (day - i["since"]).days
            if i["delinquent"]:
                i["since"] = day

    def apply(amount: Decimal, by_number: bool = False) -> tuple[Decimal, bool]:
        """R-A10: interest, late fees, costs, delinquent principal, then the principal of
        installments not yet delinquent; what is left is credit. Returns (left, principal
        paid?)."""
        paid_principal = False
        for i in due_order:
            take = min(amount, interest_owed(i))
            i["int_paid"] += take
            amount -= take
        for i in due_order:
            take = min(amount, i["fee"])
            i["fee"] -= take
            amount -= take
        for c in added:
            take = min(amount, c["owed"])
            c["owed"] -= take
            amount -= take
        later = [i for i in (number_order if by_number else due_order) if not i["delinquent"]]
        for i in [i for i in due_order if i["delinquent"]] + later:
            take = min(amount, i["principal"])
            if take > 0:
                paid_principal = True
            i["principal"] -= take
            amount -= take
        return amount, paid_principal

    def owed_now() -> Decimal:
        return (sum((interest_owed(i) + i["fee"] + i["principal"] for i in inst), ZERO)
                + sum((c["owed"] for c in added), ZERO))

    days = sorted({as_of} | {c["date"] for c in costs} | {_d(a["date"]) for a in adjustments}
                  | {_d(p["date"]) for p in payments} | {_d(f["date"]) for f in refunds}
                  | {i["G"] for i in inst if i["G"] < as_of})
    for day in days:
        # costs dated that day are added; any credit is applied to them as a payment
        for c in costs:
            if c["date"] == day:
                added.append(c)
                if acct["credit"] > 0:
                    accrue(day)
                    acct["credit"], _ = apply(acct["credit"])
        # adjustments: like a payment, with any credit; not principal paid for R-A11
        for a in adjustments:
            if _d(a["date"]) == day:
                accrue(day)
                acct["credit"], _ = apply(_m(a["amount"]) + acct["credit"])
        # payments in input order, each after accruing interest
        for p in payments:
            if _d(p["date"]) != day:
                continue
            accrue(day)
            amount = _m(p["amount"])
            by_number = False
            if p.get("lump_sum") and day <= deadline and not acct["principal_paid"] \
                    and acct["discount"] == 0:
                # R-A11: it must cover interest, fees, costs and the principal left (at most
                # the annual amount) less the discount and any credit
                discount = cents(disc_rate * annual)
                principal_left = sum((i["principal"] for i in inst), ZERO)
                others = owed_now() - principal_left
                if amount >= others + min(principal_left, annual) - discount - acct["credit"]:
                    acct["discount"] = discount
                    by_number = True
                    for i in number_order:  # the discount reduces principal from number 1
                        take = min(discount, i["principal"])
                        i["principal"] -= take
                        discount -= take
            left, paid_principal = apply(amount, by_number)
            acct["credit"] += left
            acct["principal_paid"] = acct["principal_paid"] or paid_principal
        # refunds come out of the credit after the day's payments
        for f in refunds:
            if _d(f["date"]) == day:
                acct["credit"] -= _m(f["amount"])
        # the grace day closes (never on as_of itself): R-A6, R-A7
        if day < as_of:
            for i in due_order:
                if i["G"] == day and i["principal"] > 0:
                    i["delinquent"] = True
                    i["since"] = i["due"]
                    fee_base = i["amount"] if base == "installment" else i["principal"]
                    i["fee"] += cents(fee_rate * fee_base)
    accrue(as_of)

    out_inst = []
    sums = {"delinquent": ZERO, "due": ZERO, "upcoming": ZERO, "paid": ZERO}
    for i in due_order:  # listed in due order
        interest = interest_owed(i)
        if interest + i["fee"] + i["principal"] == 0:
            status = "paid"
        elif i["due"] > as_of:
            status = "upcoming"
        elif i["G"] < as_of:
            status = "delinquent"
        else:
            status = "due"
        sums[status] += i["principal"]
        out_inst.append({"number": i["number"], "status": status,
                         "principal": f"{i['principal']:.2f}", "late_fee": f"{i['fee']:.2f}",
                         "interest": f"{interest:.2f}"})
    interest = sum((interest_owed(i) for i in inst), ZERO)
    fees = sum((i["fee"] for i in inst), ZERO)
    cost_sum = sum((c["owed"] for c in added), ZERO)
    now = interest + fees + cost_sum + sums["delinquent"] + sums["due"] - acct["credit"]
    payoff = now + sums["upcoming"]
    figures = {"interest": interest, "late_fees": fees, "costs": cost_sum,
               "delinquent_principal": sums["delinquent"], "due_principal": sums["due"],
               "upcoming_principal": sums["upcoming"], "discount": acct["discount"],
               "credit": acct["credit"], "total_due_now": max(now, ZERO),
               "payoff": max(payoff, ZERO)}
    return {**{k: f"{v:.2f}" for k, v in figures.items()}, "installments": out_inst}



def tight_payoff(as_of: date, items: Any, payments: Any, costs: Any, rules: Any,
                 adjustments: Any = (), refunds: Any = ()) -> Decimal:
    """The same payoff as `statement` by a tight loop over the core's input objects (for
    installments whose due-date order is their number order, as a notified schedule's is)."""
    inst = sorted(items, key=lambda i: (i.due_date, i.number))
    n, closed, rate, end = len(inst), rules.closed_days, rules.interest_rate, as_of.toordinal()
    prin, fee, paid, s, since = [i.amount for i in inst], [ZERO] * n, [ZERO] * n, [0] * n, [0] * n
    late: list[int] = []  # the delinquent installments, in due order
    ev = [(p.date.toordinal(), 2, k, p) for k, p in enumerate(payments) if p.date <= as_of
          and not (p.reversed_on and p.reversed_on <= as_of)]
    ev += [(c.date.toordinal(), 0, k, c) for k, c in enumerate(costs) if c.date <= as_of]
    ev += [(a.date.toordinal(), 1, k, a) for k, a in enumerate(adjustments) if a.date <= as_of]
    ev += [(f.date.toordinal(), 3, k, f) for k, f in enumerate(refunds) if f.date <= as_of]
    ev += [(g, 4, k, None) for k, i in enumerate(inst)
           if (g := day_g(i.due_date, rules.grace_day, closed).toordinal()) < end]
    ev.sort()
    ev.append((end, 5, 0, None))
    costs_owed: list[Decimal] = []
    credit, discount, principal_paid = ZERO, ZERO, False
    for day, kind, k, x in ev:
        if kind == 4:  # the grace day closes with principal left: delinquent, late fee
            if prin[k]:
                late.append(k)
                since[k] = inst[k].due_date.toordinal()
                fee[k] = cents(rules.late_fee_rate * (
                    inst[k].amount if rules.late_fee_base == "installment" else prin[k]))
        elif kind == 3:
            credit -= x.amount
        else:
            for j in late:  # accrue interest up to the day
                s[j] += prin[j] * (day - since[j])
                since[j] = day
            if kind == 5:
                break
            amt = x.amount if kind == 2 else x.amount + credit if kind == 1 else credit
            if kind == 0:
                costs_owed.append(x.amount)
            if kind < 2:
                credit = ZERO
            if kind == 2 and x.lump_sum and x.date <= roll(
                    rules.lump_sum_deadline or min(items, key=lambda i: i.number).due_date,
                    closed) and not principal_paid and not discount:
                d = cents(rules.lump_sum_discount_rate * sum(i.amount for i in inst))
                owed = sum(cents(rate * s[j] / 365) - paid[j] + fee[j] for j in late)
                if amt >= owed + sum(costs_owed) + sum(prin) - d - credit:
                    discount = d
                    for j in range(n):
                        prin[j], d = prin[j] - min(d, prin[j]), d - min(d, prin[j])
            for j in late:
                take = min(amt, cents(rate * s[j] / 365) - paid[j])
                paid[j], amt = paid[j] + take, amt - take
            for j in late:
                take = min(amt, fee[j])
                fee[j], amt = fee[j] - take, amt - take
            for j, owed in enumerate(costs_owed):
                take = min(amt, owed)
                costs_owed[j], amt = owed - take, amt - take
            for j in late + [j for j in range(n) if not since[j]]:
                if not amt:
                    break
                take = min(amt, prin[j])
                prin[j], amt = prin[j] - take, amt - take
                principal_paid = principal_paid or (kind == 2 and take > 0)
            credit += amt
    owed = sum(cents(rate * s[j] / 365) - paid[j] for j in late) + sum(fee) + sum(prin)
    return max(owed + sum(costs_owed, ZERO) - credit, ZERO)
