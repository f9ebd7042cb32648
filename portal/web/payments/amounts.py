"""Money typed by a person on a payments page (the pay page's "other amount", the office form
and the refund form), read by the one parser of typed amounts (`portal.money_input`). A
refusal is a `ChoiceError` whose code is `money_<reason>` (`present.error_text` words it);
the amount's limits against the account are the core's (`portal.core.offer`)."""

from __future__ import annotations

from decimal import Decimal

from portal import money_input
from portal.core.offer import ChoiceError


def parse_amount(text: str | None, locale: str) -> Decimal:
    """The amount typed in `locale`, at cents; `ChoiceError("money_<reason>")` otherwise."""
    try:
        return money_input.parse(text, locale)
    except money_input.MoneyInputError as e:
        raise ChoiceError(f"money_{e.code}", **e.params) from None
