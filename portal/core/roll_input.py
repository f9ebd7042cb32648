"""Reading the parcel list of `calc assessment_roll` (RULES.md D; R-A2, R-A3), fast when it is
valid and exactly as strict as ever when it is not.

`read_parcels` is the full validator (`inputs.Reader`, field by field, each error naming its
field). `lean_roll` reads the same list in one pass without a `Reader` per parcel: it accepts
only the plain shapes a roll is written in (ids as strings or integers, units as plain decimal
strings or integers, amounts as plain strings or integers, the owner one of the three words,
true or false, nothing unknown) and gives up (returns None) at the first thing that is not
plainly valid, or when the roll cannot be computed (a duplicate id, fixed amounts above the
total, a rest with no units to share it). The caller then runs the full validator and the full
computation on the same input, so every error keeps its exact message and field, and the order
in which they are found. What `lean_roll` accepts it reads to the same values as
`read_parcels` (tests/core/test_roll_input.py; bench/roll_golden.py digests the whole output).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from itertools import repeat
from typing import Any

from portal.core.allocation import ParcelFacts, largest_remainder, roll_trace_json
from portal.core.inputs import MAX_MONEY, Reader
from portal.core.money import from_cents_int, to_cents_int

FIELDS = frozenset({"id", "benefit_units", "owner", "transferred", "tax_incentive_exempt",
                    "fixed_amount"})
OWNERS = ("private", "authority", "public")
#: Benefit units the lean reader takes: at most 15 digits before the point (inputs'
#: MAX_WHOLE_DIGITS) and 27 in all, so units times any power of ten stay exact in Decimal's
#: 28 digits (allocation._scaled_units) and the integer arithmetic here gives the same shares.
_UNITS = re.compile(r"[0-9]{1,15}(?:\.[0-9]{1,26})?").fullmatch
_UNITS_LENGTH = 28
_MAX_UNITS = 10 ** 15
#: Amounts: what `money.parse_money` reads on its fast path, below inputs.MAX_MONEY.
_AMOUNT = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,2})?").fullmatch
_MAX_CENTS = int(MAX_MONEY * 100)


def read_parcels(r: Reader) -> list[ParcelFacts]:
    """The full validator: every parcel through a `Reader`, every error naming its field."""
    parcels = []
    for p in r.objects("parcels"):
        parcels.append(ParcelFacts(
            id=p.id("id"), benefit_units=p.decimal("benefit_units", Decimal(0)),
            owner=p.string("owner", "private", choices=OWNERS),
            transferred=p.boolean("transferred", False),
            tax_incentive_exempt=p.boolean("tax_incentive_exempt", False),
            fixed_amount=p.money("fixed_amount") if p.has("fixed_amount") else None))
        p.seen.add("fixed_amount")
        p.done()
    return parcels


@dataclass
class LeanRoll:
    """A valid roll read by `lean_roll`, by column: the assessable parcels' ids in the input's
    order; those that share by units with their units as integers at one scale; the Board's
    fixed amounts in cents; the exempt ids sorted."""

    total: Decimal
    assessable: list[str]
    shared_ids: list[str]
    shared_units: list[int]
    fixed: dict[str, int]
    exempt: list[str]


def _amount_cents(raw: Any) -> int | None:
    """Cents of a plain amount (a string of `_AMOUNT` or a whole number), None otherwise."""
    if raw.__class__ is str:
        if _AMOUNT(raw) is None:
            return None
        whole, _, frac = raw.partition(".")
        return int(whole) * 100 + int(frac.ljust(2, "0")) if frac else int(whole) * 100
    if raw.__class__ is int and 0 <= raw * 100 <= _MAX_CENTS:
        return raw * 100
    return None


def lean_roll(r: Reader) -> LeanRoll | None:
    """The roll of a plainly valid input in one pass, or None (see the module's docstring).
    Marks `total` and `parcels` as read only when it succeeds."""
    data = r.data
    raw = data.get("parcels")
    if raw.__class__ is not list or not data.keys() <= {"total", "parcels"}:
        return None
    total_cents = _amount_cents(data.get("total"))
    if total_cents is None:
        return None
    ids: list[str] = []
    assessable: list[str] = []
    exempt: list[str] = []
    shared_ids: list[str] = []
    coefs: list[int] = []
    places: list[int] = []
    fixed: dict[str, int] = {}
    units_seen: dict[str, tuple[int, int]] = {}  # units as written -> (digits, places)
    fields, owners = FIELDS, OWNERS
    for p in raw:
        if p.__class__ is not dict or not fields.issuperset(p):
            return None
        pid = p.get("id")
        if pid.__class__ is not str:
            if pid.__class__ is not int:
                return None
            pid = str(pid)
        units = p.get("benefit_units")
        if units.__class__ is str:
            read = units_seen.get(units)
            if read is None:
                if len(units) > _UNITS_LENGTH or _UNITS(units) is None:
                    return None
                dot = units.find(".")
                read = units_seen[units] = (int(units), 0) if dot < 0 else (
                    int(units[:dot] + units[dot + 1:]), len(units) - dot - 1)
        elif units is None:
            read = (0, 0)
        elif units.__class__ is int and 0 <= units < _MAX_UNITS:
            read = (units, 0)
        else:
            return None
        owner = p.get("owner")
        transferred = p.get("transferred")
        incentive = p.get("tax_incentive_exempt")
        if not ((owner is None or owner.__class__ is str and owner in owners)
                and (transferred is None or transferred is True or transferred is False)
                and (incentive is None or incentive is True or incentive is False)):
            return None
        amount = p.get("fixed_amount")
        if amount is not None:
            amount = _amount_cents(amount)
            if amount is None:
                return None
        ids.append(pid)
        if owner is None or owner == "private" or transferred:  # allocation.is_assessable
            assessable.append(pid)
            if amount is None:
                shared_ids.append(pid)
                coefs.append(read[0])
                places.append(read[1])
            else:
                fixed[pid] = amount
        else:
            exempt.append(pid)
    if len(set(ids)) != len(ids):
        return None
    if sum(fixed.values()) > total_cents:
        return None
    scale = max(places, default=0)
    if scale and min(places) != scale:
        coefs = [c * 10 ** (scale - k) for c, k in zip(coefs, places, strict=True)]
    if total_cents > sum(fixed.values()) and not any(coefs):
        return None
    r.seen.update(("total", "parcels"))
    total = r.money("total")
    assert to_cents_int(total) == total_cents, "the lean reader reads the total as Reader does"
    exempt.sort()
    return LeanRoll(total, assessable, shared_ids, coefs, fixed, exempt)


#: `money.fmt` of an amount given as divmod(cents, 100), both non-negative: "12.05".
_cents_text = "%d.%02d".__mod__


def lean_roll_json(roll: LeanRoll) -> dict[str, Any]:
    """`calc assessment_roll`'s output for a roll `lean_roll` read: the same cents and texts
    as `allocation.assessment_roll` (R-A2, R-A3) formatted by `calc`, from integer cents."""
    fixed_cents = sum(roll.fixed.values())
    rest_cents = to_cents_int(roll.total) - fixed_cents
    units = roll.shared_units
    shares = largest_remainder(rest_cents, units, roll.shared_ids) if any(units) else \
        [0] * len(units)
    texts = map(_cents_text, map(divmod, shares, repeat(100)))
    if roll.fixed:
        assessments = dict.fromkeys(roll.assessable)
        assessments.update(zip(roll.shared_ids, texts))
        assessments.update((k, _cents_text(divmod(c, 100))) for k, c in roll.fixed.items())
    else:
        assessments = dict(zip(roll.shared_ids, texts))
    fixed = from_cents_int(fixed_cents)
    return {"assessments": assessments, "exempt": roll.exempt,
            "trace": roll_trace_json(len(roll.assessable), len(roll.exempt), roll.total, fixed,
                                     len(roll.fixed), roll.total - fixed)}
