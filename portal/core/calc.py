"""The calculation interface of docs/rules/D-calc-contract.md: JSON in, JSON out.

`run(name, data)` takes the parsed input object and returns the output object; the command
`portal calc NAME < input.json` is a thin wrapper around it (portal/cli.py). Outputs carry the
contract's keys, money as two-decimal strings, and a `trace` (rule ids and the explanation in
Spanish and English).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from portal.core import deadlines as dl
from portal.core.allocation import allocate, assessment_roll
from portal.core.attachment import (
    Accrual,
    attachment_notice,
    dunning_fee,
    sale_stop,
    sale_stop_from,
)
from portal.core.auction import BUYERS, auction_minimum, shortfall_after_sale
from portal.core.collection import Demand
from portal.core.collection_timeline import timeline as collection_timeline
from portal.core.errors import InputError
from portal.core.exemption import (
    KINSHIP,
    OCCUPANTS,
    TEMPORARY_ABSENCE_REASONS,
    ZONES,
    Eligibility,
    ExemptionInput,
    eligibility,
    residential_exemption,
)
from portal.core.exemption_changes import REPORT_KINDS as CHANGE_KINDS
from portal.core.exemption_changes import (
    ChangeFacts,
    change_outcome,
    fiscal_year_label,
    revocation,
)
from portal.core.explain import N_, Trace
from portal.core.inputs import (
    BAD,
    MISSING,
    Reader,
    Records,
    parse_decimal,
    plain_date,
    plain_money,
    plain_text,
)
from portal.core.installments import Installment, amend, explain_schedule, schedule
from portal.core.lender import CASES, lender_escrow
from portal.core.liens import KINDS as LIEN_KINDS
from portal.core.liens import Lien, lien_order
from portal.core.money import ZERO, fmt
from portal.core.offer import Account, demand_stop, lump_sum_quote
from portal.core.payment_plan import plan_status
from portal.core.payment_plan import schedule as plan_schedule
from portal.core.payoff_certificate import year_figures
from portal.core.roll_input import lean_roll, lean_roll_json, read_parcels
from portal.core.statement import (
    Adjustment,
    Cost,
    Payment,
    Refund,
    Statement,
    StatementRules,
    evaluate,
    interest_per_day,
)

ONE = Decimal(1)
Operation = Callable[[Reader], dict[str, Any]]
OPERATIONS: dict[str, tuple[Operation, str]] = {}


def operation(name: str, summary: str) -> Callable[[Operation], Operation]:
    def register(fn: Operation) -> Operation:
        OPERATIONS[name] = (fn, summary)
        return fn
    return register


def run(name: str, data: Any) -> dict[str, Any]:
    """Run operation `name` on a parsed JSON object; raises CalcError (with its field)."""
    if name not in OPERATIONS:
        raise InputError(f"unknown operation {name!r}; one of: {', '.join(OPERATIONS)}",
                         field="NAME")
    reader = Reader(data)
    result = OPERATIONS[name][0](reader)
    reader.done()
    return result


def run_json(name: str, text: str) -> str:
    try:
        data = json.loads(text, parse_float=Decimal)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InputError(f"malformed JSON: {getattr(exc, 'msg', exc)}", field="input") from None
    try:
        result = run(name, data)
    except InvalidOperation:  # a safety net: the inputs' own bounds should come first
        raise InputError("the numbers are too large to compute to the cent",
                         field="input") from None
    return json.dumps(result, ensure_ascii=False, indent=2)


def _closed(r: Reader) -> frozenset[date]:
    return frozenset(r.dates("closed_days"))


def _trace(t: Trace) -> dict[str, Any]:
    return t.to_json()


# --- A. District benefit assessments ------------------------------------------------------

@operation("allocate", "R-A3: split a total in proportion to benefit units, exact to the cent")
def _allocate(r: Reader) -> dict[str, Any]:
    total = r.money("total")
    raw = r.mapping("weights")
    weights = {str(k): parse_decimal(v, f"weights.{k}") for k, v in raw.items()}
    shares = allocate(total, weights)
    t = Trace()
    t.add("R-A3", N_("{total} shared over {n} parcels in proportion to their benefit units; "
                     "leftover cents go to the largest remainders."), total=total, n=len(shares))
    return {"shares": {k: fmt(v) for k, v in shares.items()}, "trace": _trace(t)}


@operation("assessment_roll", "R-A2, R-A3: the amount on every assessable parcel")
def _roll(r: Reader) -> dict[str, Any]:
    lean = lean_roll(r)  # plainly valid input by column; anything else: the full validator
    if lean is not None:
        return lean_roll_json(lean)
    total = r.money("total")
    roll = assessment_roll(total, read_parcels(r))
    return {"assessments": {k: fmt(v) for k, v in roll.assessments.items()},
            "exempt": roll.exempt, "trace": _trace(roll.trace)}


def _installment_out(i: Installment, paid_key: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"number": i.number, "due_date": i.due_date.isoformat(),
                           "amount": fmt(i.amount)}
    if paid_key:
        out["paid"] = i.paid
    return out


@operation("installments", "R-A4: equal monthly installments due on the 1st")
def _installments(r: Reader) -> dict[str, Any]:
    annual = r.money("annual")
    start = r.date("fiscal_year_start")
    count = r.integer("count", 12, minimum=1)
    if count > 120:
        raise InputError("must be at most 120", field="count")
    notice = r.date("notice_date", None)
    items = schedule(annual, start, count, notice)
    return {"installments": [_installment_out(i) for i in items],
            "trace": _trace(explain_schedule(annual, items, notice))}


COST = Records(("date", plain_date, MISSING), ("amount", plain_money, MISSING),
               ("description", plain_text, ""))
REFUND = Records(("date", plain_date, MISSING), ("amount", plain_money, MISSING))
_new_tuple = tuple.__new__


_INSTALLMENT_KEYS = frozenset(("number", "due_date", "amount", "paid"))
_PAYMENT_KEYS = frozenset(("date", "amount", "lump_sum", "reversed_on"))


def _plain_installments(raw: Any) -> tuple[list[Installment], bool] | None:
    """The installments in one pass when every one is in the usual valid form (the common
    case: an integer number, a date and an amount as texts, `paid` true or false); None for
    anything else, which the full reader then accepts or names."""
    if raw.__class__ is not list:
        return None
    items = []
    numbers = set()
    any_paid_key = False
    for x in raw:
        if x.__class__ is not dict or not x.keys() <= _INSTALLMENT_KEYS:
            return None
        number = x.get("number")
        due, amount, paid = plain_date(x.get("due_date")), plain_money(x.get("amount")), False
        if "paid" in x:
            any_paid_key = True
            paid = x["paid"]
            if paid is None:
                paid = False
            elif paid.__class__ is not bool:
                return None
        if (number.__class__ is not int or number < 1 or number in numbers or due is BAD
                or amount is BAD):
            return None
        numbers.add(number)
        items.append(_new_tuple(Installment, (number, due, amount, paid)))
    return items, any_paid_key


def _plain_payments(raw: Any) -> list[Payment] | None:
    """The payments in one pass when every one is in the usual valid form; else None."""
    if raw.__class__ is not list:
        return None
    payments = []
    for x in raw:
        if x.__class__ is not dict or not x.keys() <= _PAYMENT_KEYS:
            return None
        day, amount = plain_date(x.get("date")), plain_money(x.get("amount"))
        lump, back = x.get("lump_sum"), x.get("reversed_on")
        if lump is None:
            lump = False
        elif lump.__class__ is not bool:
            return None
        if back is not None:
            back = plain_date(back)
            if back is BAD or day is not BAD and back < day:
                return None
        if day is BAD or amount is BAD:
            return None
        payments.append(Payment(day, amount, lump, back))
    return payments


def _read_installments(r: Reader, name: str = "installments") -> tuple[list[Installment], bool]:
    plain = _plain_installments(r.value(name))  # the usual valid list in one pass, else:
    if plain is not None:
        return plain
    items = []
    any_paid_key = False
    numbers = set()
    for x in r.objects(name):
        number = x.integer("number", minimum=1)
        if number in numbers:
            raise InputError(f"installment number {number} appears twice", field=x.field("number"))
        numbers.add(number)
        any_paid_key = any_paid_key or "paid" in x.data
        items.append(Installment(number, x.date("due_date"), x.money("amount"),
                                 x.boolean("paid", False)))
        x.done()
    return items, any_paid_key


@operation("amend_installments", "R-A5: spread an amended annual amount over unpaid installments")
def _amend(r: Reader) -> dict[str, Any]:
    items, paid_key = _read_installments(r)
    result = amend(items, r.money("new_annual"), r.date("effective_date"))
    return {"installments": [_installment_out(i, paid_key) for i in result.installments],
            "credit": fmt(result.credit), "trace": _trace(result.trace)}


_RULE_NAMES = ("grace_day", "late_fee_rate", "late_fee_base", "interest_rate",
               "lump_sum_discount_rate", "lump_sum_deadline", "closed_days")
_RULE_KEYS = frozenset(_RULE_NAMES)
_RULES: dict[tuple[Any, ...], StatementRules] = {}  # the rules already read, by their input


def _rules(r: Reader) -> StatementRules:
    """The statement's rules (`rules` and `closed_days`); the same input, remembered, gives
    the same rules without reading it again (accounts of a district share a few)."""
    raw, top = r.data.get("rules"), r.data.get("closed_days")
    key = _rules_key(raw, top)
    rules = _RULES.get(key) if key is not None else None
    if rules is not None:
        r.seen.update(("rules", "closed_days"))
        return rules
    rules = _read_rules(r)
    if key is not None:
        if len(_RULES) >= 1024:
            _RULES.clear()
        _RULES[key] = rules
    return rules


def _rules_key(raw: Any, top: Any) -> tuple[Any, ...] | None:
    """The rules' input as a key: its items as given, then the top-level `closed_days`, each
    value with its type (1 and True are equal keys, but only 1 is a grace day); None if it
    holds anything but texts, numbers or lists of texts. (The same rules written in another
    order, or with a null for a missing rule, are another key for the same rules.)"""
    if raw is None:
        raw = {}
    if raw.__class__ is not dict or not raw.keys() <= _RULE_KEYS:
        return None
    key: list[Any] = []
    for name, v in (*raw.items(), ("", top)):  # ("": no rule's name)
        cls = v.__class__
        if cls is list:
            if not all(x.__class__ is str for x in v):
                return None
            key.append((name, list, *v))
        elif v is None or cls is str or cls is int:
            key.append((name, cls, v))
        else:
            return None
    return tuple(key)


def _read_rules(r: Reader) -> StatementRules:
    x = r.obj("rules", {})
    closed = frozenset(x.dates("closed_days")) | _closed(r)
    d = StatementRules()  # section D: rules missing take the defaults of R-A6 to R-A11
    rules = StatementRules(
        grace_day=x.integer("grace_day", d.grace_day, minimum=1),
        late_fee_rate=x.decimal("late_fee_rate", d.late_fee_rate, maximum=ONE),
        late_fee_base=x.string("late_fee_base", d.late_fee_base,
                               choices=("installment", "unpaid")),
        interest_rate=x.decimal("interest_rate", d.interest_rate, maximum=ONE),
        lump_sum_discount_rate=x.decimal("lump_sum_discount_rate", d.lump_sum_discount_rate,
                                         maximum=ONE),
        lump_sum_deadline=x.date("lump_sum_deadline", d.lump_sum_deadline),
        closed_days=closed)
    if rules.grace_day > 31:
        raise InputError("must be at most 31", field="rules.grace_day")
    x.done()
    return rules


def read_statement_facts(r: Reader) -> tuple[list[Payment], list[Cost], list[Adjustment],
                                             list[Refund]]:
    """The `statement` input's payments (with `reversed_on`), costs, adjustments and refunds
    (docs/rules/D-calc-contract.md). Each list in one pass when it is in the usual valid form,
    else read in full, which names the error."""
    payments = _plain_payments(r.value("payments", []))
    if payments is None:
        payments = _read_payments(r)
    rows = r.records("costs", COST, [])
    costs = [Cost(*row) for row in rows] if rows is not None else _read_costs(r, "costs", Cost)
    rows = r.records("adjustments", COST, [])
    adjustments = ([Adjustment(*row) for row in rows] if rows is not None
                   else _read_costs(r, "adjustments", Adjustment))
    rows = r.records("refunds", REFUND, [])
    refunds = [Refund(*row) for row in rows] if rows is not None else _read_refunds(r)
    return payments, costs, adjustments, refunds


def _read_payments(r: Reader) -> list[Payment]:
    payments = []
    for p in r.objects("payments", []):
        pay = Payment(p.date("date"), p.money("amount"), p.boolean("lump_sum", False),
                      p.date("reversed_on", None))
        if pay.reversed_on is not None and pay.reversed_on < pay.date:
            raise InputError("must not be before the payment's date",
                             field=p.field("reversed_on"))
        payments.append(pay)
        p.done()
    return payments


def _read_costs(r: Reader, name: str, kind: type[Cost] | type[Adjustment]
                ) -> list[Cost] | list[Adjustment]:
    costs = []
    for c in r.objects(name, []):
        costs.append(kind(c.date("date"), c.money("amount"), c.string("description", "")))
        c.done()
    return costs


def _read_refunds(r: Reader) -> list[Refund]:
    refunds = []
    for f in r.objects("refunds", []):
        refunds.append(Refund(f.date("date"), f.money("amount")))
        f.done()
    return refunds


@operation("statement", "R-A4 to R-A11: what an account owes as of a date, and why")
def _statement(r: Reader) -> dict[str, Any]:
    as_of = r.date("as_of")
    items, _ = _read_installments(r)
    payments, costs, adjustments, refunds = read_statement_facts(r)
    rules = _rules(r)
    annual = r.money("annual") if r.has("annual") else None
    r.seen.add("annual")
    st = evaluate(as_of, items, payments, costs, rules, annual, adjustments=adjustments,
                  refunds=refunds)
    out = statement_figures(st)
    out["trace"] = _trace(st.trace())
    return out


def statement_figures(st: Statement) -> dict[str, Any]:
    """The `statement` output but its trace: the figures, installments and applications."""
    return {
        "interest": fmt(st.interest), "late_fees": fmt(st.late_fees), "costs": fmt(st.costs),
        "delinquent_principal": fmt(st.delinquent_principal),
        "due_principal": fmt(st.due_principal), "upcoming_principal": fmt(st.upcoming_principal),
        "discount": fmt(st.discount), "credit": fmt(st.credit),
        "total_due_now": fmt(st.total_due_now), "payoff": fmt(st.payoff),
        "installments": [{"number": i.number, "status": i.status, "principal": fmt(i.principal),
                          "late_fee": fmt(i.late_fee), "interest": fmt(i.interest)}
                         for i in st.installments],
        "lump_sum_deadline": st.lump_sum_deadline.isoformat() if st.lump_sum_deadline else None,
        "applications": [{
            "payment": a.payment, "adjustment": a.adjustment, "date": a.date.isoformat(),
            "amount": fmt(a.amount), "lump_sum": a.lump_sum,
            "lines": [{"kind": kind, "amount": fmt(amount), "installment": installment,
                       "cost": cost, "rule": rule}
                      for kind, amount, installment, cost, rule in a.lines]}
            for a in st.applications],
    }


@operation("collection_timeline",
           "R-A6, A12, A13, A17, A18: each collection step's date and what stops the next")
def _collection_timeline(r: Reader) -> dict[str, Any]:
    as_of = r.date("as_of")
    items, _ = _read_installments(r)
    payments, costs, adjustments, refunds = read_statement_facts(r)
    rules = _rules(r)
    demand = None
    if r.has("demand"):
        d = r.obj("demand")
        demand = Demand(d.date("mailed_on"), d.money("amount", ZERO),
                        d.date("acknowledged_on", None))
        d.done()
    r.seen.add("demand")
    account = Account("calc", "calc", "calc", "", items, payments, costs, rules,
                      adjustments=adjustments, refunds=refunds)
    tl = collection_timeline(account, as_of, notified_on=r.date("notified_on", None),
                             demand=demand, queued_on=r.date("queued_on", None),
                             claimed_on=r.date("claimed_on", None))
    n = tl.next
    return {
        "stage": tl.stage,
        "steps": [{"step": s.key, "date": s.on.isoformat() if s.on else None, "done": s.done,
                   "rule": s.rule} for s in tl.steps],
        "next": None if n is None else {
            "step": n.step, "amount": fmt(n.amount),
            "by": n.by.isoformat() if n.by else None, "rule": n.rule},
        "trace": _trace(tl.trace()),
    }


def _account(r: Reader) -> Account:
    """The facts of `statement`'s input (without `as_of`) as the core's account."""
    items, _ = _read_installments(r)
    payments, costs, adjustments, refunds = read_statement_facts(r)
    rules = _rules(r)
    annual = r.money("annual") if r.has("annual") else None
    r.seen.add("annual")
    return Account("calc", "calc", "calc", "", items, payments, costs, rules, annual,
                   adjustments=adjustments, refunds=refunds)


def _in_order(r: Reader, first: str, later: str) -> tuple[date, date]:
    """Two dates of the input, the `later` one not before the `first` (an input error naming
    `later`)."""
    a, b = r.date(first), r.date(later)
    if b < a:
        raise InputError(f"must not be before {first}", field=later)
    return a, b


def _demand(r: Reader, required: bool) -> Demand | None:
    """`demand` {`mailed_on`} (section D): the demand mailed, by certified mail (R-A12)."""
    if not required and not r.has("demand"):
        r.seen.add("demand")
        return None
    d = r.obj("demand")
    demand = Demand(d.date("mailed_on"), ZERO)
    d.done()
    return demand


@operation("demand_stop", "R-A13, R-A17, R-A18: what a demand listed and the amount that, "
                          "paid on a day or on its last day, stops the court claim")
def _demand_stop(r: Reader) -> dict[str, Any]:
    as_of = r.date("as_of")
    account = _account(r)
    demand = _demand(r, required=True)
    assert demand is not None
    if as_of < demand.mailed_on:
        raise InputError("must not be before the demand's mailing (demand.mailed_on)",
                         field="as_of")
    st = account.statement(as_of)
    stop = demand_stop(account, as_of, demand, today=st)
    t = stop.trace()
    return {"last_day": stop.last_day.isoformat(),
            "court_claim_from": stop.court_claim_from.isoformat(),
            "demanded": list(stop.demanded), "stop_amount": fmt(stop.today),
            "stop_amount_on_last_day": fmt(stop.by_last_day) if as_of <= stop.last_day
            else None,
            "stage": stop.stage, "interest_per_day": fmt(interest_per_day(st)),
            "trace": _trace(t)}


@operation("payoff_certificate", "R-A19, R-A8, R-A13: a payoff certificate's figures, good "
                                 "through a date")
def _payoff_certificate(r: Reader) -> dict[str, Any]:
    issued_on, good_through = _in_order(r, "issued_on", "good_through")
    account = _account(r)
    demand = _demand(r, required=False)
    if demand is not None and demand.mailed_on > issued_on:
        raise InputError("must not be after issued_on", field="demand.mailed_on")
    y = year_figures(account, issued_on, good_through, demand=demand)
    c = y.collection
    t = Trace()
    t.add("R-A19", N_("Good through {through}: {payoff} pays the account off, {total} of it "
                      "due by then, with interest to that day and {per_day} for each day "
                      "after it."), through=good_through, payoff=y.payoff, total=y.total_due,
          per_day=y.interest_per_day)
    return {"delinquent_principal": fmt(y.delinquent_principal),
            "due_principal": fmt(y.due_principal), "late_fees": fmt(y.late_fees),
            "interest": fmt(y.interest), "interest_per_day": fmt(y.interest_per_day),
            "costs": fmt(y.costs), "credit": fmt(y.credit), "total_due": fmt(y.total_due),
            "upcoming_principal": fmt(y.upcoming_principal), "upcoming_count": y.upcoming_count,
            "next_due": y.next_due.isoformat() if y.next_due else None,
            "payoff": fmt(y.payoff),
            "collection": None if c is None else {
                "stage": c.stage, "last_day": c.last_day.isoformat(),
                "court_claim_from": c.court_claim_from.isoformat()},
            "trace": _trace(t)}


@operation("lump_sum_quote", "R-A11: the discounted lump sum, if still available")
def _lump(r: Reader) -> dict[str, Any]:
    q = lump_sum_quote(r.money("annual"), r.decimal("discount_rate", maximum=ONE),
                       r.date("deadline"), r.date("on"), r.money("principal_paid", ZERO),
                       _closed(r))
    return {"eligible": q.eligible, "discount": fmt(q.discount), "amount_due": fmt(q.amount_due),
            "deadline": q.deadline.isoformat(), "reason": q.reason, "trace": _trace(q.trace)}


# --- B. Residential exemption --------------------------------------------------------------

def _exemption_input(r: Reader) -> ExemptionInput:
    return ExemptionInput(
        valuation=r.money("valuation"), tax_rate=r.decimal("tax_rate", maximum=ONE),
        residential_fraction=r.decimal("residential_fraction", ONE, maximum=ONE),
        residential_valuation=(r.money("residential_valuation")
                               if r.has("residential_valuation") else None),
        veteran_exemption=r.money("veteran_exemption", ZERO),
        unit_share=r.decimal("unit_share", ONE, maximum=ONE),
        zone=r.string("zone", "urban", choices=ZONES),
        land_valuation=r.money("land_valuation", ZERO),
        land_area_cuerdas=r.decimal("land_area_cuerdas", Decimal(0)),
        residential_cap=r.money("residential_cap", Decimal("15000")))


@operation("residential_exemption", "R-B1 to R-B4, R-B7: exempt valuation and property tax")
def _exemption(r: Reader) -> dict[str, Any]:
    x = _exemption_input(r)
    r.seen.add("residential_valuation")
    res = residential_exemption(x)
    return {"exempt_valuation": fmt(res.exempt_valuation),
            "taxable_valuation": fmt(res.taxable_valuation), "gross_tax": fmt(res.gross_tax),
            "exemption_amount": fmt(res.exemption_amount),
            "veteran_exemption_amount": fmt(res.veteran_exemption_amount),
            "net_tax": fmt(res.net_tax), "trace": _trace(res.trace)}


@operation("exemption_eligibility", "R-B6, R-B7, R-B8, R-B11: whether a home qualifies "
                                   "(who lives there, the owner's family, rent), and why not")
def _eligibility(r: Reader) -> dict[str, Any]:
    occupant = r.string("occupant", "owner", choices=OCCUPANTS)
    relationship = (r.string("family_relationship", choices=tuple(KINSHIP))
                    if occupant == "family" else None)
    r.seen.add("family_relationship")
    absence = r.string("temporary_absence_reason", "", choices=("",) + TEMPORARY_ABSENCE_REASONS)
    res = eligibility(Eligibility(
        used_as_home_on_jan_1=r.boolean("used_as_home_on_jan_1", True),
        rent_received=r.boolean("rent_received", False),
        new_structure_available_to_buyer=r.boolean("new_structure_available_to_buyer", False),
        temporary_absence_reason=absence or None,
        other_exemption_elsewhere=r.boolean("other_exemption_elsewhere", False),
        owes_property_tax_jan_1=r.boolean("owes_property_tax_jan_1", False),
        payment_plan_filed_in_time=r.boolean("payment_plan_filed_in_time", False),
        payment_plan_approved=r.boolean("payment_plan_approved", False),
        occupant=occupant, family_relationship=relationship))
    t = Trace()
    for rule, message in res.reasons:
        t.add(rule, message)
    return {"eligible": res.eligible, "reasons": [rule for rule, _m in res.reasons],
            "trace": _trace(t)}


@operation("lender_escrow", "R-B10: what the mortgage lender pays or retains")
def _escrow(r: Reader) -> dict[str, Any]:
    case = r.string("case", choices=CASES)
    rate = r.decimal("prepayment_discount_rate", Decimal(0), maximum=ONE)
    if case == "billed_with_exemption":
        res = lender_escrow(case, prepayment_discount_rate=rate, net_tax=r.money("net_tax"))
    elif case == "billed_without_exemption":
        res = lender_escrow(case, prepayment_discount_rate=rate, gross_tax=r.money("gross_tax"),
                            exemption_amount=r.money("exemption_amount"),
                            veteran_exemption_amount=r.money("veteran_exemption_amount", ZERO))
    else:
        x = _exemption_input(r)
        r.seen.add("residential_valuation")
        res = lender_escrow(case, prepayment_discount_rate=rate, structure=x)
    return {"amount": fmt(res.amount), "discount": fmt(res.discount), "trace": _trace(res.trace)}


@operation("change_report", "R-B5, R-B7, R-B9, R-B12, R-B15, R-B17 to R-B19: a change "
                            "report's deadline, what follows, the penalty and its intent, and "
                            "the fiscal years a revocation on it affects")
def _change_report(r: Reader) -> dict[str, Any]:
    res = change_outcome(ChangeFacts(
        kind=r.string("kind", choices=CHANGE_KINDS), change_date=r.date("change_date"),
        reported_on=r.date("on"), has_loan=r.boolean("has_loan", False),
        original_titleholder=r.boolean("original_titleholder", False),
        residential_use_continues=r.boolean("residential_use_continues", False)))
    # The revocation staff record on acknowledging the report (R-B15, R-B18): only with the
    # day of the acknowledgement, and never for a surviving spouse who keeps the exemption.
    acknowledged_on = r.date("acknowledged_on", None)
    approved = r.integer("approved_fiscal_year", 0, minimum=0)
    revoked = None
    if acknowledged_on is not None and res.revoked:
        if acknowledged_on < r.date("on"):
            raise InputError("cannot be before the report", field="acknowledged_on")
        rv = revocation(r.date("change_date"), acknowledged_on, approved)
        revoked = {"from_fiscal_year": fiscal_year_label(rv.from_fiscal_year),
                   "fiscal_years": [fiscal_year_label(y) for y in rv.fiscal_years],
                   "trace": _trace(rv.trace)}
    return {"revocation": revoked, "deadline": res.deadline.isoformat(), "days_left": res.days_left,
            "late": res.late, "affects_fiscal_year": fiscal_year_label(res.affects_fiscal_year),
            "exemption_continues": res.exemption_continues, "revoked": res.revoked,
            "lender_forwards": res.lender_forwards,
            "penalty": {"fine": fmt(res.penalty.fine), "prison_months": res.penalty.prison_months,
                        "intent_required": res.penalty.intent_required},
            "trace": _trace(res.trace)}


# --- Deadlines ---------------------------------------------------------------------------

@operation("deadline", "R-A6, A12, A13, A17, B9, B10, B11, C2: last days (rolled), first "
                       "days, the day a demand is queued and the last day to mail it")
def _deadline(r: Reader) -> dict[str, Any]:
    kind = r.string("kind", choices=dl.KINDS)
    on = r.date("date")
    grace = (r.integer("grace_day", minimum=1) if kind in ("timely_payment", "demand_queue")
             else None)
    r.seen.add("grace_day")  # harmless with the other kinds
    if grace is not None and grace > 31:
        raise InputError("must be at most 31", field="grace_day")
    result = dl.deadline(kind, on, grace=grace, closed_days=_closed(r))
    t = Trace()
    t.add(dl.RULE_OF_KIND[kind], N_("Counted from {start}: {result}."), start=on, result=result)
    return {"date": result.isoformat(), "trace": _trace(t)}


@operation("payment_plan", "R-B16, R-B11: a payment plan's schedule for property tax owed on "
                           "January 1 and, with the CRIM's payments, whether it is kept")
def _payment_plan(r: Reader) -> dict[str, Any]:
    plan = plan_schedule(r.money("debt"), r.integer("count", minimum=1), r.date("first_due"),
                         r.decimal("down_payment_rate", Decimal(0)), _closed(r))
    out: dict[str, Any] = {
        "down_payment": fmt(plan.down_payment),
        "payments": [{"number": p.number, "due_date": p.due_date.isoformat(),
                      "last_day": p.last_day.isoformat(), "amount": fmt(p.amount)}
                     for p in plan.payments]}
    if not r.has("on"):
        r.seen.update({"payments", "notice_costs"})
        if r.has("payments") or r.has("notice_costs"):
            raise InputError("is required with payments", field="on")
        out["trace"] = _trace(plan.trace)
        return out
    on = r.date("on")
    paid = []
    for x in r.objects("payments", []):
        paid.append((x.date("date"), x.money("amount")))
        x.done()
    st = plan_status(plan, paid, on, r.money("notice_costs", ZERO))
    for row, s in zip(out["payments"], st.payments, strict=True):
        row["paid"], row["status"] = fmt(s.paid), s.status
    out.update({"state": st.state, "paid": fmt(st.paid), "balance": fmt(st.balance),
                "defaulted_on": st.defaulted_on.isoformat() if st.defaulted_on else None,
                "missed": st.missed, "due_now": fmt(st.due_now),
                "trace": _trace(st.trace)})
    return out


# --- C. Attachment and auction -------------------------------------------------------------

@operation("dunning_fee", "R-C3: the dunning agent's fee")
def _dunning(r: Reader) -> dict[str, Any]:
    res = dunning_fee(r.money("tax_principal"), r.money("custody_costs", ZERO))
    return {"fee": fmt(res.fee), "total": fmt(res.total), "trace": _trace(res.trace)}


@operation("attachment_stop", "R-C7, R-C2, R-C3: the amount that, paid on a day, stops an "
                              "attachment sale")
def _attachment_stop(r: Reader) -> dict[str, Any]:
    notified_on, on = _in_order(r, "notified_on", "on")
    notice = attachment_notice(
        r.money("taxes"), surcharges=r.money("surcharges", ZERO),
        interest=r.money("interest", ZERO), penalties=r.money("penalties", ZERO),
        levies=r.money("levies", ZERO), fines=r.money("fines", ZERO))
    custody = r.money("custody_costs", ZERO)
    if r.has("accruals"):
        if r.has("accrued"):
            raise InputError("give accrued or accruals, not both", field="accrued")
        accruals = []
        for k, a in enumerate(r.objects("accruals")):
            stated_on = a.date("stated_on")
            if stated_on < notified_on:
                raise InputError("must not be before notified_on",
                                 field=f"accruals[{k}].stated_on")
            accruals.append(Accrual(stated_on, a.money("accrued"), a.money("per_day", ZERO),
                                    a.money("custody_costs", custody)))
            a.done()
        both = sale_stop_from(notice, notified_on, on, accruals, custody)
        res, last = both.on, both.on_last_day
    else:
        accrued = r.money("accrued", ZERO)
        res = sale_stop(notice, notified_on, on, accrued=accrued, custody_costs=custody)
        last = (sale_stop(notice, notified_on, res.last_day, accrued=accrued,
                          custody_costs=custody) if on <= res.last_day else None)
    return {"notice_amount": fmt(res.notice_amount), "accrued": fmt(res.accrued),
            "dunning_fee": fmt(res.dunning_fee), "custody_costs": fmt(res.custody_costs),
            "stop_amount": fmt(res.amount),
            "stop_amount_on_last_day": None if last is None else fmt(last.amount),
            "last_day": res.last_day.isoformat(),
            "sale_from": res.sale_from.isoformat(), "stage": res.stage,
            "trace": _trace(res.trace)}


@operation("auction_minimum", "R-C4, R-C6, R-C8: the auction minimum (confidential, R-C5), "
                              "the regulation's rate for the auction number, and with a sale "
                              "price the shortfall")
def _auction(r: Reader) -> dict[str, Any]:
    taxes, surcharges, interest = r.money("taxes"), r.money("surcharges"), r.money("interest")
    res = auction_minimum(
        real_value=r.money("real_value"), mortgage_amount=r.money("mortgage_amount"),
        taxes=taxes, surcharges=surcharges, interest=interest,
        costs=r.money("costs"), penalties=r.money("penalties", ZERO),
        property_debt=r.money("property_debt") if r.has("property_debt") else None,
        minimum_rate=r.decimal("minimum_rate", Decimal(1)),
        auction_number=r.integer("auction_number", 1, minimum=1))
    r.seen.update(("property_debt", "sale_price"))
    out = {"equity": fmt(res.equity), "credit": fmt(res.credit), "floor": fmt(res.floor),
           "minimum": fmt(res.minimum), "trace": _trace(res.trace)}
    buyer = r.string("buyer", "third_party", choices=BUYERS)
    if r.has("sale_price"):  # R-C6, R-C8: what remains collectible after the sale
        price = r.money("sale_price")
        if price < res.minimum:
            raise InputError(f"must not be below the minimum {fmt(res.minimum)} (R-C4)",
                             field="sale_price")
        out["shortfall"] = fmt(shortfall_after_sale(price, taxes, surcharges, interest, buyer))
    return out


@operation("lien_order", "R-A15: the rank of the District's statutory tacit lien")
def _liens(r: Reader) -> dict[str, Any]:
    liens = []
    for x in r.objects("liens"):
        liens.append(Lien(x.id("id"), x.string("kind", choices=LIEN_KINDS),
                          x.date("constituted_on")))
        x.done()
    order = lien_order(liens)
    t = Trace()
    t.add("R-A15", N_("Ahead of the District: the Act 21 (1997) fiscal lien, the property-tax "
                      "lien and liens constituted before 2000-09-02; every other lien comes "
                      "after it, whatever its date."))
    return {"senior": order.senior, "district": order.district, "junior": order.junior,
            "trace": _trace(t)}
