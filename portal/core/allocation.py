"""Who is assessed and for how much: R-A2 and R-A3 (23 LPRA § 6432(a)-(c))."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from itertools import compress, count, repeat
from operator import eq, floordiv, gt, mod, mul

from portal.core.errors import CalcError
from portal.core.explain import LANGUAGES, N_, Trace, default_format, translator
from portal.core.money import ZERO, from_cents_int, to_cents_int


def _scaled_units(weights: Mapping[str, Decimal]) -> dict[str, int]:
    """Benefit units as integers at one common scale, so the split is exact integer math."""
    places = max((-w.as_tuple().exponent for w in weights.values()), default=0)
    scale = 10 ** max(places, 0)
    return {k: int(w * scale) for k, w in weights.items()}


def allocate(total: Decimal, weights: Mapping[str, Decimal]) -> dict[str, Decimal]:
    """R-A3, 23 LPRA § 6432(a), (b)(3)-(4): split `total` in proportion to benefit units.

    Floor each share to cents, then hand the leftover cents one each to the largest
    fractional remainders, ties broken by id (as text) ascending. The shares sum to the total.
    """
    for k, w in weights.items():
        if w < 0:
            raise CalcError("benefit units must not be negative", field=f"weights.{k}")
    total_cents = to_cents_int(total)
    units = _scaled_units(weights)
    if not any(units.values()):
        if total_cents:
            raise CalcError("there is an amount to apportion but every parcel has zero units",
                            field="weights")
        return {k: ZERO for k in weights}
    split = largest_remainder(total_cents, list(units.values()), list(units))
    shares = {k: from_cents_int(c) for k, c in zip(units, split, strict=True)}
    assert sum(shares.values(), ZERO) == total, "R-A3: shares must sum to the total"
    return shares


def largest_remainder(total_cents: int, units: Sequence[int], ids: Sequence[str]) -> list[int]:
    """R-A3's split of `total_cents` by integer `units` (at least one above zero), position
    by position: each share floored to the cent, then the leftover cents one each to the
    largest remainders, ties broken by id (as text) ascending. The cents sum to the total.

    The same cents as sorting every parcel by (-remainder, id), in C-level passes: the
    leftover cents go to every remainder above the threshold (the leftover-th largest) and to
    the first ids, in order, of those at it."""
    denominator = sum(units)
    products = list(map(mul, units, repeat(total_cents)))
    floors = list(map(floordiv, products, repeat(denominator)))
    leftover = total_cents - sum(floors)
    if leftover:
        remainders = list(map(mod, products, repeat(denominator)))
        threshold = sorted(remainders, reverse=True)[leftover - 1]
        above = list(compress(count(), map(gt, remainders, repeat(threshold))))
        tied = sorted(compress(count(), map(eq, remainders, repeat(threshold))),
                      key=ids.__getitem__)
        for k in above + tied[:leftover - len(above)]:
            floors[k] += 1
    return floors


@dataclass(frozen=True)
class ParcelFacts:
    """What R-A2/R-A3 need to know about a parcel."""

    id: str
    benefit_units: Decimal
    owner: str  # "private" | "authority" | "public"
    transferred: bool = False
    tax_incentive_exempt: bool = False
    fixed_amount: Decimal | None = None


def is_assessable(p: ParcelFacts) -> bool:
    """R-A2, 23 LPRA § 6432(a), (c): only private parcels are assessed.

    Land of the Authority or another public owner is exempt unless sold, leased, subleased
    or otherwise transferred as a private parcel. An incentives-program exemption from
    property tax does not exempt (the flag is deliberately ignored), nor does waiver of use
    or abandonment (R-A16), which the portal does not even ask about.
    """
    if p.owner == "private":
        return True
    return p.transferred


@dataclass(frozen=True)
class Roll:
    assessments: dict[str, Decimal]
    exempt: list[str]
    trace: Trace


def assessment_roll(total: Decimal, parcels: Sequence[ParcelFacts]) -> Roll:
    """R-A2 + R-A3: the amount on every assessable parcel; fixed amounts first, then units."""
    ids = [p.id for p in parcels]
    if len(set(ids)) != len(ids):
        raise CalcError("parcel ids must be unique", field="parcels")
    assessable = [p for p in parcels if is_assessable(p)]
    exempt = sorted(p.id for p in parcels if not is_assessable(p))
    fixed = {p.id: p.fixed_amount for p in assessable if p.fixed_amount is not None}
    fixed_total = sum(fixed.values(), ZERO)
    if fixed_total > total:
        raise CalcError(f"fixed amounts ({fixed_total}) exceed the total ({total})",
                        field="parcels")
    rest = total - fixed_total
    weights = {p.id: p.benefit_units for p in assessable if p.id not in fixed}
    if rest > 0 and not any(units > 0 for units in weights.values()):
        # R-A3: "A remainder > 0 with zero units in all is an error" (named by this input's
        # field, not by allocate's `weights`).
        raise CalcError("an amount is left to apportion but no parcel takes a share "
                        "(every parcel without a fixed amount has zero benefit units)",
                        field="parcels")
    shares = allocate(rest, weights) if weights else {}
    amounts = {p.id: fixed.get(p.id, shares.get(p.id, ZERO)) for p in assessable}
    return Roll(amounts, exempt, roll_trace(len(assessable), len(exempt), total, fixed_total,
                                            len(fixed), rest))


#: The roll's explanation (R-A2, R-A3): its two steps, as `roll_trace` adds them.
ROLL_STEPS = (
    ("R-A2", N_("{assessable} parcels are assessed; {exempt} are exempt public land not "
                "transferred.")),
    ("R-A3", N_("Of the total {total}, {fixed} is fixed by the Board on {nfixed} parcels; "
                "{rest} is shared by benefit units.")),
)


def roll_trace(assessable: int, exempt: int, total: Decimal, fixed: Decimal, nfixed: int,
               rest: Decimal) -> Trace:
    """How many parcels are assessed and exempt (R-A2), and what is fixed and shared (R-A3)."""
    trace = Trace()
    (a2, a2_text), (a3, a3_text) = ROLL_STEPS
    trace.add(a2, a2_text, assessable=assessable, exempt=exempt)
    trace.add(a3, a3_text, total=total, fixed=fixed, nfixed=nfixed, rest=rest)
    return trace


@lru_cache(maxsize=1)
def _roll_texts() -> tuple[tuple[str, str, str], ...]:
    """Each language with the roll's two steps translated once, prefixed with their rule."""
    return tuple((lang, *(f"{rule}: {translator(lang).gettext(text)}"
                          for rule, text in ROLL_STEPS)) for lang in LANGUAGES)


