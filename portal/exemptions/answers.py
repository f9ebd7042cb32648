"""The one validator of a residential-exemption certification's answers (R-B1 to R-B4,
R-B14, R-B21), used by the owner's wizard (`filings.save_step`), the lender's CSV and the
lenders' API (`portal.lenders.batches.check_row`).

Each function takes what a person typed (text, or a date or number a form already read) and
gives the answer as the certification stores it (text), or raises `AnswerRefused` naming
the answer and the reason (a code the wizard and the batch report both translate).
"""

from __future__ import annotations

import unicodedata
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from portal import date_input, money_input
from portal.core.explain import N_

#: Why a veteran's amount is refused (R-B3), for the wizard and the lender's report alike.
VETERAN_OVER_VALUATION = N_("The veterans' exemption cannot be more than the property's "
                            "valuation on the CRIM's facts, %(maximum)s (R-B3).")

#: The bounds of the parts a certification states: the residential fraction (R-B3) and a
#: cooperative unit's share (R-B4), each above 0 and at most the whole.
FRACTION_MIN = Decimal("0.0001")
SHARE_MIN = Decimal("0.000001")

#: R-B4: what a housing cooperative elects for its units: the residential exemption unit by
#: unit, or the cooperatives law's exemption instead.
COOP_ELECTIONS = ("residential", "cooperative_law")


class AnswerRefused(ValueError):
    """An answer refused: `field` (the answer) and `reason` (a code), with `params`."""

    def __init__(self, field: str, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.field, self.reason, self.params = field, reason, params


def _part(value: Any, field: str, reason: str, lo: Decimal) -> Decimal:
    text = str(value if value is not None else "").strip()
    try:
        d = Decimal(text)
    except (InvalidOperation, ValueError):
        raise AnswerRefused(field, reason) from None
    if not d.is_finite() or d < lo or d > 1 or "e" in text.lower():
        raise AnswerRefused(field, reason)
    return d


def fraction(value: Any) -> Decimal:
    """R-B3: the part of the property used as the home, from `FRACTION_MIN` to 1."""
    return _part(value, "fraction", "bad_fraction", FRACTION_MIN)


def unit_share(value: Any) -> Decimal:
    """R-B4: a cooperative unit's share of the whole, from `SHARE_MIN` to 1."""
    return _part(value, "unit_share", "bad_share", SHARE_MIN)


def amount(value: Any, field: str) -> Decimal:
    """A dollar amount (the residential valuation, R-B3; the veteran's exemption, R-B14):
    read by the one parser of typed amounts; refused as `money_<code>`."""
    text = value if isinstance(value, str) else ("" if value is None else str(value))
    try:
        return money_input.parse(text, "es_PR")
    except money_input.MoneyInputError as e:
        raise AnswerRefused(field, f"money_{e.code}",
                            **{k: str(v) for k, v in e.params.items()}) from None


def veteran_amount(value: Any, valuation: Decimal | None) -> Decimal:
    """R-B3, R-B14: the veterans' exemption, an amount of valuation deducted from the
    property's valuation before the residential exemption: read by the one parser of typed
    amounts and at most the property's valuation on the CRIM's facts (`valuation`; more
    would only zero the bill), refused as `veteran_over_valuation` with that bound."""
    amount_ = amount(value, "veteran_amount")
    if valuation is not None and amount_ > valuation:
        raise AnswerRefused("veteran_amount", "veteran_over_valuation", maximum=str(valuation))
    return amount_


#: R-B7, R-B14: the longest answer to "who lives in the home" (a household's names and
#: relationships fit in far less; 20 kB is not an answer).
OCCUPANTS_MAX = 1000


def occupants(value: Any) -> str:
    """R-B7, R-B14: who lives in the home and their relationship to the owner: some text
    (`occupants_required`), at most `OCCUPANTS_MAX` characters (`occupants_too_long`), its
    spaces tidied."""
    text = " ".join(str(value if value is not None else "").split())
    if not text:
        raise AnswerRefused("occupants", "occupants_required")
    if len(text) > OCCUPANTS_MAX:
        raise AnswerRefused("occupants", "occupants_too_long", most=OCCUPANTS_MAX)
    return text


def deed_date(value: Any, today: date, lang: str = "es") -> date:
    """R-B21: the deed date of a new structure bought after January 1, not after today (a
    date, or written as the one date parser reads it: YYYY-MM-DD, or the reader's own form)."""
    if not isinstance(value, date | str):
        raise AnswerRefused("deed_date", "bad_date")
    try:
        return date_input.parse(value, lang, not_after=today)
    except date_input.DateInputError as e:
        raise AnswerRefused("deed_date", "date_in_future" if e.code == "after"
                            else "bad_date") from None


def comparable_name(text: str) -> str:
    """A name as two spellings of it compare: no accents, lower case, single spaces
    ("MARÍA  rivera" is "maria rivera")."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def cooperative_name(value: Any) -> str:
    """R-B4, R-B20: the housing cooperative's name as written (single spaces, 2 to 200
    characters): its election is found and recorded under it (`comparable_name`)."""
    text = " ".join(str(value or "").split())
    if len(comparable_name(text)) < 2 or len(text) > 200:
        raise AnswerRefused("cooperative_name", "cooperative_name")
    return text
