"""`apportion_roll` (a whole roll in arrays) gives exactly `assessment_roll`'s cents: R-A2's
exemptions, R-A3's floors and leftover cents, ties by id as text (so 10 before 9)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from portal.core.allocation import ParcelFacts, apportion_roll, assessment_roll
from portal.core.errors import CalcError
from portal.core.money import from_cents_int

OWNERS = ("private", "authority", "public")
parcel = st.tuples(st.decimals(min_value=0, max_value=500, places=2),
                   st.sampled_from(OWNERS), st.booleans())


def _both(total: Decimal, rows: list[tuple[Decimal, str, bool]]):  # noqa: ANN202
    facts = [ParcelFacts(str(k + 1), u, owner, transferred)
             for k, (u, owner, transferred) in enumerate(rows)]
    ids = [k + 1 for k in range(len(rows))]
    assessable = [owner == "private" or transferred for _, owner, transferred in rows]
    return facts, apportion_roll(total, [u for u, _, _ in rows], assessable, ids)


@given(st.decimals(min_value=0, max_value=10**7, places=2), st.lists(parcel, max_size=60))
def test_the_same_cents_as_assessment_roll(total, rows):
    facts, cents = None, None
    try:
        facts, cents = _both(total, rows)
    except CalcError:
        with pytest.raises(CalcError):
            assessment_roll(total, [ParcelFacts(str(k + 1), u, o, t)
                                    for k, (u, o, t) in enumerate(rows)])
        return
    expected = assessment_roll(total, facts)
    got = {str(k + 1): from_cents_int(c) for k, c in enumerate(cents) if c >= 0}
    assert got == expected.assessments
    assert sorted(str(k + 1) for k, c in enumerate(cents) if c < 0) == expected.exempt


def test_ties_go_to_the_smaller_id_as_text():
    # 1.00 over three equal parcels: 33 cents each and one left, to "10" (before "2", "9").
    cents = apportion_roll(Decimal("1.00"), [Decimal(1)] * 3, [True] * 3, [9, 10, 2])
    assert list(cents) == [33, 34, 33]