def roll_trace_json(assessable: int, exempt: int, total: Decimal, fixed: Decimal, nfixed: int,
                    rest: Decimal) -> dict[str, object]:
    """`roll_trace(...).to_json()` without building the trace: the same rules and texts, each
    message translated once a process and each number formatted once."""
    a2 = {"assessable": default_format(assessable), "exempt": default_format(exempt)}
    a3 = {"total": default_format(total), "fixed": default_format(fixed),
          "nfixed": default_format(nfixed), "rest": default_format(rest)}
    return {"rules": [rule for rule, _ in ROLL_STEPS],
            "explanation": {lang: [a2_text.format(**a2), a3_text.format(**a3)]
                            for lang, a2_text, a3_text in _roll_texts()}}


def explain_share(parcel_id: str, amount: Decimal, units: Decimal, total_units: Decimal,
                  pool: Decimal) -> Trace:
    """The one-parcel "why this amount?" of R-A3."""
    t = Trace()
    t.add("R-A3", N_("{units} benefit units of {total_units} in all share {pool}: this parcel's "
                     "assessment is {amount}."),
          units=units, total_units=total_units, pool=pool, amount=amount)
    return t


def apportion_roll(total: Decimal, units: Sequence[Decimal], assessable: Sequence[bool],
                   ids: Sequence[int | str],
                   fixed: Mapping[int | str, Decimal] | None = None) -> array:
    """R-A2 + R-A3 over a whole roll given by position, in little memory: the same cents as
    `assessment_roll` for parcels `ids[k]` with `units[k]`, assessed when `assessable[k]`
    (`is_assessable`), and the Board's `fixed` amounts by parcel id (23 LPRA § 6432(a),
    (b)(3)-(4): fixed amounts first, the rest shared by units; a fixed amount on an exempt
    parcel is ignored, as there). Returns the cents of each position, -1 where exempt: the
    arrays' roll cut by `roll_cut`."""
    n = len(units)
    if not (len(assessable) == len(ids) == n):
        raise CalcError("units, assessable and ids must have one entry per parcel",
                        field="parcels")
    cut = roll_cut(total, lambda _tied: zip(ids, units, assessable), fixed)
    out = array("q", (cut.cents(i, u, a) for i, u, a in zip(ids, units, assessable)))
    assert sum(c for c in out if c > 0) == to_cents_int(total), \
        "R-A3: shares must sum to the total"
    return out


