"""`apportion_roll` (a whole roll in arrays) gives exactly `assessment_roll`'s cents: R-A2's
exemptions, R-A3's floors and leftover cents, ties by id as text (so 10 before 9)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from portal.core.allocation import ParcelFacts, apportion_roll, assessment_roll, roll_cut
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


fixed_parcel = st.tuples(st.decimals(min_value=0, max_value=500, places=2),
                         st.sampled_from(OWNERS), st.booleans(),
                         st.one_of(st.none(), st.decimals(min_value=0, max_value=5000, places=2)))


@given(st.decimals(min_value=0, max_value=10**5, places=2), st.lists(fixed_parcel, max_size=40))
def test_with_the_boards_fixed_amounts_the_same_cents_as_assessment_roll(total, rows):
    """R-A3: fixed amounts first (an exempt parcel's is ignored), the rest by units."""
    facts = [ParcelFacts(str(k + 1), u, o, t, fixed_amount=f)
             for k, (u, o, t, f) in enumerate(rows)]
    ids = [k + 1 for k in range(len(rows))]
    assessable = [o == "private" or t for _, o, t, _ in rows]
    fixed = {k + 1: f for k, (_, _, _, f) in enumerate(rows) if f is not None}
    try:
        expected = assessment_roll(total, facts)
    except CalcError:
        with pytest.raises(CalcError):
            apportion_roll(total, [u for u, *_ in rows], assessable, ids, fixed)
        return
    cents = apportion_roll(total, [u for u, *_ in rows], assessable, ids, fixed)
    got = {str(k + 1): from_cents_int(c) for k, c in enumerate(cents) if c >= 0}
    assert got == expected.assessments
    assert sum(got.values(), Decimal(0)) == total


def test_a_fixed_amount_is_kept_and_the_rest_is_shared_by_units():
    # 1,000.00: parcel 1 fixed at 400.00; 600.00 over parcels 2 and 3 (1 and 2 units).
    cents = apportion_roll(Decimal("1000.00"), [Decimal(5), Decimal(1), Decimal(2)],
                           [True] * 3, [1, 2, 3], {1: Decimal("400.00")})
    assert list(cents) == [40000, 20000, 40000]
    with pytest.raises(CalcError):
        apportion_roll(Decimal("100.00"), [Decimal(1)] * 2, [True] * 2, [1, 2],
                       {1: Decimal("100.01")})


@given(st.decimals(min_value=0, max_value=10**7, places=2), st.lists(parcel, max_size=60))
def test_ties_cut_by_counting_passes_give_the_same_cents(total, rows):
    """A tied group too large to sort in memory is cut by counting passes (`_nth_text`):
    forced here on every tie, the same cents as `assessment_roll`."""
    from portal.core import allocation
    kept = allocation._SORTED_TIES
    allocation._SORTED_TIES = 0
    try:
        test_the_same_cents_as_assessment_roll.hypothesis.inner_test(total, rows)
    finally:
        allocation._SORTED_TIES = kept


@given(st.sets(st.integers(min_value=1, max_value=10**9), min_size=1, max_size=200),
       st.data())
def test_the_nth_smallest_text_in_constant_memory(ids, data):
    from portal.core.allocation import _nth_text
    keys = sorted(str(i) for i in ids)
    nth = data.draw(st.integers(min_value=1, max_value=len(keys)))
    assert _nth_text(lambda: iter(str(i) for i in ids), nth) == keys[nth - 1]


def test_a_big_roll_holds_no_more_than_its_arrays():
    """R-A3 over 200,000 parcels with ties: the memory the apportionment takes beyond the
    output array is flat (once per distinct units value), not a list per parcel."""
    import tracemalloc
    from array import array
    n = 200_000
    values = [Decimal(k) / 4 for k in range(1, 9)]
    units = [values[k % 8] for k in range(n)]
    ids = array("q", range(1, n + 1))
    tracemalloc.start()
    try:
        cents = apportion_roll(Decimal("1000000.01"), units, bytearray([1]) * n, ids)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sum(cents) == 100000001
    assert peak < 3 * len(cents) * 8 + 2**20, peak  # a list per parcel: over 10 MB


def test_a_cut_gives_each_parcel_its_cents_and_refuses_units_it_never_saw():
    rows = [(1, Decimal(1), True), (2, Decimal(3), True), (3, Decimal(9), False)]
    cut = roll_cut(Decimal("10.00"), lambda _tied: iter(rows))
    assert (cut.parcels, cut.assessed, dict(cut.counts)) == (3, 2, {Decimal(1): 1, Decimal(3): 1})
    assert [cut.cents(1, Decimal(1), True), cut.cents(2, Decimal(3), True),
            cut.cents(3, Decimal(9), False)] == [250, 750, -1]
    with pytest.raises(CalcError):
        cut.cents(4, Decimal(2), True)


def test_a_cut_of_a_big_roll_holds_memory_flat_in_its_size():
    """R-A3 over 200,000 parcels read from a generator, all tied for the one leftover cent (a
    group too large to sort: cut by counting passes over the parcels): nothing kept per
    parcel."""
    import tracemalloc
    n = 200_000

    def parcels(_tied=None):
        return ((k, Decimal("0.25"), True) for k in range(1, n + 1))

    tracemalloc.start()
    try:
        cut = roll_cut(Decimal("1000000.01"), parcels)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sum(cut.cents(k, u, a) for k, u, a in parcels()) == 100000001
    assert cut.cutoff == "1"  # the first id as text takes the cent
    assert peak < 2**18, peak  # a list per parcel: over 1.6 MB
