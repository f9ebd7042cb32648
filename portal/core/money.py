"""Money: `Decimal` amounts, rounded in exactly one place.

Every rounding of money in the portal goes through `cents` (ROUND_HALF_UP to the cent,
docs/rules, Conventions). Python's `decimal` rounds half-to-even by default, which is why no
other code calls `quantize` on money. Integer cents exist only at the Stripe boundary
(`to_minor_units` / `from_minor_units`).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

ZERO = Decimal("0.00")
CENT = Decimal("0.01")


def cents(value: Decimal | int) -> Decimal:
    """Round to cents, half away from zero (ROUND_HALF_UP): 0.005 -> 0.01, -0.005 -> -0.01."""
    if value.__class__ is Decimal:  # the hot path: no copy, no isinstance chain
        return value.quantize(CENT, ROUND_HALF_UP)  # (positional: half the cost of a keyword)
    if not isinstance(value, (Decimal, int)) or isinstance(value, bool):
        raise TypeError(f"money must be Decimal or int, not {type(value).__name__}")
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


#: The most digits an amount may have before its decimal point: `cents` then still fits
#: Decimal's 28 significant digits (a larger amount is refused, never an error).
MAX_WHOLE_DIGITS = 20


def has_whole_cents(value: Decimal) -> bool:
    """Whether the amount is a whole number of cents ("12.30", "12.300", but not "12.305"),
    read off its digits: no rounding, so any size of number is answered."""
    _sign, digits, exponent = value.as_tuple()
    if not isinstance(exponent, int):  # NaN, Infinity
        return False
    extra = -2 - exponent  # digits beyond the cents
    return extra <= 0 or not any(digits[-extra:])


def fits_money(value: Decimal) -> bool:
    """Whether the amount is finite and small enough to be money (`MAX_WHOLE_DIGITS`)."""
    return value.is_finite() and value.adjusted() < MAX_WHOLE_DIGITS


def to_cents_int(amount: Decimal) -> int:
    """An amount already at cent precision as an integer number of cents."""
    q = cents(amount)
    if q != amount:
        raise ValueError(f"{amount} is not a whole number of cents")
    return int(q * 100)


def from_cents_int(n: int) -> Decimal:
    return (Decimal(n) / 100).quantize(CENT)


# The Stripe boundary (DESIGN.md 3): one function each way.
to_minor_units = to_cents_int
from_minor_units = from_cents_int


#: A plain amount as the JSON interface writes it ("1234.50"): every check below passes.
_PLAIN = re.compile(r"[0-9]{1,20}(?:\.[0-9]{1,2})?")


def parse_money(text: str | int, *, allow_negative: bool = False) -> Decimal:
    """Parse a plain amount such as "1234.50" or 1234 (no commas, at most two decimals)."""
    if text.__class__ is str and _PLAIN.fullmatch(text):  # the usual input, read once
        return cents(Decimal(text))
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise ValueError("must be a string such as \"1234.50\" or a whole number")
    s = str(text).strip()
    if not s or any(c not in "0123456789.-" for c in s):
        raise ValueError(f"not a plain amount: {text!r} (write 1234.50, without commas)")
    try:
        value = Decimal(s)
    except InvalidOperation:
        raise ValueError(f"not a plain amount: {text!r}") from None
    if not value.is_finite():
        raise ValueError(f"not a plain amount: {text!r}")
    if not fits_money(value):
        raise ValueError(f"too large to be an amount: {text!r}")
    if value.as_tuple().exponent < -2:
        raise ValueError(f"more than two decimals: {text!r}")
    if value.is_signed() and not allow_negative:  # "-0" too: it would print as "-0.00"
        raise ValueError(f"must not be negative: {text!r}")
    return cents(value)


def fmt(amount: Decimal) -> str:
    """Two-decimal string for the JSON interface: Decimal('5') -> '5.00'."""
    if amount is ZERO:  # (the usual amount: no fee, no interest, no cost; without str())
        return "0.00"
    text = str(amount)  # (first: most amounts are Decimals already in cents)
    if text[-3:-2] == "." and amount.__class__ is Decimal:  # two decimals: cents keeps it
        return text
    return str(cents(amount))


def fmt_display(amount: Decimal) -> str:
    """"$1,234.56": the format of both es_PR and en_US, for the core's own explanations."""
    q = cents(amount)
    text = str(q)  # two decimals, never an exponent: cents quantized it
    if len(text) <= 6 and text[0] != "-" and text[-3] == ".":  # below $1,000: no separator
        return "$" + text
    text = format(q, ",.2f")
    if text[0] in "-N":  # "-$1.00"; a negative zero has no sign ("$0.00"); NaN is an error
        return ("-$" if q < 0 else "$") + text.lstrip("-")
    return "$" + text


def split_evenly(total: Decimal, count: int) -> list[Decimal]:
    """`count` amounts differing by at most one cent, the extra cents first (R-A4).

    Works on the magnitude: for a negative total the earliest parts take the larger cut.
    """
    if count <= 0:
        raise ValueError("count must be positive")
    n = to_cents_int(abs(total))
    base, extra = divmod(n, count)
    if n == 0:
        return [ZERO] * count
    low, high = from_cents_int(base), from_cents_int(base + 1)
    if total < 0:
        low, high = -low, -high
    assert base * count + extra == n, "split must sum to its total"
    return [high] * extra + [low] * (count - extra)
