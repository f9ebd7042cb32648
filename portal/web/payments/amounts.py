"""Money typed by a person, read in their locale (the pay page's "other amount", the office
form and the refund form). The amount's limits are the core's (`portal.core.offer`)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from babel.numbers import NumberFormatError, parse_decimal

from portal.core.money import has_whole_cents
from portal.core.offer import ChoiceError

_ALLOWED_CHARS = set("0123456789.,$ -\u00a0")


def parse_amount(text: str | None, locale: str) -> Decimal:
    """Money typed in `locale` (es_PR and en_US: 1,234.50).

    Babel's `parse_decimal(strict=True)` refuses misplaced separators ("1.234,50" under
    es_PR) instead of silently reading 1.23450. Letters, exponents, NaN: `not_a_number`.
    """
    raw = (text or "").strip()
    if not raw or any(ch not in _ALLOWED_CHARS for ch in raw):
        raise ChoiceError("not_a_number")
    cleaned = raw.replace("$", "").replace("\u00a0", "").replace(" ", "")
    negative = cleaned.startswith("-")
    cleaned = cleaned.lstrip("-")
    if not cleaned or "-" in cleaned:
        raise ChoiceError("not_a_number")
    try:
        value = parse_decimal(cleaned, locale=locale, strict=True)
    except (NumberFormatError, InvalidOperation, ValueError):
        raise ChoiceError("not_a_number") from None
    if not value.is_finite():
        raise ChoiceError("not_a_number")
    if negative and value != 0:
        raise ChoiceError("negative")
    if not has_whole_cents(value):
        raise ChoiceError("too_many_decimals")
    return value
