"""A count as a person types it (a number of payments, of rows, of copies): the one parser of
every field that takes a whole number.

`parse(text, minimum=..., maximum=...)` takes ASCII digits only, spaces around forgiven, and
refuses, each with its own code and message:

- `required`: nothing written;
- `not_a_count`: anything but digits ("3.5", "1e3", "-2", "tres", "３");
- `too_small` / `too_large`: outside the field's bounds, which the message names.
"""

from __future__ import annotations

import re

from portal.core.explain import N_
from portal.typed_input import TypedInputError

MESSAGES = {
    "required": N_("Write a number."),
    "not_a_count": N_("Write a whole number with digits only, for example 6."),
    "too_small": N_("The number cannot be less than %(minimum)s."),
    "too_large": N_("The number cannot be more than %(maximum)s."),
}
_DIGITS = re.compile(r"^[0-9]{1,9}$")


class CountInputError(TypedInputError):
    """A count refused: `code` (a key of `MESSAGES`) and `params` for its message."""

    MESSAGES = MESSAGES


def parse(text: str | int | None, *, minimum: int = 0, maximum: int = 10**9) -> int:
    """The whole number `text`, from `minimum` to `maximum`; raises `CountInputError`."""
    if isinstance(text, bool):
        raise CountInputError("not_a_count")
    if isinstance(text, int):
        value = text
    else:
        raw = (text or "").strip()
        if not raw:
            raise CountInputError("required")
        if not _DIGITS.match(raw):
            raise CountInputError("not_a_count")
        value = int(raw)
    if value < minimum:
        raise CountInputError("too_small", minimum=minimum)
    if value > maximum:
        raise CountInputError("too_large", maximum=maximum)
    return value
