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

import re
from collections.abc import Iterable
from datetime import date
from typing import Any

from markupsafe import Markup

from portal import i18n
from portal.core.explain import N_, translator
from portal.web.present import full_address, status_css, status_label

#: The words of the parts (extracted with `N_`, translated when a part is written).
WHY = N_("Why this amount?")
SCHEDULE_LABELS = (N_("No."), N_("Due date"), N_("Last timely day"), N_("Amount"),
                   N_("Principal owed"), N_("Late fee owed"), N_("Interest owed"), N_("Status"))


def _escape_text(text: str) -> str:
    return (text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
            .replace("'", "&#39;").replace('"', "&#34;"))


try:  # MarkupSafe's own escaping of a plain string, in C, without making a `Markup`
    from markupsafe._speedups import _escape_inner as _escape_text  # type: ignore[no-redef]
except ImportError:  # pragma: no cover - MarkupSafe without its speedups: the same text
    pass


def escape(value: Any) -> str:
    """`markupsafe.escape`'s text (markup kept as it is; & < > ' " escaped in anything
    else), as a plain string: these parts join many short texts and make one `Markup` of
    them at the end (a page escapes about 400)."""
    if type(value) is str:
        return _escape_text(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return _escape_text(str(value))


#: {(messages, language): their texts}: `_words`, translated once a language.
_WORDS: dict[tuple[tuple[str, ...], str], tuple[Markup, ...]] = {}


def _words(*messages: str) -> tuple[Markup, ...]:
    """The catalog's text of each message in the language in force, as markup (the
    templates' `_`: a translation is not escaped; "%%" is one "%"), translated once a
    language (as the templates' constant messages are when they are compiled)."""
    lang = i18n.current_language()
    found = _WORDS.get((messages, lang))
    if found is None:
        tr = translator(lang)
        texts = (Markup(tr.gettext(m)) for m in messages)
        found = _WORDS[messages, lang] = tuple(t % {} if "%" in t else t for t in texts)
    return found


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
    heads = _STEP_HEADS
    for s in steps:
        key = (s.rule, s.source, s.title)
        head = heads.get(key)
        if head is None:
            head = heads[key] = _step_head(*key)
        out += [head, escape(s.text), "</li>\n"]
    out.append("  </ul>\n</details>")
    return Markup("".join(out))


#: {(rule, source, title): the start of its steps' item}: a rule's id, its title in a
#: language and its clause, escaped once (a page's ~40 steps have about 15 rules).
_STEP_HEADS: dict[tuple[str, str, str], str] = {}


def _step_head(rule: str, source: str, title: str) -> str:
    out = ['    <li><span class="portal-why__rule">', escape(rule), "</span>"]
    if title:
        out += [" \u00b7 ", escape(title)]
    if source:
        out += [" (", escape(source), ")"]
    out.append(": ")
    return "".join(out)


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


#: The debts' words (`debts`), as templates/collections/attachments/_debts.html has them.
DEBT_WORDS = {
    "debt": N_("Debt to the %(creditor)s"), "status": N_("Status"),
    "paid": N_("Paid in full on %(date)s"), "owed": N_("Owed"),
    "notice": N_("Notice of attachment"), "notified": N_("Notified on %(date)s, %(how)s."),
    "number": N_("Certified-mail number %(number)s."),
    "fee": N_("Dunning agent's fee, with custody costs"),
    "total": N_("Total stated in the notice"), "pay_by": N_("Pay the notice's total in full by"),
    "otherwise": N_(": otherwise the parcel, or the part strictly sufficient to pay the debt, "
                    "may be sold at public auction from %(date)s, without further notice "
                    "(R-C1, R-C2, 13 LPRA \u00a7 33262)."),
    "to_stop": N_("To stop the sale, pay the amount in the notice plus what has accrued up to "
                  "the day of payment, the dunning agent's fee and the custody costs (R-C7)."),
    "last_day": N_("Last day to pay in full"), "stops": N_("What stops the sale"),
    "today": N_("Paid today, %(day)s:"),
    "on_last": N_("Paid on the last day, %(day)s, with what accrues until then as the "
                  "Treasury has stated it:"),
    "ended": N_("The 30 days have ended: the sale may take place, but paying this amount "
                "before it still stops it (R-C7)."),
    "accrued": N_("What accrued since the notice, as the Treasury stated it:"),
    "accrual": N_("To %(day)s: %(accrued)s accrued, %(per_day)s a day after; custody costs "
                  "%(custody)s."),
    "not_stated": N_("The Treasury has not yet stated what accrued since the notice: the "
                     "amount counts none, and may grow by the day of payment."),
    "pdf": N_("The notice of attachment (PDF, in both languages)"),
    "auction": N_("Auction %(number)s"),
    "appraisal": N_("The CRIM's appraisal of %(date)s (21 LPRA \u00a7 5105)."),
    "real": N_("Real value"), "mortgage": N_("Balance of the recorded mortgages"),
    "equity": N_("Equity"), "credit": N_("Credit: everything the debt lists"),
    "floor": N_("The parcel's own tax debt, with its interest"),
    "minimum": N_("Auction minimum"),
    "confidential": N_("Confidential: only the CRIM's staff and the debtor see this minimum; "
                       "at the auction it is announced only after the best offer, if that "
                       "offer does not exceed it (R-C5, 21 LPRA \u00a7 5105)."),
    "bids": N_("Bids: %(n)s"), "price": N_("Price: %(amount)s"),
    "shortfall": N_("What the sale did not cover of the debtor's taxes, surcharges and "
                    "interest, still owed: %(amount)s. The CRIM may collect it once it learns "
                    "of other property of the debtor that can be attached (R-C6, R-C8)."),
}


class _Words(Markup):
    """A translated message as markup whose `%` with a dict of values gives what
    `Markup`'s `%` gives, each value escaped once into a plain `str.__mod__`. MarkupSafe's
    own `%` wraps the dict, and each value it reads, in a helper object that makes a
    `Markup` of the escaped value: on the parcel page (about 25 messages with values), ~0.3 M
    of its ~13.4 M instructions a request (callgrind, bench/page_instructions.py's way). Made
    only of a text whose every placeholder is `%(name)s` (`_NAMED_S`), the one conversion
    whose text is the escaped value's."""

    __slots__ = ()

    def __mod__(self, arg: Any) -> Markup:
        if type(arg) is dict:
            return Markup(str.__mod__(self, {k: escape(v) for k, v in arg.items()}))
        return super().__mod__(arg)


#: A `%` placeholder `_Words` fills as `Markup` does: "%%" or "%(name)s".
_NAMED_S = re.compile(r"%(?:%|\([A-Za-z_]\w*\)s)")


def _fillable(text: Markup) -> Markup:
    """`text` as `_Words` when its placeholders are all `%(name)s` (else as it is)."""
    return _Words(text) if "%" not in _NAMED_S.sub("", text) else text


#: {(words, language): their texts}: a part's words in a language, translated once (as the
#: templates' constant messages are when they are compiled, `web.template_messages`).
_TRANSLATED: dict[tuple[int, str], dict[str, Markup]] = {}


def _translated(words: dict[str, str], lang: str) -> dict[str, Markup]:
    """`words` in `lang` as the templates' `_` gives them: a message with variables as
    markup to `%` them into (escaped), any other as `_words` does."""
    key = (id(words), lang)
    found = _TRANSLATED.get(key)
    if found is None:
        tr = translator(lang)
        found = {}
        for k, m in words.items():
            text = Markup(tr.gettext(m))
            found[k] = _fillable(text) if "%(" in m else text if "%" not in text \
                else text % {}
        _TRANSLATED[key] = found
    return found


def _amount_rows(pairs: Iterable[tuple[Any, Any]]) -> str:
    return "".join(f'<div><dt>{escape(label)}</dt><dd><span class="portal-money">'
                   f"{escape(amount)}</span></dd></div>" for label, amount in pairs)


def debts(att: Any, url_for: Any) -> Markup:
    """The parcel page's property-tax debts with their notice of attachment (R-C1–R-C3, R-C7)
    and auctions (R-C4–R-C6): `att` from `documents.attachment_notice.summary_view`, built
    only for staff and the debtor (R-C5). The markup of
    templates/collections/attachments/_debts.html without the staff's forms, byte for byte
    (the staff's attachment page includes that template, with its forms; an include copies
    the page's whole context: tests/web/test_fragments_debts.py renders both). `url_for`:
    the templates' own."""
    w = _translated(DEBT_WORDS, i18n.current_language())
    out = ["\n\n"]
    for d in att.debts:
        did = escape(d.id)
        out += ['\n<section class="margin-y-3 portal-debt" id="debt-', did,
                '" aria-labelledby="debt-', did, '-heading">\n<h3 id="debt-', did,
                '-heading">', w["debt"] % {"creditor": d.creditor_text}, " \u00b7 ",
                escape(d.years), '</h3>\n<dl class="portal-amounts">\n  ']
        if not d.notice:
            out.append(_amount_rows(d.amounts))
        out += ["\n  <div><dt>", w["status"], "</dt><dd>",
                w["paid"] % {"date": d.paid_text} if d.paid else w["owed"],
                "</dd></div>\n</dl>\n"]
        n = d.notice
        if n:
            out += ["\n<h4>", w["notice"], "</h4>\n<p>",
                    w["notified"] % {"date": n.notified_text, "how": n.delivery_text}]
            if n.number:
                out += [" ", w["number"] % {"number": n.number}]
            out += ['</p>\n<dl class="portal-amounts">\n  ', _amount_rows(n.items),
                    "\n  <div><dt>", w["fee"], '</dt><dd><span class="portal-money">',
                    escape(n.fee_text), "</span>", why(n.why_fee, None, w["fee"] + ": " +
                                                       n.fee_text),
                    "</dd></div>\n  <div><dt>", w["total"],
                    '</dt><dd><span class="portal-money"><strong>', escape(n.total_text),
                    "</strong></span></dd></div>\n</dl>\n"]
            if not d.paid:
                out += ["\n<p>", w["pay_by"], " ", deadline(n.last_day, att.today),
                        w["otherwise"] % {"date": n.sale_text}, "\n", w["to_stop"], "</p>\n"]
            out += ["\n", why(n.why_term, None, w["last_day"]), "\n"]
            st = n.stop
            if st:
                out += ['\n<div class="portal-sale-stop" id="notice-', escape(n.id),
                        '-stop">\n<h4>', w["stops"], "</h4>\n<div>",
                        w["today"] % {"day": i18n.date_long(att.today)},
                        ' <strong class="portal-money" data-figure="sale-stop-today" '
                        'data-amount="', escape(st.amount), '">', escape(st.amount_text),
                        "</strong>", why(st.why, None, w["stops"] + ": " + st.amount_text),
                        '</div>\n<dl class="portal-amounts">\n  ', _amount_rows(st.parts),
                        "\n</dl>\n"]
                if st.last_text:
                    out += ["<p>", w["on_last"] % {"day": st.last_day_text},
                            ' <strong class="portal-money" data-figure="sale-stop-last-day" '
                            'data-amount="', escape(st.last_amount), '" data-by="',
                            escape(st.last_day.isoformat()), '">', escape(st.last_text),
                            "</strong></p>\n\n"]
                else:
                    out += ["<p>", w["ended"], "</p>\n"]
                if n.accruals:
                    out += ['<p class="text-base-dark">', w["accrued"],
                            '</p>\n<ul class="usa-list">']
                    for a in n.accruals:
                        out += ["<li>", w["accrual"] % {
                            "day": a.stated_text, "accrued": a.accrued_text,
                            "per_day": a.per_day_text, "custody": a.custody_text}]
                        if a.reference:
                            out += [" (", escape(a.reference), ")"]
                        out.append("</li>")
                    out.append("</ul>\n\n")
                else:
                    out += ['<p class="text-base-dark">', w["not_stated"], "</p>\n"]
                out.append("</div>\n\n")
            out += ['\n<p><a href="', escape(url_for(
                "collections.attachments_notice_pdf", parcel_id=att.parcel_id,
                debt_id=d.id)), '">', w["pdf"], "</a></p>\n"]
        out.append("\n")
        for a in d.auctions:
            out += ["\n<h4>", w["auction"] % {"number": a.number}, "</h4>\n<p>",
                    w["appraisal"] % {"date": a.appraised_text},
                    '</p>\n<dl class="portal-amounts">\n']
            for key, text in (("real", a.real_value_text), ("mortgage", a.mortgage_text),
                              ("equity", a.equity_text), ("credit", a.credit_text),
                              ("floor", a.floor_text)):
                out += ["  <div><dt>", w[key], '</dt><dd><span class="portal-money">',
                        escape(text), "</span></dd></div>\n"]
            out += ["  <div><dt>", w["minimum"], '</dt><dd><strong class="portal-money">',
                    escape(a.minimum_text), "</strong>",
                    why(a.why, None, w["minimum"] + ": " + a.minimum_text),
                    '</dd></div>\n</dl>\n<p class="text-base-dark">', w["confidential"],
                    "</p>\n"]
            r = a.result
            if r:
                out += ["\n<p><strong>", escape(r.outcome_text), "</strong> \u00b7 ",
                        escape(r.held_text), " \u00b7 ", w["bids"] % {"n": r.bids},
                        " \u00b7 ", w["price"] % {"amount": r.price_text}, "</p>\n"]
                if r.shortfall > 0:
                    out += ["<p>", w["shortfall"] % {"amount": r.shortfall_text}, "</p>"]
                out.append("\n")
            out.append("\n")
        out.append("\n\n</section>\n")
    return Markup("".join(out))


#: The first screen's words (`answer`), as templates/accounts/parcel.html had them.
ANSWER_WORDS = {
    "heading": N_("Your account today"),
    "save": N_("Pay the whole year at once and save %(discount)s:"),
    "by": N_("%(amount)s by"),
    "past_due": N_("You have %(amount)s past due."),
    "stop_claim": N_("To stop a claim in court, pay %(today)s today, or %(by_last)s by"),
    "claimable": N_("You have %(amount)s past due: pay it as soon as you can. Since %(date)s "
                    "the debt may be claimed in court."),
    "overdue": N_("You have %(amount)s past due: pay it as soon as you can, interest is added "
                  "every day."),
    "due": N_("You have %(amount)s due now: pay it by"),
    "late_fee": N_("to avoid a late fee."),
    "next": N_("You are up to date. Next payment: %(amount)s by"),
    "done": N_("You are up to date: nothing else is due this year."),
    "rest": N_("The button pays %(total)s: the %(late)s past due and %(rest)s due now that is "
               "not late yet (on time until %(date)s)."),
    "pay_amount": N_("Pay %(amount)s"), "pay": N_("Pay"),
    "history": N_("Payment history"), "autopay": N_("Autopay"),
}


def answer(a: Any, parcel_id: int, today: date, can_pay: bool, f: i18n.Formats,
           url_for: Any) -> Markup:
    """The parcel page's first screen (`views.answer`: the status and the one thing to do
    next, its figures worded there), then the pay button for a payer (`can_pay`): the
    section templates/accounts/parcel.html wrote, byte for byte."""
    w = _translated(ANSWER_WORDS, f.lang)
    kind = escape(a.kind)
    out = ['<section class="usa-summary-box portal-answer portal-answer--', kind,
           ' margin-y-3" aria-labelledby="answer-heading">\n  <div class="usa-summary-box__body">'
           '\n    <h2 class="usa-summary-box__heading" id="answer-heading">', w["heading"],
           '</h2>\n    <div class="usa-summary-box__text">\n    ']
    q = a.lump
    if q:
        out += ['\n    <p class="font-sans-md portal-answer__lump" data-figure="lump" '
                'data-amount="', escape(q.amount), '" data-by="', escape(q.deadline.isoformat()),
                '"><strong>', w["save"] % {"discount": q.discount_text}, "</strong> ",
                w["by"] % {"amount": q.amount_text}, " ", deadline(q.deadline, today, f),
                ".</p>\n    "]
    n_text: Any = ""
    if a.count > 1:
        count = Markup(translator(f.lang).ngettext(  # a plural: the extractor reads the pair
            "%(num)s installment", "%(num)s installments", a.count))
        n_text = Markup(" (") + count % {"num": a.count} + ")"
    out += ['\n    \n    <p class="font-sans-md portal-answer__text" data-figure="', kind, '"']
    if a.amount is not None:
        out += [' data-amount="', escape(a.amount), '" data-count="', escape(a.count), '"']
    if a.day:
        out += [' data-by="', escape(a.day.isoformat()), '"']
    if a.kind == "demand":
        out += [' data-stop-today="', escape(a.stop_today), '" data-stop-by="',
                escape(a.stop_by), '"']
    out.append(">")
    if a.kind == "demand":
        out += [w["past_due"] % {"amount": a.amount_text}, " ",
                w["stop_claim"] % {"today": a.stop_today_text, "by_last": a.stop_text}, " ",
                deadline(a.day, today, f), "."]
    elif a.kind == "claimable":
        out.append(w["claimable"] % {"amount": a.amount_text, "date": f.date_long(a.day)})
    elif a.kind == "overdue":
        out.append(w["overdue"] % {"amount": a.amount_text})
    elif a.kind == "due":
        out += [w["due"] % {"amount": a.amount_text + n_text}, " ",
                deadline(a.day, today, f) if a.day else "", " ", w["late_fee"]]
    elif a.kind == "next":
        out += [w["next"] % {"amount": a.amount_text + n_text}, " ",
                deadline(a.day, today, f), "."]
    else:
        out.append(w["done"])
    out.append("</p>\n    ")
    if a.not_late_text:
        out += ['<p class="portal-answer__rest" data-figure="due-not-late" data-amount="',
                escape(a.not_late), '"']
        if a.not_late_by:
            out += [' data-by="', escape(a.not_late_by.isoformat()), '"']
        out += [">", w["rest"] % {"total": a.pay_text, "late": a.amount_text,
                                  "rest": a.not_late_text, "date": f.date_long(a.not_late_by)},
                "</p>"]
    out.append("\n    ")
    if can_pay:
        out += ['\n    <p class="margin-bottom-0"><a class="usa-button" href="',
                escape(url_for("payments.choose", parcela=parcel_id)), '">',
                w["pay_amount"] % {"amount": a.pay_text} if a.due_now > 0 else w["pay"],
                '</a>\n    <a class="usa-button usa-button--outline" href="',
                escape(url_for("payments.history", parcel_id=parcel_id)), '">', w["history"],
                '</a>\n    <a class="usa-button usa-button--outline" href="',
                escape(url_for("payments.autopay", parcel_id=parcel_id)), '">', w["autopay"],
                "</a></p>\n    "]
    out.append("\n    </div>\n  </div>\n</section>\n")
    return Markup("".join(out))


#: The documents' words (`documents`), as templates/accounts/parcel.html had them.
DOCUMENT_WORDS = {
    "documents": N_("Documents"), "statement": N_("Download the statement of account (PDF)"),
    "ics": N_("Add this parcel's payment days to your calendar (.ics)"),
    "reminders": N_("Email reminders"),
    "assessment": N_("Download the assessment notice (PDF)"),
    "issued": N_("Notices issued for this parcel"),
    "demand": N_("Demand by certified mail, fiscal year %(year)s (PDF)"),
    "mailed": N_("mailed on %(date)s"),
    "amended": N_("Amended assessment notice, fiscal year %(year)s (PDF)"),
    "notice": N_("Assessment notice, fiscal year %(year)s (PDF)"),
    "dated": N_("dated %(date)s"),
    "paperless": N_("You receive this parcel's notices by email only (paperless)."),
    "paper": N_("You receive this parcel's notices by mail, on paper, and by email."),
    "change": N_("Change how you receive notices"),
    "access": N_("Who else can see this parcel"),
    "give": N_("Give or remove read access to this parcel"),
}


def documents(v: Any, b: Any, pdf_url: str, url_for: Any) -> Markup:
    """The parcel page's end: its documents (the statement, the calendar, the assessment
    notice), the notices issued (`b.issued`), the paperless choice (`b.paperless`) and, for
    the owner and a lessee, who else can see the parcel: what templates/accounts/parcel.html
    wrote, byte for byte."""
    w = _translated(DOCUMENT_WORDS, i18n.current_language())
    pid, relation = v.parcel.id, v.relation
    out = ["<h2>", w["documents"], '</h2>\n<p><a class="usa-button usa-button--outline" href="',
           escape(pdf_url), '">', w["statement"],
           '</a></p>\n\n<p><a class="usa-button usa-button--outline" href="',
           escape(url_for("reminders.parcel_ics", parcel_id=pid)), '">', w["ics"], "</a>"]
    if relation in ("owner", "lessee"):
        out += [' <a href="', escape(url_for("reminders.settings")), '">', w["reminders"],
                "</a>"]
    out.append("</p>\n")
    if relation in ("owner", "lessee", "staff") and v.annual is not None:
        out += ['<p><a class="usa-button usa-button--outline" href="',
                escape(url_for("roll.assessment_notice_pdf", parcel_id=pid)), '">',
                w["assessment"], "</a></p>"]
    out.append("\n")
    if b.issued:
        out += ['\n<h3 id="notices-heading">', w["issued"], '</h3>\n<ul class="usa-list" '
                'aria-labelledby="notices-heading" id="issued-notices">\n']
        for n in b.issued:
            out += ['\n  <li data-notice="', escape(n.notice_id), '">']
            if n.kind == "demand":
                out += ['<a href="', escape(url_for("collections.letter_pdf",
                                                     notice_id=n.notice_id)), '">',
                        w["demand"] % {"year": n.fiscal_year}, "</a>"]
                if n.on:
                    out += [" \u00b7 ", w["mailed"] % {"date": i18n.date_long(n.on)}]
                if n.amount is not None:
                    out += [" \u00b7 ", escape(i18n.money(n.amount))]
            else:
                out += ['<a href="', escape(url_for("roll.issued_notice_pdf", parcel_id=pid,
                                                     notice_id=n.notice_id)), '">',
                        w["amended" if n.kind == "amended" else "notice"] % {
                            "year": n.fiscal_year}, "</a>"]
                if n.on:
                    out += [" \u00b7 ", w["dated"] % {"date": i18n.date_long(n.on)}]
            out.append("</li>\n")
        out.append("\n</ul>\n")
    out.append("\n")
    if b.paperless is not None:
        out += ['\n<p id="paperless-state">', w["paperless"] if b.paperless else w["paper"],
                ' <a href="', escape(url_for("accounts.paperless_page")), '">', w["change"],
                "</a></p>\n"]
    out.append("\n\n")
    if relation in ("owner", "lessee"):
        out += ["\n<h2>", w["access"], '</h2>\n<p><a href="',
                escape(url_for("accounts.access_page", parcel_id=pid)), '">', w["give"],
                "</a></p>\n"]
    out.append("\n")
    return Markup("".join(out))


#: The budget's words (`budget`), as templates/accounts/parcel.html had them.
BUDGET_WORDS = {
    "behind": N_("The budget behind this assessment"),
    "this_year_colon": N_("This year's assessment:"),
    "this_year": N_("This year's assessment"),
    "version": N_("Budget version %(version)s, adopted on %(date)s."),
    "lines": N_("Budget lines"), "line": N_("Line"), "cost": N_("Cost"),
    "financed": N_("Financed by assessments"), "total": N_("Total to assess"),
    "fixed": N_("The Board fixed this parcel's assessment at %(amount)s; the rest of the total "
                "is shared by benefit units among the other parcels."),
    "units": N_("This parcel has %(units)s benefit units of %(total)s in all: %(share)s of "
                "the amount shared by units."),
}


def budget(v: Any, f: i18n.Formats) -> Markup:
    """The parcel page's collapsed "budget behind this assessment" (R-A1, R-A2): the year's
    assessment and why, the budget version and its lines, the parcel's share: what
    templates/accounts/parcel.html wrote, byte for byte."""
    w = _translated(BUDGET_WORDS, i18n.current_language())
    annual = escape(v.annual_text)
    out = ['<details class="portal-details" id="budget">\n<summary><h2 class="portal-details__'
           'title" id="budget-title">', w["behind"], '</h2> <span class="portal-details__count">',
           w["this_year_colon"], ' <span class="portal-money">', annual,
           "</span></span></summary>\n", why(v.annual_why, f, w["this_year"] + ": " +
                                             v.annual_text), "\n"]
    bv = v.budget
    if bv:
        out += ["\n<p>", w["version"] % {"version": bv.version, "date": bv.adopted_text}]
        if bv.reference:
            out += [" <span", ' lang="es"' if i18n.current_language() != "es" else "", ">",
                    escape(bv.reference), "</span>"]
        line, cost, fin = w["line"], w["cost"], w["financed"]
        out += ['</p>\n<div class="portal-table-wrap" role="region" aria-labelledby="budget-'
                'title" tabindex="0">\n<table class="usa-table usa-table--borderless '
                'usa-table--compact usa-table--stacked">\n  <caption class="usa-sr-only">',
                w["lines"], '</caption>\n  \n  <thead><tr><th scope="col">', line,
                '</th><th scope="col">', cost, '</th><th scope="col">', fin,
                "</th></tr></thead>\n  <tbody>\n  "]
        for ln in bv.lines:
            out += ['\n  <tr><td data-label="', line, '">', escape(ln.text),
                    '</td><td data-label="', cost, '" class="portal-money">',
                    escape(ln.amount_text), '</td><td data-label="', fin,
                    '" class="portal-money">', escape(ln.financed_text), "</td></tr>\n  "]
        out += ['\n  </tbody>\n  <tfoot><tr><th scope="row">', w["total"],
                '</th><td></td><td data-label="', fin, '" class="portal-money"><strong>',
                escape(bv.total_text), "</strong></td></tr></tfoot>\n</table>\n</div>\n"]
        if bv.fixed_text:
            out += ["<p>", w["fixed"] % {"amount": bv.fixed_text}, "</p>\n"]
        else:
            out += ["<p>", w["units"] % {"units": bv.units_text, "total": bv.total_units_text,
                                         "share": bv.share_text}, "</p>"]
        out.append("\n")
    out.append("\n</details>")
    return Markup("".join(out))


#: The words of the payoff, the certificate's request, the lump sum and the schedule
#: (`offer_sections`), as templates/accounts/parcel.html had them.
OFFER_WORDS = {
    "payoff": N_("Pay-off amount"), "off_today": N_("To pay everything off today:"),
    "later": N_("Paid later: %(amount)s, good through"),
    "added": N_(" (interest is added each day)."), "off": N_("To pay everything off:"),
    "good_through": N_("good through"), "certificate": N_("Payoff certificate"),
    "for_sale": N_("For a sale or a loan: a certificate of every amount owed, good through "
                   "the date you choose, with the ranking of the liens on the parcel and a "
                   "code anyone can verify on this portal."),
    "good_through_label": N_("Good through"),
    "from_today": N_("From today to %(days)s days ahead. Interest to that day is included."),
    "issue": N_("Issue the certificate"), "issued": N_("Certificates issued for this parcel"),
    "whole_year": N_("Pay the whole year at once"),
    "one_payment": N_("Pay %(amount)s in one payment and save %(discount)s."),
    "deadline": N_("Deadline:"),
    "not_available": N_("The lump-sum discount is not available for this account."),
    "deadline_was": N_("The deadline was"), "schedule": N_("Installment schedule"),
    "installments": N_("%(count)s installments"),
}


def offer_sections(v: Any, f: i18n.Formats, url_for: Any, csrf_token: Any) -> Markup:
    """The parcel page's pay-off amount (R-A10), the payoff certificate's request (J10,
    R-A19: `v.certificate`, owner and staff), the lump sum (R-A11) and the collapsed
    installment schedule (R-A4 to R-A8), each when the view gives it: what
    templates/accounts/parcel.html wrote, byte for byte. `url_for`, `csrf_token`: the
    templates' own."""
    w = _translated(OFFER_WORDS, i18n.current_language())
    out = []
    po = v.payoff
    if po:
        out += ['\n<h2 id="payoff">', w["payoff"], "</h2>\n"]
        through = escape(po.through.isoformat())
        if po.differs:
            out += ['\n<p class="font-sans-lg">', w["off_today"], ' <strong class="portal-money"'
                    ' data-figure="payoff" data-amount="', escape(po.today), '">',
                    escape(po.today_text), '</strong>.</p>\n<p data-figure="payoff-through" '
                    'data-amount="', escape(po.amount), '" data-by="', through, '">',
                    w["later"] % {"amount": po.amount_text}, " ",
                    deadline(po.through, v.today, f), w["added"], "</p>\n"]
        else:
            out += ['\n<p class="font-sans-lg" data-figure="payoff-through" data-amount="',
                    escape(po.amount), '" data-by="', through, '">', w["off"],
                    ' <strong class="portal-money" data-figure="payoff" data-amount="',
                    escape(po.today), '">', escape(po.amount_text), "</strong>,\n",
                    w["good_through"], " ", deadline(po.through, v.today, f), ".</p>\n"]
        out += ["\n", why(po.why, f, w["payoff"] + ": " + po.amount_text), "\n"]
    out.append("\n")
    cf = v.certificate
    if cf:
        pid = v.parcel.id
        today = escape(cf.today.isoformat())
        out += ['\n\n<section id="certificate" aria-labelledby="certificate-heading">\n'
                '<h2 id="certificate-heading">', w["certificate"], "</h2>\n<p>", w["for_sale"],
                '</p>\n<form method="post" action="',
                escape(url_for("collections.certificates_issue", parcel_id=pid)),
                '" class="usa-form" novalidate>\n  <input type="hidden" name="csrf_token" '
                'value="', escape(csrf_token()), '">\n  <div class="usa-form-group">\n    '
                '<label class="usa-label" for="good_through">', w["good_through_label"],
                '</label>\n    <div class="usa-hint" id="good_through-hint">',
                w["from_today"] % {"days": cf.days}, '</div>\n    <input class="usa-input" '
                'type="date" id="good_through" name="good_through" value="', today,
                '" min="', today, '" max="', escape(cf.last.isoformat()),
                '" aria-describedby="good_through-hint" required>\n  </div>\n  <button '
                'class="usa-button" type="submit">', w["issue"], '</button>\n</form>\n<p><a '
                'href="', escape(url_for("collections.certificates_index", parcel_id=pid)),
                '">', w["issued"], "</a></p>\n</section>"]
    out.append("\n\n")
    q = v.lump
    if q:
        out += ["\n<h2>", w["whole_year"], "</h2>\n"]
        if q.eligible:
            out += ["\n<p>", w["one_payment"] % {"amount": q.amount_due_text,
                                                 "discount": q.discount_text},
                    "\n", w["deadline"], " ", deadline(q.deadline, v.today, f), ".</p>\n"]
        else:
            out += ["\n<p>", w["not_available"], " ", w["deadline_was"], " ",
                    deadline(q.deadline, v.today, f), ".</p>\n"]
        out += ["\n", why(q.why, f, w["whole_year"]), "\n"]
    out.append("\n\n")
    count = w["installments"] % {"count": len(v.installments)}
    labels = "".join(f'<th scope="col">{t}</th>' for t in _words(*SCHEDULE_LABELS[:3]))
    more = "".join(f'<th scope="col">{t}</th>' for t in _words(*SCHEDULE_LABELS[3:]))
    out += ['<details class="portal-details" id="schedule">\n<summary><h2 id="schedule-title" '
            'class="portal-details__title">', w["schedule"], '</h2> <span class="portal-'
            'details__count">', count, "</span></summary>\n",
            why(v.schedule_why, f, w["schedule"]), '\n\n<div class="portal-table-wrap" '
            'role="region" aria-labelledby="schedule-title" tabindex="0">\n<table class="'
            'usa-table usa-table--borderless usa-table--compact portal-schedule">\n  <caption '
            'class="usa-sr-only">', count, "</caption>\n  <thead><tr>\n    ", labels,
            "\n    ", more, "\n  </tr></thead>\n  <tbody>\n",
            schedule_rows(v.installments, f), "\n  </tbody>\n</table>\n</div>\n</details>"]
    return Markup("".join(out))


#: The words of what is owed, its costs, the demand and the collection timeline
#: (`owed_sections`), as templates/accounts/parcel.html had them.
OWED_WORDS = {
    "owe": N_("What you owe"),
    "not_owed": N_("Not owed: %(label)s of %(amount)s, already subtracted from what you owe."),
    "nothing": N_("Nothing owed for: %(items)s."), "each": N_("Each collection cost"),
    "date": N_("Date"), "description": N_("Description"), "amount": N_("Amount"),
    "still": N_("Still owed"), "next": N_("What happens next"),
    "authority": N_("The Authority demands every amount past due by certified mail, with "
                    "return receipt (R-A12); the mailing cost is added to the account (R-A9). "
                    "If the demand is not paid in full within 15 days after it is mailed, the "
                    "debt may be claimed in court (R-A13, 23 LPRA \u00a7 6432(d))."),
    "collection": N_("Collection"),
    "mailed": N_("Demand mailed by certified mail on %(date)s for %(amount)s."),
    "to_stop": N_("To stop a claim in court, pay %(today)s today, or %(by_last)s by the last "
                  "day,"),
    "runs": N_(": interest runs until paid."),
    "since": N_("Since %(date)s the debt may be claimed in court."),
    "stopped": N_("Nothing is owed any more on what the demand listed: the claim in court is "
                  "stopped."),
    "timeline": N_("Collection timeline"), "done": N_("done"), "not_yet": N_("not yet"),
}


def owed_sections(v: Any, f: i18n.Formats) -> Markup:
    """The parcel page's "what you owe" (R-A7 to R-A11), each collection cost (R-A9), what
    happens next or the demand mailed (R-A12, R-A13) and the collection timeline (J9): what
    templates/accounts/parcel.html wrote, byte for byte."""
    w = _translated(OWED_WORDS, i18n.current_language())
    out = ["<h2>", w["owe"], "</h2>\n", amounts_list(v.shown_amounts, f), "\n"]
    for a in v.not_owed:
        out += ['<p data-figure="', escape(a.key), '" data-amount="', escape(a.amount), '">',
                w["not_owed"] % {"label": a.label, "amount": f.money(a.amount)}, "</p>"]
    out.append("\n")
    if v.zero_labels:
        out += ['<p class="text-base-dark">',
                w["nothing"] % {"items": "; ".join(v.zero_labels)}, "</p>"]
    out.append("\n\n")
    if v.costs:
        day, desc, amount, still = w["date"], w["description"], w["amount"], w["still"]
        out += ['\n<h3 id="costs-title">', w["each"], '</h3>\n<div class="portal-table-wrap" '
                'role="region" aria-labelledby="costs-title" tabindex="0">\n<table class="'
                'usa-table usa-table--borderless usa-table--compact usa-table--stacked" '
                'aria-labelledby="costs-title">\n  \n  <thead><tr><th scope="col">', day,
                '</th><th scope="col">', desc, '</th><th scope="col">', amount,
                '</th><th scope="col">', still, "</th></tr></thead>\n  <tbody>\n  "]
        for c in v.costs:
            out += ['\n  <tr><td data-label="', day, '">', escape(c["date_text"]),
                    '</td><td data-label="', desc, '">', escape(c["description"]),
                    '</td><td data-label="', amount, '" class="portal-money">',
                    escape(c["amount_text"]), '</td><td data-label="', still,
                    '" class="portal-money">', escape(c["owed_text"]), "</td></tr>\n  "]
        out.append("\n  </tbody>\n</table>\n</div>\n")
    out.append("\n\n")
    dm = v.demand
    if v.arrears_warning and not dm:
        out += ["\n<h2>", w["next"], "</h2>\n<p>", w["authority"], "</p>\n"]
    out.append("\n")
    if dm:
        out += ["\n<h2>", w["collection"], "</h2>\n<p>",
                w["mailed"] % {"date": dm.mailed_text, "amount": dm.amount_text}, "\n"]
        if dm.stage == "demand_window":
            out += ["\n", w["to_stop"] % {"today": dm.stop_today_text,
                                          "by_last": dm.stop_by_last_text}, " ",
                    deadline(dm.last_day, v.today, f), w["runs"], "\n"]
        elif dm.stage == "claimable":
            out += ["\n", w["since"] % {"date": dm.court_from_text}, "\n"]
        elif dm.stage == "paid":
            out += ["\n", w["stopped"], "\n"]
        out += ["</p>\n", why(dm.why, f, w["collection"]), "\n"]
    out.append("\n\n")
    t = v.timeline
    if t:
        out += ['\n\n<h2 id="timeline-title">', w["timeline"], "</h2>\n"]
        if t.next:
            out += ['\n<p class="font-sans-md"><strong>', escape(t.sentence),
                    "</strong></p>\n"]
        elif t.sentence:
            out += ["<p>", escape(t.sentence), "</p>"]
        out.append('\n<ol class="usa-process-list" aria-labelledby="timeline-title">\n  ')
        done, not_yet = w["done"], w["not_yet"]
        for st in t.steps:
            out += ['\n  <li class="usa-process-list__item">\n    <p class="usa-process-list__'
                    'heading">', escape(st.label), "</p>\n    <p>"]
            if st.day:
                out += ['<time datetime="', escape(st.day.isoformat()), '">', escape(st.text),
                        "</time>"]
            else:
                out.append(escape(st.text))
            out += [" \u00b7 ", done if st.done else not_yet, "</p>\n  </li>\n  "]
        out += ["\n</ol>\n", why(t.why, None, w["timeline"]), "\n"]
    return Markup("".join(out))


#: The property-tax sections' words (`property_tax_sections`), as
#: templates/accounts/parcel.html had them.
TAX_WORDS = {
    "exemption": N_("Residential exemption"), "fy": N_("Fiscal year %(year)s:"),
    "continues": N_("approved for %(year)s; it continues until a change"),
    "without": N_("Without the exemption, the property tax for the year is %(gross)s."),
    "with": N_("With the exemption, the property tax for the year is %(net)s instead of "
               "%(gross)s."),
    "next_step": N_("Next step:"), "last_day": N_("Last day:"),
    "loan": N_("Your mortgage loan"),
    "escrow": N_("%(lender)s told the portal it services your mortgage loan (since %(date)s) "
                 "and pays the property charges from the escrow account."),
    "no_escrow": N_("%(lender)s told the portal it services your mortgage loan (since "
                    "%(date)s); you pay the property charges yourself."),
    "services": N_("%(lender)s told the portal it services your mortgage loan (since "
                   "%(date)s)."),
    "pays": N_("What your lender pays the CRIM"),
    "from_escrow": N_("%(lender)s pays your property tax from the escrow account: for each "
                      "CRIM bill, the bill less the prepayment discount (R-B10)."),
    "bill": N_("Bill of %(date)s: %(amount)s"),
    "not_adopted": N_("%(lender)s holds a loan on this parcel; the CRIM has not yet adopted "
                      "its values for fiscal year %(year)s, so the portal cannot say what it "
                      "pays."),
    "no_facts": N_("%(lender)s holds a loan on this parcel; the CRIM's facts for this year "
                   "are not on file, so the portal cannot say what it pays."),
    "changes": N_("Changes in the residential exemption"),
    "moved": N_("Moved, rented out, sold, a spouse died or the use changed? Report it before "
                "January 1 following the change."),
    "report": N_("Report a change"),
}


def property_tax_sections(v: Any, b: Any, f: i18n.Formats, url_for: Any,
                          exemption_badge: Any) -> Markup:
    """The parcel page's residential exemption (`b.exemption`, a dict of
    `web.exemptions.summary`), for the owner and a delegate the loans' servicers and what the
    lenders pay the CRIM (R-B10: `b.servicers`, `b.lenders_pay`), and for the owner and staff
    the link to report a change: what templates/accounts/parcel.html wrote, byte for byte.
    `url_for`, `exemption_badge`: the templates' own."""
    w = _translated(TAX_WORDS, i18n.current_language())
    money, date_long = i18n.money, i18n.date_long
    out = ["\n"]
    ex = b.exemption
    if ex:
        out += ['\n<section aria-labelledby="exemption-heading">\n<h2 id="exemption-heading">',
                w["exemption"], "</h2>\n"]
        if ex["status"]:
            out += ["\n<p>", w["fy"] % {"year": ex["fy_label"]}, " ",
                    escape(exemption_badge(ex["status"]))]
            if ex["filing_number"]:
                out += [" \u00b7 ", escape(ex["filing_number"])]
            if ex["continued_from"]:
                out += [" (", w["continues"] % {"year": ex["continued_from"]}, ")"]
            out.append("</p>\n")
        out.append("\n")
        if ex["status"] == "revoked" and ex.get("gross") is not None:
            out += ["<p>", w["without"] % {"gross": money(ex["gross"])}, "</p>"]
        out.append("\n")
        if ex["saving"] is not None:
            out += ["<p>", w["with"] % {"net": money(ex["net"]), "gross": money(ex["gross"])},
                    "</p>"]
        out.append("\n")
        if ex["note"]:
            out += ["<p>", escape(ex["note"]), "</p>"]
        out.append("\n")
        if ex["next_step"]:
            out += ["<p><strong>", w["next_step"], "</strong> ", escape(ex["next_step"]),
                    "</p>"]
        out.append("\n")
        if ex["deadline"]:
            out += ["<p><strong>", w["last_day"], "</strong> ",
                    deadline(ex["deadline"], ex["today"]), "</p>"]
        out.append("\n")
        if ex["link"]:
            out += ['<p><a href="', escape(ex["link"]), '">', escape(ex["link_text"]),
                    "</a></p>"]
        out.append("\n</section>\n")
    out.append("\n")
    if v.relation in ("owner", "delegate"):
        out.append("\n\n")
        if b.servicers:
            out += ['\n<section class="margin-top-4" aria-labelledby="servicers-title">\n  '
                    '<h2 id="servicers-title">', w["loan"], '</h2>\n  <ul class="usa-list" '
                    'id="servicers">\n  ']
            for name, escrow, since in b.servicers:
                key = "escrow" if escrow else "no_escrow" if escrow is False else "services"
                out += ["\n    <li>", w[key] % {"lender": name, "date": date_long(since)},
                        "</li>\n  "]
            out.append("\n  </ul>\n</section>\n")
        out.append("\n\n")
        if b.lenders_pay:
            pays = w["pays"]
            out += ['\n<section class="margin-top-4" aria-labelledby="lender-pays-title">\n  '
                    '<h2 id="lender-pays-title">', pays, "</h2>\n  "]
            for name, r in b.lenders_pay:
                out.append("\n  ")
                if r:
                    out += ["\n  <p>", w["from_escrow"] % {"lender": name},
                            '</p>\n  <ul class="usa-list">\n    ']
                    for bill in r.bills:
                        out += ["<li>", w["bill"] % {
                            "date": date_long(bill.issued_on),
                            "amount": money(bill.with_exemption.amount)}, "</li>"]
                    out += ["\n  </ul>\n  ", why(f.trace(r.trace), about=pays), "\n  "]
                elif b.crim_missing_year:
                    out += ["\n  <p>", w["not_adopted"] % {"lender": name,
                                                           "year": b.crim_missing_year},
                            "</p>\n  "]
                else:
                    out += ["\n  <p>", w["no_facts"] % {"lender": name}, "</p>\n  "]
                out.append("\n  ")
            out.append("\n</section>\n")
    out.append("\n")
    if v.relation in ("owner", "staff"):
        out += ["\n<h2>", w["changes"], "</h2>\n<p>", w["moved"], ' <a href="',
                escape(url_for("exemptions.changes_new", parcel_id=v.parcel.id)), '">',
                w["report"], "</a></p>\n"]
    return Markup("".join(out))


#: The words of the page's heading and of its alerts (`heading`, `alerts`), as
#: templates/accounts/parcel.html had them.
HEADING_WORDS = {
    "parcel": N_("Parcel %(catastro)s"), "access": N_("Your access:"),
    "fy": N_("Fiscal year %(label)s"), "as_of": N_("As of %(date)s"),
    "deposit": N_("A court ordered the lessee to deposit the rents of this parcel in court "
                  "until the debt is paid (%(court)s, case %(case)s, %(date)s)."),
    "past_due": N_("This account has amounts past due: any payment goes first to interest, "
                   "late fees and costs, then to the oldest installment."),
    "contract": N_("Lease contract %(number)s."),
    "lessee_pays": N_("Under the lease, the lessee pays the assessment (R-A16, 23 LPRA "
                      "\u00a7 6432(c), (d))."),
    "owner_pays": N_("Under the lease, the owner pays the assessment (R-A16, 23 LPRA "
                     "\u00a7 6432(c), (d))."),
}


def heading(v: Any) -> Markup:
    """The parcel page's heading: the catastro number, the address, the status badge, the
    reader's access, the fiscal year and the day of the figures."""
    w = _translated(HEADING_WORDS, i18n.current_language())
    p = v.parcel
    return Markup("".join((
        '<h1 class="margin-top-2">', w["parcel"] % {"catastro": p.catastro},
        '</h1>\n<p class="usa-intro margin-top-0">',
        escape(full_address(p.address, p.municipality)), "</p>\n<p>", status_badge(v.status),
        " \u00b7 ", w["access"], " ", escape(v.relation_label), " \u00b7 ",
        w["fy"] % {"label": v.fiscal_year}, " \u00b7 ", w["as_of"] % {"date": v.as_of_text},
        "</p>")))


def alerts(v: Any) -> Markup:
    """The court's order to deposit the rents (R-A14), the arrears' order of payment (R-A10)
    and the lease's payer (R-A16), when the view gives them."""
    w = _translated(HEADING_WORDS, i18n.current_language())
    out = []
    order = v.deposit_order
    if order:
        out += ['\n<div class="usa-alert usa-alert--warning usa-alert--slim" role="status">'
                '<div class="usa-alert__body"><p class="usa-alert__text">\n',
                w["deposit"] % {"court": order.court, "case": order.case_number,
                                "date": i18n.date_long(order.ordered_on)},
                "\n</p></div></div>\n"]
    out.append("\n")
    if v.arrears_warning:
        out += ['\n<div class="usa-alert usa-alert--info usa-alert--slim" role="status"><div '
                'class="usa-alert__body"><p class="usa-alert__text">', w["past_due"],
                "</p></div></div>\n"]
    out.append("\n\n")
    lease = v.lease
    if lease:
        out.append("\n<p>")
        if lease.contract:
            out += [w["contract"] % {"number": lease.contract}, " "]
        out += [w["lessee_pays"] if lease.payer == "lessee" else w["owner_pays"], "</p>\n"]
    return Markup("".join(out))


#: The templates' globals (`portal.app`).
GLOBALS = {"why": why, "status_badge": status_badge, "deadline": deadline,
           "amounts_list": amounts_list, "schedule_rows": schedule_rows, "debts": debts,
           "answer": answer, "documents": documents,
           "budget": budget, "offer_sections": offer_sections,
           "owed_sections": owed_sections, "property_tax_sections": property_tax_sections,
           "heading": heading, "alerts": alerts}
