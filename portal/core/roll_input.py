"""Reading the parcel list of `calc assessment_roll` (RULES.md D; R-A2, R-A3), fast when it is
valid and exactly as strict as ever when it is not.

`read_parcels` is the full validator (`inputs.Reader`, field by field, each error naming its
field). `lean_roll` reads the same list without a `Reader` per parcel, by column, each check
a pass in C over a column: it accepts only the plain shapes a roll is written in (ids as
strings or integers, units as plain decimal strings or integers, amounts as plain strings or
integers, the owner one of the three words, true or false, nothing unknown) and gives up
(returns None) at anything that is not plainly valid, or when the roll cannot be computed (a
duplicate id, fixed amounts above the total, a rest with no units to share it). The caller then
runs the full validator and the full computation on the same input, so every error keeps its
exact message and field, and the order in which they are found. What `lean_roll` accepts,
`lean_roll_json` computes in integer cents (`allocation.largest_remainder`) to the output the
full path gives, to the character (tests/core/test_roll_input.py; bench/roll_golden.py digests
the whole output, trace included, of 2,409 inputs before and after a change).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from itertools import compress, count, repeat
from operator import itemgetter, methodcaller, mul, ne, not_, or_, sub, truth
from typing import Any

from portal.core.allocation import ParcelFacts, largest_remainder, roll_trace_json
from portal.core.inputs import MAX_MONEY, Reader
from portal.core.money import from_cents_int, to_cents_int

ORDER = ("id", "benefit_units", "owner", "transferred", "tax_incentive_exempt", "fixed_amount")
FIELDS = frozenset(ORDER)
OWNERS = ("private", "authority", "public")
#: Benefit units the lean reader takes: at most 15 digits before the point (inputs'
#: MAX_WHOLE_DIGITS) and 27 in all, so units times any power of ten stay exact in Decimal's
#: 28 digits (allocation._scaled_units) and the integer arithmetic here gives the same shares.
_ALL_UNITS = re.compile(r"(?:[0-9]{1,15}(?:\.[0-9]{1,26})?,)+").fullmatch
_UNITS = re.compile(r"[0-9]{1,15}(?:\.[0-9]{1,26})?").fullmatch
_partition_dot = methodcaller("partition", ".")
_drop_dot = methodcaller("replace", ".", "")
_UNITS_LENGTH = 28
_MAX_UNITS = 10 ** 15
#: Amounts: what `money.parse_money` reads on its fast path, below inputs.MAX_MONEY.
_AMOUNT = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,2})?").fullmatch
_MAX_CENTS = int(MAX_MONEY * 100)
_MAX_ID_DIGITS = 40
_NONE = type(None)
_ID_TYPES = frozenset({str, int})
_OWNER_VALUES = frozenset({*OWNERS, None})
_PRIVATE = frozenset({"private", None})  # assessed whether transferred or not (is_assessable)
_FLAG_TYPES = frozenset({bool, _NONE})


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
    assessable: Sequence[str]
    shared_ids: Sequence[str]
    shared_units: Sequence[int]
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


@lru_cache(maxsize=32)
def _units_at(places: int) -> Callable[[str], re.Match[str] | None]:
    """The full match of texts of `_ALL_UNITS` that all have exactly `places` decimals."""
    tail = rf"\.[0-9]{{{places}}}" if places else ""
    return re.compile(rf"(?:[0-9]{{1,15}}{tail},)+").fullmatch


def _units_read(units: list[Any]) -> tuple[list[int], list[int] | int] | None:
    """Each parcel's benefit units as (digits as an integer, decimal places), as two columns
    (the places as one number when every parcel has the same), or None if any is not plainly
    valid: a string of `_UNITS` (checked all at once, as one text), a whole number below
    10**15, or null (zero, the default)."""
    try:
        joined = ",".join(units) + "," if units else ""
    except TypeError:  # not all texts
        joined = ""
    if not joined:
        digits, places = [], []
        for u in units:
            if u is None or u.__class__ is int and 0 <= u < _MAX_UNITS:
                digits.append(u or 0)
                places.append(0)
            elif u.__class__ is not str or len(u) > _UNITS_LENGTH or _UNITS(u) is None:
                return None
            else:
                whole, _, fraction = u.partition(".")
                digits.append(int(whole + fraction))
                places.append(len(fraction))
        return digits, places
    if joined.count(",") != len(units):
        return None  # a comma of a text's own would split it in two
    first = units[0].find(".")
    same = 0 if first < 0 else len(units[0]) - first - 1
    if same <= _UNITS_LENGTH - 16 and _units_at(same)(joined):  # short enough: 15 + 1 + same
        return list(map(int, map(_drop_dot, units) if same else units)), same
    if max(map(len, units)) > _UNITS_LENGTH or _ALL_UNITS(joined) is None:
        return None
    return (list(map(int, map(_drop_dot, units))),
            list(map(len, map(itemgetter(2), map(_partition_dot, units)))))


def _columns(parcels: list[Any]) -> list[Sequence[Any]] | None:
    """The parcels' six fields by column, in the order of `ORDER`, None where a parcel leaves
    a field out; None if a parcel is not a JSON object or has a field of its own.

    The usual roll gives most parcels the same fields and a few one more (the Board's fixed
    amount): the fields of a parcel with the fewest are read from every parcel by one
    `itemgetter` and turned into columns by `zip`; the few parcels with more add theirs."""
    if not parcels:
        return [[] for _ in ORDER]
    if set(map(type, parcels)) != {dict}:
        return None
    sizes = list(map(len, parcels))
    fewest = min(sizes)
    base = parcels[sizes.index(fewest)]
    if fewest > 1 and base.keys() <= FIELDS:
        try:
            rows = list(map(itemgetter(*base), parcels))
        except KeyError:  # a parcel without one of them
            rows = None
        if rows is not None:
            n = len(parcels)
            by_name: dict[str, Sequence[Any]] = dict(zip(base, zip(*rows, strict=True),
                                                         strict=True))
            more = list(compress(count(), map(ne, sizes, repeat(fewest))))
            extra = {name: [None] * n for name in ORDER if name not in by_name}
            for k in more:
                parcel = parcels[k]
                if not parcel.keys() <= FIELDS:
                    return None
                for name in parcel.keys() - by_name.keys():
                    extra[name][k] = parcel[name]
            by_name.update(extra)
            return [by_name[name] for name in ORDER]
    if not all(map(FIELDS.issuperset, parcels)):
        return None
    return [list(map(dict.get, parcels, repeat(name))) for name in ORDER]


def lean_roll(r: Reader) -> LeanRoll | None:
    """The roll of a plainly valid input, or None (see the module's docstring). Reads the
    parcels by column, each check one pass over a column in C (`map`, `set`, one regular
    expression over all the units texts); marks `total` and `parcels` as read only when it
    succeeds."""
    data = r.data
    parcels = data.get("parcels")
    if parcels.__class__ is not list or not data.keys() <= {"total", "parcels"}:
        return None
    total_cents = _amount_cents(data.get("total"))
    if total_cents is None:
        return None
    columns = _columns(parcels)
    if columns is None:
        return None
    ids, units, owners, transferred, incentive, amounts = columns
    kinds = set(map(type, ids))
    try:
        owners_valid = set(owners) <= _OWNER_VALUES  # only the three words are equal to them
    except TypeError:  # an unhashable value
        return None
    if not (owners_valid and kinds <= _ID_TYPES and set(map(type, transferred)) <= _FLAG_TYPES
            and set(map(type, incentive)) <= _FLAG_TYPES):
        return None
    if int in kinds:
        if max(len(str(i)) for i in ids if i.__class__ is int) > _MAX_ID_DIGITS:
            return None  # str() would refuse it, or take long: the full reader says which
        ids = [i if i.__class__ is str else str(i) for i in ids]
    if len(set(ids)) != len(ids):
        return None
    read = _units_read(units)
    if read is None:
        return None
    digits, places = read
    if places.__class__ is list and places and min(places) != max(places):
        # one scale for all: the shares do not depend on it (both sides of R-A3's division
        # are multiplied by it), only the units' digits must all be at it
        scale = max(places)
        digits = list(map(mul, digits, map(pow, repeat(10), map(sub, repeat(scale), places))))
    if owners.count(None) + owners.count("private") == len(owners):
        assessed = None  # every parcel is assessed (allocation.is_assessable)
        assessable, exempt = ids, []
    else:
        assessed = list(map(or_, map(_PRIVATE.__contains__, owners), map(truth, transferred)))
        assessable = list(compress(ids, assessed))
        exempt = sorted(compress(ids, map(not_, assessed)))
    fixed: dict[str, int] = {}
    if amounts.count(None) != len(amounts):
        for k, raw in enumerate(amounts):
            if raw is not None:
                cents = _amount_cents(raw)
                if cents is None:
                    return None
                if assessed is None or assessed[k]:
                    fixed[ids[k]] = cents
    if fixed:
        shared = [(assessed is None or assessed[k]) and raw is None
                  for k, raw in enumerate(amounts)]
        shared_ids = list(compress(ids, shared))
        shared_units = list(compress(digits, shared))
    elif assessed is None:
        shared_ids, shared_units = ids, digits
    else:
        shared_ids, shared_units = assessable, list(compress(digits, assessed))
    if sum(fixed.values()) > total_cents:
        return None
    if total_cents > sum(fixed.values()) and not any(shared_units):
        return None
    r.seen.update(("total", "parcels"))
    total = r.money("total")
    assert to_cents_int(total) == total_cents, "the lean reader reads the total as Reader does"
    return LeanRoll(total, assessable, shared_ids, shared_units, fixed, exempt)


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