@dataclass(frozen=True)
class RollCut:
    """R-A3 over a whole roll, kept in memory flat in its size (`roll_cut`): each parcel's
    cents follow from its id, units and R-A2 verdict alone (`cents`)."""

    fixed: Mapping[int | str, Decimal]  # the Board's fixed amounts by parcel id
    share: Mapping[Decimal, tuple[int, int]]  # by units: the floored cents and the remainder
    threshold: int  # a remainder above it takes a leftover cent
    cutoff: str | None  # at `threshold`: the ids (as text) up to this one take one (None: all)
    counts: Mapping[Decimal, int]  # the parcels sharing by units, by units value
    parcels: int  # on the roll
    assessed: int  # of which assessed (R-A2)

    def cents(self, parcel_id: int | str, units: Decimal, assessable: bool) -> int:
        """The parcel's share in cents, -1 when exempt. A parcel sharing by units with a value
        no parcel had when the roll was cut is refused (CalcError): the parcels changed."""
        if not assessable:
            return -1
        if parcel_id in self.fixed:
            return to_cents_int(self.fixed[parcel_id])
        got = self.share.get(units)
        if got is None:
            raise CalcError("the roll was apportioned without these benefit units",
                            field=f"weights.{parcel_id}")
        cents, remainder = got
        if remainder > self.threshold or (remainder == self.threshold and (
                self.cutoff is None or str(parcel_id) <= self.cutoff)):
            cents += 1
        return cents


def roll_cut(total: Decimal,
             parcels: Callable[[set[Decimal] | None], Iterable[tuple[int | str, Decimal, bool]]],
             fixed: Mapping[int | str, Decimal] | None = None) -> RollCut:
    """R-A2 + R-A3 over the (id, units, assessable) of `parcels(None)`, in memory flat in their
    number: the same cents as `assessment_roll` (`RollCut.cents`). `parcels(None)` is read
    once; when the leftover cents' tie must be cut by id, `parcels(tied)` is read again (once,
    or a pass per character of the cut's id for a group over `_SORTED_TIES`): the same
    parcels, of which only those with units in `tied` count (it may give only those).

    As `allocate`: every share floored to cents, then the leftover cents one each to the
    largest remainders, ties broken by id as text ascending; the shares sum to the total.
    A share depends only on a parcel's units: the arithmetic is done once per distinct value
    (most repeat). Arrays or a dict per parcel would hold a 1.5-million-parcel roll in tens of
    megabytes (`assessment_roll` holds about a gigabyte)."""
    fixed = fixed or {}
    total_cents = to_cents_int(total)
    fixed_cents = n = assessed = 0
    negative = None  # the first parcel sharing by negative units
    counts: dict[Decimal, int] = {}
    for pid, units, assessable in parcels(None):
        n += 1
        if not assessable:
            continue
        assessed += 1
        if pid in fixed:
            fixed_cents += to_cents_int(fixed[pid])
        elif units < 0:
            negative = pid if negative is None else negative
        else:
            counts[units] = counts.get(units, 0) + 1
    if fixed_cents > total_cents:
        raise CalcError(f"fixed amounts ({from_cents_int(fixed_cents)}) exceed the total "
                        f"({total})", field="parcels")
    if negative is not None:
        raise CalcError("benefit units must not be negative", field=f"weights.{negative}")
    total_cents -= fixed_cents
    places = max((-u.as_tuple().exponent for u in counts), default=0)
    scale = 10 ** max(places, 0)
    scaled = {u: int(u * scale) for u in counts}
    denominator = sum(scaled[u] * c for u, c in counts.items())
    if denominator == 0:
        if total_cents:
            raise CalcError("an amount is left to apportion but no parcel takes a share "
                            "(every parcel without a fixed amount has zero benefit units)",
                            field="parcels")
        return RollCut(fixed, dict.fromkeys(counts, (0, 0)), 1, None, counts, n, assessed)
    share = {u: divmod(total_cents * s, denominator) for u, s in scaled.items()}
    leftover = total_cents - sum(share[u][0] * c for u, c in counts.items())

    def keys(tied: set[Decimal]) -> Iterator[str]:  # the ids of those sharing by `tied` units
        return (str(pid) for pid, units, assessable in parcels(tied)
                if assessable and pid not in fixed and units in tied)

    threshold, cutoff = _leftover_cut(leftover, counts, share, keys)
    return RollCut(fixed, share, threshold, cutoff, counts, n, assessed)


