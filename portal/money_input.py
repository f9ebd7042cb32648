"""Money a person types: the one parser of every form, CSV and API field that takes an amount.

`parse(text, locale)` reads an amount as written in `locale` (es_PR and en_US both write
1,234.50) and refuses, each with its own code and message:

- `required`: nothing written;
- `exponent`: "1e9" (a number in scientific notation is never an amount someone means);
- `other_separators`: "1.500,00", "1.500" or "12,5": the other convention's separators (a
  period between thousands, a comma before the cents), which would otherwise read as $1.50
  or be refused without saying why;
- `not_a_number`: letters, misplaced separators ("1,23.5"), several signs;
- `negative`: a minus sign, unless the field allows it;
- `too_many_decimals`: more than two decimals (cents);
- `too_large`: over the field's bound (`MAXIMUM` unless the field names a smaller one).

A `$` and spaces around the amount are forgiven. The value is returned at cents, never
rounded: an amount with a third decimal is refused, not rounded. Amounts in the JSON contract of
`portal calc` are a different thing (plain strings, `portal.core.money.parse_money`).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from babel.numbers import NumberFormatError, get_decimal_symbol, get_group_symbol, parse_decimal

from portal.core.explain import N_
from portal.core.money import cents
from portal.i18n import money
from portal.typed_input import TypedInputError

#: The largest amount any field takes: under 10**12, the NUMERIC(14, 2) columns' limit.
MAXIMUM = Decimal("999999999999.99")

MESSAGES = {
    "required": N_("Write the amount."),
    "exponent": N_("Write the amount in digits, without an exponent (for example 1500.00, "
                   "not 1.5e3)."),
    "other_separators": N_("Write the cents after a period and use commas, or nothing, "
                           "between thousands: 1,500.00 or 1500.00 (not 1.500,00)."),
    "not_a_number": N_("Write the amount with numbers only, for example 125.50."),
    "negative": N_("The amount cannot be negative."),
    "too_many_decimals": N_("Write at most two decimals (the cents)."),
    "too_large": N_("The amount cannot be more than %(maximum)s."),
}

_EXPONENT = re.compile(r"^[-+]?[0-9.,]*[0-9][eE][-+]?[0-9]+$")
_CHARS = re.compile(r"^-?[0-9.,]+$")  # ASCII digits only: "١٢" and "１２" are not amounts


class MoneyInputError(TypedInputError):
    """An amount refused: `code` (a key of `MESSAGES`) and `params` for its message."""

    MESSAGES = MESSAGES

    def shown_params(self) -> dict[str, Any]:
        params = dict(self.params)
        if "maximum" in params:
            params["maximum"] = money(params["maximum"])
        return params


def _other_convention(text: str, decimal: str, group: str) -> bool:
    """Whether `text` is written with the separators swapped (decimal comma, grouping period)."""
    body = text.lstrip("-")
    other_decimal, other_group = group, decimal
    if re.fullmatch(rf"[1-9][0-9]{{0,2}}(?:{re.escape(other_group)}[0-9]{{3}})+"
                    rf"(?:{re.escape(other_decimal)}[0-9]{{1,2}})?", body):
        return True  # 1.500 / 1.500,00 / 12.345.678,9
    # 12,5 / 1500,00
    return bool(re.fullmatch(rf"[0-9]+{re.escape(other_decimal)}[0-9]{{1,2}}", body))


def parse(text: str | None, locale: str = "es_PR", *, allow_negative: bool = False,
          maximum: Decimal = MAXIMUM) -> Decimal:
    """The amount `text` as written in `locale`, at cents; raises `MoneyInputError`."""
    raw = (text or "").replace("\u00a0", " ").strip()
    negative = raw.startswith("-")
    raw = raw[1:].strip() if negative else raw
    raw = raw[1:].strip() if raw.startswith("$") else raw
    if not raw:
        raise MoneyInputError("not_a_number" if negative else "required")
    raw = "-" + raw if negative else raw
    if _EXPONENT.match(raw):
        raise MoneyInputError("exponent")
    if not _CHARS.match(raw):
        raise MoneyInputError("not_a_number")
    decimal, group = get_decimal_symbol(locale), get_group_symbol(locale)
    if _other_convention(raw, decimal, group):
        raise MoneyInputError("other_separators")
    sign, body = (raw[0], raw[1:]) if raw[0] == "-" else ("", raw)
    body = "0" + body if body.startswith(decimal) else body  # ".50"
    if not body or body[0] in ".," or body[-1] in ".," or "-" in body or "+" in body:
        raise MoneyInputError("not_a_number")
    try:
        value = parse_decimal(body, locale=locale, strict=True)
    except (NumberFormatError, InvalidOperation, ValueError):
        raise MoneyInputError("not_a_number") from None
    if not value.is_finite():
        raise MoneyInputError("not_a_number")
    if sign == "-" and value != 0:
        if not allow_negative:
            raise MoneyInputError("negative")
        value = -value
    if value.as_tuple().exponent < -2:
        raise MoneyInputError("too_many_decimals")
    if abs(value) > maximum:
        raise MoneyInputError("too_large", maximum=maximum)
    return cents(value)
