"""HTML fragments written in Python: the parts a page repeats many times, where a Jinja
macro call or a dozen template expressions per item were a good part of the page's time.

Each returns `Markup`: every text in it is escaped here, and every word comes from the
catalogs (the texts are worded by the views and `portal.i18n`). The markup is checked like
the templates' (the Nu HTML Checker and axe-core run on every page, tests/web, tests/e2e).
The templates call them as globals: `{{ why(steps) }}`, `{{ amounts_list(v.amounts) }}`,
`{{ schedule_rows(v.installments) }}`, `{{ status_badge(status) }}`, `{{ deadline(day, today) }}`
(Python, not macros: importing a macro file costs a new module on every render).
"""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from html import escape as esc
from typing import TYPE_CHECKING

from markupsafe import Markup

from portal.core.explain import N_
from portal.i18n import Formats, ShownStep, formats
from portal.web.present import status_css, status_label

if TYPE_CHECKING:
    from portal.web.accounts.views import ScheduleRow
    from portal.web.present import Amount

WHY = N_("Why this amount?")


def why(steps: list[ShownStep], f: Formats | None = None, about: str = "") -> Markup:
    """The "why this amount?" disclosure under an amount: each step's rule id, its title,
    the statute clause and the text with its numbers (a parcel page shows eleven). `f`: the
    request's `formats()`, when the caller has it. `about`: the amount it explains ("Late
    fees: $68.70"), added to the summary's accessible name only (it looks the same), so a
    screen reader's list of a page's controls tells the eleven apart."""
    if not steps:
        return Markup("")
    items = "".join(f"    <li>{_step_head(s.rule, s.title, s.source)}: {esc(s.text)}</li>\n"
                    for s in steps)
    label = (f or formats()).words(WHY)
    named = f'<span class="usa-sr-only"> ({esc(about)})</span>' if about else ""
    return Markup(f'<details class="portal-why">\n  <summary>{esc(label)}{named}'
                  f'</summary>\n  <ul class="portal-why__steps">\n{items}  </ul>\n</details>')


@lru_cache(maxsize=512)
def _step_head(rule: str, title: str, source: str) -> str:
    """A step's rule id, title and statute clause, escaped: the same few dozen in every
    explanation (remembered; the text after them is the step's own)."""
    return (f'<span class="portal-why__rule">{esc(rule)}</span>'
            f'{" · " + esc(title) if title else ""}{" (" + esc(source) + ")" if source else ""}')


def status_badge(status: str) -> Markup:
    """The status badge: al día / pendiente / vencido, ... (an account's or an installment's)."""
    return Markup(f'<span class="portal-status portal-status--{esc(status_css(status))}">'
                  f'{esc(status_label(status))}</span>')


def deadline(day: date, today: date, f: Formats | None = None) -> Markup:
    """A date as a <time>, with how far it is from today ("quedan 10 días")."""
    f = f or formats()
    return Markup(f'<time datetime="{day.isoformat()}">{esc(f.date_long(day))}</time> '
                  f'({esc(f.days_left(day, today))})')


def amounts_list(amounts: list[Amount], f: Formats | None = None) -> Markup:
    """The parcel page's "what you owe": each figure of the statement (R-A7 to R-A11) with
    its amount and, under it, why."""
    f = f or formats()
    money = f.money
    items = "".join(
        f'  <div>\n    <dt>{esc(a.label)}</dt>\n'
        f'    <dd><span class="portal-money">{esc(shown)}</span>'
        f'{why(a.why, f, f"{a.label}: {shown}")}</dd>\n'
        f'  </div>\n' for a in amounts for shown in (money(a.amount),))
    return Markup(f'<dl class="portal-amounts">\n{items}</dl>')


SCHEDULE_HEAD = (N_("No."), N_("Due date"), N_("Last timely day"), N_("Amount"),
                 N_("Principal owed"), N_("Late fee owed"), N_("Interest owed"), N_("Status"))


def schedule_rows(rows: list[ScheduleRow], f: Formats | None = None) -> Markup:
    """The rows of the parcel page's installment schedule (R-A4 to R-A8): number, due date,
    last timely day (with the days left while it can still be paid on time), amount,
    principal, late fee and interest owed, and the status badge. The table's head and
    caption are in templates/accounts/parcel.html (its column names are `SCHEDULE_HEAD`).
    Each cell carries its column's name (`data-label`): on a narrow screen the rows stack
    (portal.css), each value under its name, and a paid installment's amounts owed and any
    zero late fee or interest are left out there (`is-paid`, `portal-zero`); the table never
    scrolls sideways."""
    words = (f or formats()).words
    no, due, last, amount, principal, fee, interest, status = (
        esc(words(w), quote=True) for w in SCHEDULE_HEAD)
    out = []
    for i in rows:
        left = f' <span class="portal-left">({esc(i.left_text)})</span>' if i.left_text else ""
        paid = ' class="is-paid"' if i.status == "paid" else ""
        out.append(
            f'  <tr{paid}>\n    <th scope="row" data-label="{no}">{i.number}</th>\n'
            f'    <td data-label="{due}"><time datetime="{i.due_date}">{esc(i.due_text)}'
            f'</time></td>\n'
            f'    <td data-label="{last}"><time datetime="{i.last_timely_day}">'
            f'{esc(i.last_text)}</time>{left}</td>\n'
            f'    <td data-label="{amount}" class="portal-money">{esc(i.amount_text)}</td>\n'
            f'    <td data-label="{principal}" class="portal-money portal-owed">'
            f'{esc(i.principal_text)}</td>\n'
            f'    <td data-label="{fee}" class="portal-money portal-owed'
            f'{"" if i.late_fee else " portal-zero"}">{esc(i.late_fee_text)}</td>\n'
            f'    <td data-label="{interest}" class="portal-money portal-owed'
            f'{"" if i.interest else " portal-zero"}">{esc(i.interest_text)}</td>\n'
            f'    <td data-label="{status}" class="portal-schedule__status">'
            f'<span class="portal-status portal-status--{esc(i.status_css)}">'
            f'{esc(i.status_label)}</span></td>\n  </tr>\n')
    return Markup("".join(out))
