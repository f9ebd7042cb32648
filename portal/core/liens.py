"""The rank of the District assessment's statutory tacit lien: R-A15 (23 LPRA § 6432(e))."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from portal.core.errors import CalcError

CUTOFF = date(2000, 9, 2)  # § 6432(e)(3): "any lien constituted before September 2, 2000"
KINDS = ("fiscal_act21_1997", "property_tax", "district_assessment", "mortgage", "other")


@dataclass(frozen=True)
class Lien:
    id: str
    kind: str
    constituted_on: date  # a mortgage is constituted when recorded in the Registry


@dataclass(frozen=True)
class LienOrder:
    senior: list[str]
    district: list[str]
    junior: list[str]


def lien_order(liens: Sequence[Lien]) -> LienOrder:
    """R-A15, 23 LPRA § 6432(e): senior = the Act 21 (1997) fiscal lien, the property-tax
    lien and any lien constituted before 2000-09-02; then the District's; then the rest,
    whatever its date. The statute does not rank the senior ones among themselves: each list
    is ordered by date, then id, which is advisory only.
    """
    groups: dict[str, list[Lien]] = {"senior": [], "district": [], "junior": []}
    for lien in liens:
        if lien.kind not in KINDS:
            raise CalcError(f"must be one of {', '.join(KINDS)}", field="kind")
        if lien.kind in ("fiscal_act21_1997", "property_tax"):
            groups["senior"].append(lien)
        elif lien.kind == "district_assessment":
            groups["district"].append(lien)
        elif lien.constituted_on < CUTOFF:
            groups["senior"].append(lien)
        else:
            groups["junior"].append(lien)
    ordered = {k: [x.id for x in sorted(v, key=lambda x: (x.constituted_on, x.id))]
               for k, v in groups.items()}
    return LienOrder(**ordered)
