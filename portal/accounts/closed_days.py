"""Why a last day moved: the day the Board declared closed behind it, said the same way on the
parcel page, in the PDFs (the statement, the assessment notice, the demand letter) and in
the emails (docs/rules/README.md, Conventions "Last days roll over"; R-A6, R-A11, R-A13).

The days come from one source, `in_force.closed_days` (the files' and the recorded
ones, with their reasons in both languages and their resolutions); the core finds the one
behind a moved day (`core.closures`) and words it as a step of a trace, which each caller
renders in its reader's language (`Formats.trace`). Nothing here computes a last day: each
is the one the caller already states (the statement's last timely days, the lump sum's
deadline, the demand's last day), against the day it would have been.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

from portal.accounts import in_force
from portal.core import params
from portal.core.calendar import within_days
from portal.core.closures import (
    closed_day_behind,
    explain_deadline_extension,
    explain_extensions,
)
from portal.core.explain import N_, Localized, Trace
from portal.core.params import ClosedDay
from portal.db import UnitOfWork


def declared(uow: UnitOfWork) -> tuple[ClosedDay, ...]:
    """Every day the Board declared closed, with its reason and resolution."""
    return in_force.closed_days(uow)


def installments(rows: Iterable[tuple[int, date, date]], grace: int,
                 closed: Sequence[ClosedDay]) -> Trace:
    """R-A6: a step for each installment (number, due date, last timely day) whose last
    timely day a declared closed day moved."""
    return explain_extensions(rows, grace, closed)


def lump_sum(quote: Any, first_due: date | None, deadline: date | None,
             closed: Sequence[ClosedDay]) -> Trace:
    """R-A11: the step saying a declared closed day moved the lump sum's deadline (`quote`'s,
    rolled) from the Board's `deadline` (else the first installment's due date)."""
    unrolled = deadline or first_due
    if quote.deadline is None or unrolled is None:
        return Trace()
    return explain_deadline_extension(N_("The lump-sum deadline"), unrolled, quote.deadline,
                                      closed)


def demand(mailed_on: date | None, last_day: date | None,
           closed: Sequence[ClosedDay]) -> Trace:
    """R-A13: the step saying a declared closed day moved the demand's last day to pay
    (`last_day`, rolled) from the 15th day after its mailing."""
    t = Trace()
    if mailed_on is None or last_day is None:
        return t
    unrolled = within_days(mailed_on, params.value("demand_payment_days", mailed_on))
    c = closed_day_behind(unrolled, last_day, closed)
    if c is not None:
        t.add("R-A13", N_("{what} was extended to {last} because the Board declared {day} "
                          "closed ({reason}, {reference})."),
              what=N_("The demand's last day to pay"), last=last_day, day=c.day,
              reason=Localized(c.reason_es, c.reason_en),
              reference=Localized(c.reference, c.reference))
    return t


__all__ = ["ClosedDay", "declared", "demand", "installments", "lump_sum"]
