"""The parts a page repeats many times, written out here rather than as Jinja macros, and
called from the templates as globals (`portal.app`): {{ why(steps) }},
{{ amounts_list(v.amounts) }}, {{ schedule_rows(v.installments) }}, {{ status_badge(status) }},
{{ deadline(day, today) }}.

The parcel page calls them about twenty times (a dozen explanations, the twelve rows of its
schedule): a Jinja macro call is a derived context, a frame of its own and an escape for every
expression, which was about a third of the page's template. Here each is one list of strings
joined once. The markup is the macros' as they were, byte for byte: every word comes from the
catalogs (in the language in force, as the macros' `_` gave it), every text is escaped, and a
text that is already markup (`Markup`) is kept as it is. `f` is the request's `formats()`
when the caller has it (`portal.i18n.Formats`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from markupsafe import Markup

from portal import i18n
from portal.core.explain import N_, translator
from portal.web.present import status_css, status_label

#: The words of the parts (extracted with `N_`, translated when a part is written).
WHY = N_("Why this amount?")
SCHEDULE_LABELS = (N_("No."), N_("Due date"), N_("Last timely day"), N_("Amount"),
                   N_("Principal owed"), N_("Late fee owed"), N_("Interest owed"), N_("Status"))


def escape(value: Any) -> str:
    """`markupsafe.escape`'s text (markup kept as it is; & < > ' " escaped in anything
    else), as a plain string: these parts join many short texts and make one `Markup` of
    them at the end."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return (str(value).replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
            .replace("'", "&#39;").replace('"', "&#34;"))


def _words(*messages: str) -> list[Markup]:
    """The catalog's text of each message in the language in force, as markup (the
    templates' `_`: a translation is not escaped; "%%" is one "%")."""
    tr = translator(i18n.current_language())
    out = []
    for m in messages:
        text = Markup(tr.gettext(m))
        out.append(text % {} if "%" in text else text)
    return out


def why(steps: Iterable[Any] | None, f: i18n.Formats | None = None, about: Any = "") -> Markup:
    """The "why this amount?" disclosure under an amount: each step's rule id, its title, the
    statute clause and the text with its numbers (`ShownStep`s). `about`: the amount it
    explains ("Late fees: $68.70"), added to the summary's accessible name only, so a screen
    reader's list of a page's controls tells the explanations apart. Nothing without steps."""
    if not steps:
        return Markup("")
    out = ['<details class="portal-why">\n  <summary>', _words(WHY)[0]]
    if about:
        out += ['<span class="usa-sr-only"> (', escape(about), ")</span>"]
    out.append('</summary>\n  <ul class="portal-why__steps">\n')
    for s in steps:
        out += ['    <li><span class="portal-why__rule">', escape(s.rule), "</span>"]
        if s.title:
            out += [" \u00b7 ", escape(s.title)]
        if s.source:
            out += [" (", escape(s.source), ")"]
        out += [": ", escape(s.text), "</li>\n"]
    out.append("  </ul>\n</details>")
    return Markup("".join(out))


def status_badge(status: str) -> Markup:
    """The status badge: al día / pendiente / vencido, ... (an account's or an installment's)."""
    return Markup(f'<span class="portal-status portal-status--{escape(status_css(status))}">'
                  f"{escape(status_label(status))}</span>")


def deadline(day: date, today: date, f: i18n.Formats | None = None) -> Markup:
    """A date as a <time>, with how far it is from today ("quedan 10 días")."""
    f = f or i18n.formats()
    return Markup(f'<time datetime="{escape(day.isoformat())}">{escape(f.date_long(day))}'
                  f"</time> ({escape(f.days_left(day, today))})")


def amounts_list(amounts: Iterable[Any], f: i18n.Formats | None = None) -> Markup:
    """The parcel page's "what you owe": each figure of the statement (R-A7 to R-A11) with
    its amount and, under it, why."""
    f = f or i18n.formats()
    out = ['<dl class="portal-amounts">\n']
    for a in amounts:
        label, shown = escape(a.label), escape(f.money(a.amount))
        out += ["  <div>\n    <dt>", label, '</dt>\n    <dd><span class="portal-money">', shown,
                "</span>", why(a.why, f, Markup(f"{label}: {shown}")), "</dd>\n  </div>\n"]
    out.append("</dl>")
    return Markup("".join(out))


def schedule_rows(rows: Iterable[Any], f: i18n.Formats | None = None) -> Markup:
    """The rows of the parcel page's installment schedule (R-A4 to R-A8): number, due date,
    last timely day (with the days left while it can still be paid on time), amount,
    principal, late fee and interest owed, and the status badge. The table's head and caption
    are in templates/accounts/parcel.html. Each cell carries its column's name (`data-label`):
    on a narrow screen the rows stack (portal.css), each value under its name, and a paid
    installment's amounts owed and any zero late fee or interest are left out there
    (`is-paid`, `portal-zero`); the table never scrolls sideways."""
    no, due, last, amount, principal, fee, interest, status = _words(*SCHEDULE_LABELS)
    out = []
    for i in rows:
        paid = ' class="is-paid"' if i.status == "paid" else ""
        left = (f' <span class="portal-left">({escape(i.left_text)})</span>'
                if i.left_text else "")
        out.append(
            f"  <tr{paid}>\n"
            f'    <th scope="row" data-label="{no}">{escape(i.number)}</th>\n'
            f'    <td data-label="{due}"><time datetime="{escape(i.due_date)}">'
            f"{escape(i.due_text)}</time></td>\n"
            f'    <td data-label="{last}"><time datetime="{escape(i.last_timely_day)}">'
            f"{escape(i.last_text)}</time>{left}</td>\n"
            f'    <td data-label="{amount}" class="portal-money">{escape(i.amount_text)}</td>\n'
            f'    <td data-label="{principal}" class="portal-money portal-owed">'
            f"{escape(i.principal_text)}</td>\n"
            f'    <td data-label="{fee}" class="portal-money portal-owed'
            f'{"" if i.late_fee else " portal-zero"}">{escape(i.late_fee_text)}</td>\n'
            f'    <td data-label="{interest}" class="portal-money portal-owed'
            f'{"" if i.interest else " portal-zero"}">{escape(i.interest_text)}</td>\n'
            f'    <td data-label="{status}" class="portal-schedule__status"><span class="'
            f'portal-status portal-status--{escape(i.status_css)}">{escape(i.status_label)}'
            "</span></td>\n  </tr>\n")
    return Markup("".join(out))


#: The templates' globals (`portal.app`).
GLOBALS = {"why": why, "status_badge": status_badge, "deadline": deadline,
           "amounts_list": amounts_list, "schedule_rows": schedule_rows}