#: A tied group up to this size is sorted in memory; a larger one is cut by counting passes.
_SORTED_TIES = 65536


def _leftover_cut(leftover: int, counts: Mapping[Decimal, int],
                  share: Mapping[Decimal, tuple[int, int]],
                  keys: Callable[[set[Decimal]], Iterator[str]]) -> tuple[int, str | None]:
    """R-A3's leftover cents, one each to the largest remainders, ties by id as text: the
    remainder `threshold` above which every parcel takes a cent, and the greatest id (as
    text) of those at exactly `threshold` that take one (None: all of them). With no
    leftover, a threshold no remainder reaches. A tie is cut among `keys(tied)`, the ids (as
    text) of the parcels sharing by the `tied` units values (those at `threshold`)."""
    if not leftover:
        return max((r for _q, r in share.values()), default=0) + 1, None
    by_remainder: dict[int, int] = {}
    for u, c in counts.items():
        by_remainder[share[u][1]] = by_remainder.get(share[u][1], 0) + c
    need = leftover
    for remainder in sorted(by_remainder, reverse=True):
        if by_remainder[remainder] >= need:
            break
        need -= by_remainder[remainder]
    if by_remainder[remainder] == need:
        return remainder, None
    tied = {u for u in counts if share[u][1] == remainder}
    if by_remainder[remainder] <= _SORTED_TIES:
        return remainder, sorted(keys(tied))[need - 1]
    return remainder, _nth_text(lambda: keys(tied), need)


def _nth_text(keys: Callable[[], Iterator[str]], nth: int) -> str:
    """The `nth` smallest (1 first) of distinct strings, in constant memory: a pass over
    `keys()` per character of the answer, counting the strings by their next character."""
    prefix = ""
    while True:
        exact, following = 0, {}
        for key in keys():
            if key.startswith(prefix):
                if len(key) == len(prefix):
                    exact += 1
                else:
                    following[key[len(prefix)]] = following.get(key[len(prefix)], 0) + 1
        if nth <= exact:
            return prefix
        nth -= exact
        for char in sorted(following):
            if nth <= following[char]:
                prefix += char
                break
            nth -= following[char]


def explain_fixed(amount: Decimal) -> Trace:
    """The one-parcel "why this amount?" of R-A3 (23 LPRA § 6432(a), (b)(3)-(4)) for a parcel
    whose amount the Board fixed."""
    t = Trace()
    t.add("R-A3", N_("The Board fixed this parcel's assessment at {amount}; the rest of the "
                     "total is shared by benefit units among the other parcels."), amount=amount)
    return t

