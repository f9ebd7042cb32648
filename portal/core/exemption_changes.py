"""Change reports of the residential exemption (J6): R-B5, R-B7, R-B9, R-B12 (docs/rules
R-B17 to R-B19 decide what a report contains and what follows it).

A taxpayer who filed the certification must report any change in the qualifications and any
transfer of the property **before January 1 following the change** (Exoneración residencial
(e)): the last good day is December 31 of the change's year, a date the law fixes, so it does
not roll over a weekend or a holiday (R-B9, `deadlines.change_report`). Where the property
secures a loan the owner reports to the lender and the lender to the CRIM, both before that
date. A late report is accepted and flagged; it does not move the first fiscal year the change
affects (R-B18). The explanation of each consequence is a `Trace` of rule ids and catalog
messages, as every figure of the core is.

Choices where docs/rules leaves the case open (pinned by tests/cases/exemption_changes.yaml):
- the change affects the first fiscal year whose January 1 comes *after* the change's date
  (R-B15, R-B18): a change on 2026-03-15, or on 2026-01-01 itself, counts from FY 2027-2028,
  the first year judged on a January 1 that the report is due before;
- `days_left` counts calendar days from the day of the report to December 31 (0 on the last
  day itself; 0 once late);
- a change dated after the day of the report is refused (a report states a change made);
- R-B12's intent: failing to report a transfer or change of ownership (a sale, a co-owner
  added or removed, a spouse's death, R-B19) is a misdemeanor whatever the intent; failing to
  report a change in qualifications (divorce included, policy) only when intentional.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from portal.core import deadlines
from portal.core.errors import CalcError
from portal.core.exemption import (
    FALSE_STATEMENT_WARNING,
    Penalty,
    false_statement_penalty,
    surviving_spouse_keeps,
)
from portal.core.explain import N_, Trace

#: R-B17: every kind of change a report may state (section D `change_report`), which the
#: owner's form offers and the stored reports' constraint allows.
REPORT_KINDS = ("moved", "rented", "use_changed", "sold_or_transferred", "co_owner_changed",
                "spouse_died", "divorce", "other")
KINDS = REPORT_KINDS
#: R-B12, R-B19: a transfer or change of ownership; failing to report one is a misdemeanor
#: whatever the intent (the text names none), unlike a change in qualifications.
OWNERSHIP_KINDS = ("sold_or_transferred", "co_owner_changed", "spouse_died")


@dataclass(frozen=True)
class ChangeFacts:
    """What the owner reports: the kind of change, its date, the day of the report."""

    kind: str
    change_date: date
    reported_on: date  # the Puerto Rico day the report is made (or today, for a preview)
    has_loan: bool = False  # the property secures a loan: the lender forwards the report
    original_titleholder: bool = False  # spouse_died: named on the approved certification
    residential_use_continues: bool = False  # spouse_died: the survivor still lives there


@dataclass(frozen=True)
class ChangeOutcome:
    deadline: date  # December 31 of the change's year (R-B9), fixed
    days_left: int  # calendar days from the report to the deadline; 0 on it, 0 once late
    late: bool  # reported after the deadline: accepted and flagged (R-B18)
    affects_fiscal_year: int  # the start year of the first FY the change counts from
    exemption_continues: bool  # the surviving spouse keeps it (R-B5)
    revoked: bool  # the exemption ends (or is reviewed) from that fiscal year
    lender_forwards: bool  # R-B9: the owner reports to the lender, the lender to the CRIM
    penalty: Penalty  # R-B12: intentionally failing to report a change
    trace: Trace
    #: R-B12 as every warning of the report words it (the form, the receipt page, the email):
    #: `FALSE_STATEMENT_WARNING` (intent named for a change in qualifications only), then
    #: what failing to report this kind of change is.
    warning: Trace | None = None


def fiscal_year_label(start_year: int) -> str:
    return f"{start_year}-{start_year + 1}"


def change_outcome(f: ChangeFacts) -> ChangeOutcome:
    """R-B9, Exoneración residencial (e): the deadline of a change report (December 31 of the
    change's year, fixed), the days left and whether it is late; R-B7 (d) and R-B5 (b): what
    the change does to the exemption; R-B12 (g)(2): the penalty for intentionally failing to
    report it. R-B17 (what a report states, late reports accepted), R-B18 (from which
    fiscal year a change counts; a late report does not move it) and R-B19 (the surviving
    spouse) are the policy followed."""
    if f.kind not in REPORT_KINDS:
        raise CalcError(f"must be one of {', '.join(REPORT_KINDS)}", field="kind")
    if f.change_date > f.reported_on:
        raise CalcError("cannot be after the day of the report", field="change_date")
    last = deadlines.change_report(f.change_date)
    late = f.reported_on > last
    days_left = 0 if late else (last - f.reported_on).days
    affects = f.change_date.year + 1  # FY Y-(Y+1) is judged on January 1 of Y (R-B15)
    fy = fiscal_year_label(affects)
    t = Trace()
    t.add("R-B9", N_("A change on {change} must be reported before January 1 following it: "
                     "the last day is {deadline}, a date fixed by law that does not move to "
                     "the next working day."), change=f.change_date, deadline=last)
    if late:
        t.add("R-B9", N_("On {on}, after {deadline}: the report is accepted and "
                         "marked late. A late report does not change the year the change "
                         "counts from (R-B18)."), on=f.reported_on, deadline=last)
    elif days_left == 0:
        t.add("R-B9", N_("As of {on}: it is the last day to report it."), on=f.reported_on)
    else:
        t.add("R-B9", N_("As of {on}, days left until the last day: {days}."),
              on=f.reported_on, days=days_left)
    if f.has_loan:
        t.add("R-B9", N_("The property secures a loan: you report the change to your lender, "
                         "and the lender reports it to the CRIM, both by {deadline}."),
              deadline=last)
    continues = False
    if f.kind == "spouse_died":
        continues = surviving_spouse_keeps(f.original_titleholder, f.residential_use_continues)
        if continues:
            t.add("R-B5", N_("A surviving spouse who is an original titleholder keeps the "
                             "exemption without a new filing, as long as the property is "
                             "still used as the home on each January 1 (R-B19). The death is "
                             "still reported as a change of ownership."))
        else:
            t.add("R-B5", N_("The exemption continues only for a surviving spouse who is an "
                             "original titleholder and still lives there. Otherwise it ends "
                             "from fiscal year {fy}, and an heir who lives there may file a "
                             "new certification (R-B19)."), fy=fy)
    elif f.kind == "moved":
        t.add("R-B7", N_("The property is no longer the home of the owner or family: the "
                         "exemption ends from fiscal year {fy}, the first judged on a January "
                         "1 after the change (R-B18). Living away temporarily for one of the "
                         "reasons of the law (caring for a relative aged 60 or older, the "
                         "owner's own illness or disability), with no rent received, is no "
                         "ground to revoke it (R-B8)."), fy=fy)
    elif f.kind == "rented":
        t.add("R-B7", N_("Rent received for the property means it is no longer residential "
                         "for the exemption: it ends from fiscal year {fy} (R-B18), for the "
                         "rented part or the whole."), fy=fy)
    elif f.kind == "sold_or_transferred":
        t.add("R-B7", N_("After a sale or transfer the exemption does not pass to the new "
                         "owner: it ends from fiscal year {fy}, and the buyer files a new "
                         "certification (R-B18)."), fy=fy)
    elif f.kind == "co_owner_changed":
        t.add("R-B6", N_("A co-owner added or removed changes who owns the property: the CRIM "
                         "reviews who may hold the exemption from fiscal year {fy} (R-B6, "
                         "R-B18)."), fy=fy)
    elif f.kind == "use_changed":
        t.add("R-B7", N_("If the property, or part of it, is no longer used as a home, the "
                         "exemption ends or is reduced from fiscal year {fy} (R-B2, R-B18)."),
              fy=fy)
    else:
        t.add("R-B7", N_("The CRIM reviews the change: if on January 1 the property no longer "
                         "qualifies, the exemption ends from fiscal year {fy} (R-B18)."), fy=fy)
    revoked = not continues
    if revoked:
        t.add("R-B12", N_("For each year the exemption no longer applies, the property tax is "
                          "billed without it, and the taxes owed after the revocation must be "
                          "paid."))
    p = false_statement_penalty(intent_required=f.kind not in OWNERSHIP_KINDS)
    t.add("R-B12", _penalty_text(f.kind), fine=p.fine, months=p.prison_months)
    warning = Trace()
    warning.add("R-B12", FALSE_STATEMENT_WARNING)
    warning.add("R-B12", _penalty_text(f.kind), fine=p.fine, months=p.prison_months)
    return ChangeOutcome(last, days_left, late, affects, continues, revoked, f.has_loan, p, t,
                         warning)


def _penalty_text(kind: str) -> str:
    """R-B12, (g)(2): what failing to report this kind of change is (a message id with the
    placeholders {fine} and {months}): intent is named for a change in qualifications only."""
    if kind == "sold_or_transferred":
        return N_("Failing to report a transfer of the property is a misdemeanor, whatever "
                  "the intent: a fine of {fine}, {months} months in prison, or both, plus "
                  "the taxes owed after the revocation.")
    if kind in OWNERSHIP_KINDS:
        return N_("Failing to report a change in the ownership of the property is a "
                  "misdemeanor, whatever the intent: a fine of {fine}, {months} months in "
                  "prison, or both, plus the taxes owed after the revocation.")
    return N_("Intentionally failing to report a change in your qualifications is a "
              "misdemeanor: a fine of {fine}, {months} months in prison, or both, plus the "
              "taxes owed after the revocation.")


@dataclass(frozen=True)
class Revocation:
    """R-B15, R-B18: what revoking an approved exemption on a change does, year by year."""

    from_fiscal_year: int  # the start year of the first fiscal year without the exemption
    fiscal_years: tuple[int, ...]  # the years billed again without it (start years), in order
    trace: Trace


def revocation(change_date: date, acknowledged_on: date, approved_fiscal_year: int
               ) -> Revocation:
    """R-B15, R-B18, Exoneración residencial (d), (g)(2): the exemption approved for fiscal
    year `approved_fiscal_year` (its start year; R-B15: it continues from year to year) ends
    with a change on `change_date`, which staff acknowledged on `acknowledged_on` (a Puerto
    Rico day).

    Reading of the rules (policy, pinned by tests/cases/exemption_changes.yaml):
    - the first year without it is the first fiscal year judged on a January 1 after the
      change (`change_outcome`'s `affects_fiscal_year`), or the approved year itself when it
      is later (a certification is not revoked for years it never covered);
    - the years affected are that year and every later one up to the fiscal year in course on
      the day of the acknowledgement (July 1 opens a year), or that first year alone when it
      has not begun: each is billed without the exemption (R-B18: a late report does not move
      the first year; the non-exempt tax is billed for each year affected). The years after
      are simply not exempt until a new certification is approved (R-B18: after a sale the
      buyer files anew).
    An acknowledgement dated before the change is an input error naming `acknowledged_on`."""
    if acknowledged_on < change_date:
        raise CalcError("cannot be before the change", field="acknowledged_on")
    first = max(change_date.year + 1, approved_fiscal_year)
    in_course = acknowledged_on.year if acknowledged_on.month >= 7 else acknowledged_on.year - 1
    years = tuple(range(first, max(first, in_course) + 1))
    t = Trace()
    t.add("R-B18", N_("The change on {change} counts from fiscal year {fy}, the first judged "
                      "on a January 1 after it: from that year the property no longer has the "
                      "residential exemption."), change=change_date, fy=fiscal_year_label(first))
    if len(years) > 1:
        t.add("R-B18", N_("Fiscal years {first} to {last} are billed again without the "
                          "exemption: a late report does not move the year the change counts "
                          "from."), first=fiscal_year_label(years[0]),
              last=fiscal_year_label(years[-1]))
    else:
        t.add("R-B18", N_("Fiscal year {fy} is billed without the exemption."),
              fy=fiscal_year_label(first))
    t.add("R-B15", N_("The exemption does not continue to later years: a new certification "
                      "must be filed and approved for the property to have it again."))
    return Revocation(first, years, t)
