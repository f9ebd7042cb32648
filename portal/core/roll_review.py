"""The roll's review before publication (J8): why a parcel is exempt (R-A2), and the
histogram of the shares (R-A3) with the geometry of its chart.

Pure: the service gives the figures it read with aggregate queries (a count per owner kind,
the smallest and largest share, a count per bin), never the lines themselves, so a roll of
1.5 million parcels is reviewed from a few numbers. Amounts are handled as integer cents
(`portal.core.money`), so the bins' edges are exact and no amount is ever rounded here.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from portal.core.allocation import ParcelFacts, is_assessable
from portal.core.explain import N_

#: Why a parcel is exempt (R-A2), by code: the rule's own words.
EXEMPT_REASONS: dict[str, str] = {
    "authority": N_("Land of the Authority, not sold, leased, subleased or otherwise "
                    "transferred as a private parcel."),
    "public": N_("Land of another public owner, not transferred as a private parcel."),
    # The line says exempt but the parcel's facts now say it is assessed: the parcel changed
    # after the roll was computed (an import), so the roll is to be computed again.
    "changed": N_("The parcel's facts changed after the roll was computed: compute the roll "
                  "again."),
}


def exemption_reason(owner: str, transferred: bool) -> str | None:
    """R-A2, 23 LPRA § 6432(a), (c): why a parcel is exempt, as a code of `EXEMPT_REASONS`
    ("authority": the Authority's land not transferred; "public": another public owner's,
    not transferred), or None when it is assessed (`allocation.is_assessable`, the same test
    the roll's computation applies). An incentives-program exemption is never a reason."""
    if is_assessable(ParcelFacts("", Decimal(0), owner, transferred)):
        return None
    return "authority" if owner == "authority" else "public"


#: The bins' widths in cents, smallest first: 1, 2, 2.5 and 5 times a power of ten.
STEPS: tuple[int, ...] = tuple(sorted({m * 10 ** k for k in range(16) for m in (1, 2, 5)}
                                      | {25 * 10 ** k for k in range(15)}))
MOST_BINS = 12


def bin_edges(low: int, high: int, most: int = MOST_BINS) -> list[int]:
    """The edges, in cents, of at most `most` bins of one round width (1, 2, 2.5 or 5 times a
    power of ten dollars or cents) covering `low`..`high` (cents): the first edge is a
    multiple of the width at or below `low`, the last at or above `high`. Bin k holds the
    amounts from edge k up to (not including) edge k+1; the last bin includes its upper edge.
    Every share equal: a single bin from `low` to `high`."""
    if low > high:
        raise ValueError("low must not be above high")
    if most < 1:
        raise ValueError("at least one bin")
    if low == high:
        return [low, high]
    for step in STEPS:
        start = (low // step) * step
        n = max(1, -(-(high - start) // step))
        if n <= most:
            return [start + k * step for k in range(n + 1)]
    raise ValueError("amounts too large to bin")  # pragma: no cover - beyond any money


def bin_index(amount: int, edges: Sequence[int]) -> int:
    """The bin of `amount` (cents) among `edges` (`bin_edges`): the same rule as the SQL the
    service groups by (`amount < edge[k+1]` for bin k, the last bin closed)."""
    if not edges[0] <= amount <= edges[-1]:
        raise ValueError("amount outside the bins")
    return min(bisect_right(edges, amount) - 1, len(edges) - 2)


@dataclass(frozen=True)
class Bar:
    """One bin's bar in the chart's coordinates (the SVG's user units): a row, from the axis
    to the right, its range written left of the axis and its count after the bar."""

    index: int
    low: int  # cents
    high: int  # cents
    count: int
    x: int
    y: int
    width: int
    height: int
    text_y: int  # the baseline of the row's two texts
    count_x: int  # where the count starts


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    axis_x: int  # the axis (the bars start there); the ranges end just left of it
    label_x: int
    top: int
    bottom: int
    bars: list[Bar]
    largest: int  # the longest bar's count


WIDTH = 400  # a phone shows it at about 0.86 scale: its text stays legible
ROW = 24
LABELS = 156  # room for a range such as "$1,250,000–$1,500,000"
COUNTS = 64  # room for a count such as "1,500,000" after the longest bar
PAD = 6


def chart(edges: Sequence[int], counts: Sequence[int], *, width: int = WIDTH) -> Chart:
    """The bars of a histogram drawn as rows, one per bin from the lowest amounts down:
    lengths in proportion to the counts (a bin with any parcel at least one unit long), the
    bin's range left of the axis and its count after the bar, so no text overlaps another
    whatever the figures. Integer coordinates in a `width`-wide box."""
    if len(edges) != len(counts) + 1 or not counts:
        raise ValueError("one count per bin")
    if any(c < 0 for c in counts):
        raise ValueError("counts must not be negative")
    axis = LABELS
    longest = width - axis - COUNTS
    largest = max(counts)
    bars = []
    for k, count in enumerate(counts):
        length = 0 if largest == 0 else max(1 if count else 0, count * longest // largest)
        y = PAD + k * ROW
        bars.append(Bar(k, edges[k], edges[k + 1], count, axis, y + 3, length, ROW - 6,
                        y + ROW // 2 + 5, axis + length + PAD))
    bottom = PAD + len(counts) * ROW
    return Chart(width, bottom + PAD, axis, axis - PAD, PAD, bottom, bars, largest)


# --- Why an amendment's net change is not the budget's change (R-A3, R-A5) -------------------

#: Each part of the difference between an amendment's net change and its budget's change,
#: by code: what it is, in the reviewer's words.
NET_PARTS: dict[str, str] = {
    "budget": N_("Change of the total to assess (the budget's change)"),
    "outside_roll": N_("Assessed after the earlier roll, outside it (parcels exempt in that "
                       "roll that became assessable, such as Authority land sold): already "
                       "charged, so the new shares take it off"),
    "earlier_rounding": N_("The earlier assessments in force differ from the earlier total to "
                           "assess (rounding or individual corrections)"),
    "new_rounding": N_("The new roll's shares differ from the new total to assess (rounding)"),
    "removed": N_("Parcels no longer on the roll: their earlier amounts are not compared"),
}


@dataclass(frozen=True)
class NetChange:
    """R-A5: an amendment's net change (the new amounts less the earlier ones of the parcels
    on the roll), as the budget's change plus the parts that make it differ, so a reviewer
    sees why. The parts (`parts`) sum exactly to `net`."""

    net: Decimal
    parts: tuple[tuple[str, Decimal], ...]  # (NET_PARTS code, amount), the budget's first

    @property
    def explained(self) -> bool:
        return sum((a for _, a in self.parts), Decimal("0.00")) == self.net


def net_change(*, total_before: Decimal, total_after: Decimal, assessed_after: Decimal,
               earlier: Decimal, outside_roll: Decimal, removed: Decimal) -> NetChange:
    """The parts of an amendment's net change (all amounts exact, in dollars and cents):
    `total_before`/`total_after`: the earlier and the new version's totals to assess;
    `assessed_after`: what the new roll assesses (its shares, exempt lines 0); `earlier`: the
    earlier assessments in force (every parcel of the year); `outside_roll`: the part of them
    charged outside the earlier roll (a parcel exempt or not on it, assessed later);
    `removed`: the part of them whose parcel has no line in the new roll.

    net = assessed_after - (earlier - removed)
        = budget + new_rounding - outside_roll + earlier_rounding + removed."""
    net = assessed_after - (earlier - removed)
    parts = (("budget", total_after - total_before),
             ("outside_roll", -outside_roll),
             ("earlier_rounding", total_before - (earlier - outside_roll)),
             ("new_rounding", assessed_after - total_after),
             ("removed", removed))
    shown = tuple(p for p in parts if p[0] == "budget" or p[1] != 0)
    return NetChange(net, shown)
