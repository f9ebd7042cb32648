"""What the pages show, and the statement PDF reads (`portal.documents.statement`), from the
services (through the access policy).

Each function opens one unit of work, calls a service and turns its result into plain
values for a template: labels in the reader's language and the "why this amount?" steps
picked from the core's traces. No amount is computed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from types import SimpleNamespace
from typing import Any, NamedTuple

from markupsafe import Markup

from portal import clock
from portal.accounts import access, closed_days, paperless, parcels, statements
from portal.accounts.errors import Forbidden, NotFound
from portal.collections import attachments
from portal.core.explain import N_, Trace
from portal.core.installments import explain_schedule
from portal.documents.attachment_notice import summary_view
from portal.exemptions import filings
from portal.exemptions import status as exemption_status
from portal.i18n import (
    Formats,
    ShownStep,
    current_language,
    formats,
    template_gettext,
    translate,
)
from portal.i18n import fast_gettext as _
from portal.lenders import portfolio
from portal.people import users
from portal.reminders import preferences as reminder_preferences
from portal.roll import notices
from portal.web import fragments, spoken
from portal.web.accounts import page_boxes
from portal.web.collections import views as collection_views
from portal.web.collections.certificates import certificate_horizon
from portal.web.data import reading, uow
from portal.web.exemptions import summary as exemption_box
from portal.web.lenders import marks
from portal.web.present import (
    full_address,
    installment_status,
    line_kind_label,
    payoff_why,
    relation_label,
    statement_amounts,
    status_css,
    status_label,
)

COST_KINDS = {
    "certified_mail": N_("Certified mail (demand for payment)"),
    "court_costs": N_("Court costs"),
    "attorney_fees": N_("Attorney's fees"),
    "other": N_("Other collection cost"),
}


def cost_label(kind: str | None) -> str:
    return translate(COST_KINDS.get(kind or "other", COST_KINDS["other"]))


@dataclass
class Row:
    """A dashboard / list row."""

    id: int
    catastro: str
    address: str
    municipality: str
    relation: str
    relation_label: str
    status: str
    annual: Decimal | None
    due_now: Decimal
    next_due: date | None
    loan_number: str = ""
    next_last_day: date | None = None  # R-A6: the last timely day of the next installment
    # The dates as the pages write a deadline (`fragments.deadline`: the <time> and the days
    # left): written here once per distinct date (a lender's 50 rows share a few due dates).
    next_due_text: Markup | str = ""
    next_last_text: Markup | str = ""
    next_due_amount: Decimal | None = None  # what the next installment will ask
    lump: Any = None  # R-A11's option while it is open (`core.offer.LumpSumOption`)
    lump_text: Markup | str = ""
    next_count: int = 0  # how many installments the next payment covers (`NextPayment`)
    due_by: date | None = None  # the last day to pay `due_now` on time (`Offer.due_now_by`)
    due_by_text: Markup | str = ""
    due_count: int = 0  # how many installments `due_now` covers
    # The dashboard's words of the row, put together once here (`word_rows`), not per row
    # in the template: the parcel page's link, "Parcel 040-…", the address with its
    # municipality and the status badge's (CSS modifier, label).
    href: str = ""
    heading: Markup | str = ""
    place: str = ""
    badge: tuple[str, str] = ("", "")
    # The ISO forms of (due_by, next_due, next_last_day or next_due, next_last_day, the lump
    # sum's deadline): "" for none.
    isos: tuple[str, ...] = ("", "", "", "", "")


def _deadline_text(day: date | None, today: date, memo: dict) -> Markup | str:
    """The pages' one deadline (`fragments.deadline`), once per distinct day; "" for none."""
    if day is None:
        return ""
    text = memo.get(day)
    if text is None:
        text = memo[day] = fragments.deadline(day, today)
    return text


def _row(s: statements.ParcelSummary, today: date | None = None, memo: dict | None = None
         ) -> Row:
    p = s.parcel
    nxt = s.offer.next_due if s.offer is not None else None
    last_day = nxt.last_timely_day if nxt is not None else None
    today = today or clock.today()
    memo = {} if memo is None else memo
    lump = s.offer.lump_sum if s.offer is not None and s.offer.lump_sum.eligible else None
    due_by = s.offer.due_now_by if s.offer is not None else None
    return Row(p.id, p.catastro, p.address, p.municipality, s.relation,
               relation_label(s.relation), s.status, s.annual, s.due_now, s.next_due_date,
               s.loan.loan_number if s.loan is not None else "", last_day,
               _deadline_text(s.next_due_date, today, memo),
               _deadline_text(last_day, today, memo),
               nxt.owed if nxt is not None else None, lump,
               _deadline_text(lump.deadline, today, memo) if lump is not None else "",
               nxt.count if nxt is not None else 0, due_by, _deadline_text(due_by, today, memo),
               s.offer.due_now_count if s.offer is not None else 0)


LESSEE_KEY = "is_lessee"


def is_lessee(user: Any) -> bool:
    """Whether the user holds a lessee link (the menu's "Leased parcels"; at sign-in)."""
    with uow() as w:
        return "lessee" in access.relations(w, user).values()


def remember_lessee(value: bool) -> None:
    """Kept in the session for the menu (no query on every page); refreshed whenever a page
    lists the user's parcels."""
    from flask import session
    if bool(session.get(LESSEE_KEY)) != value:
        session[LESSEE_KEY] = value


#: The lender's list shows this many loans a page. A lender's dashboard shows its loans'
#: parcels while they fit one such page; beyond, it says how many there are and links to the
#: list, so that the dashboard of a bank with thousands of loans costs what one with fifty does.
LOANS_PER_PAGE = 50
#: The last page number that can exist (its offset still fits the database's integers): a
#: larger one in a URL is simply not found.
LAST_LOAN_PAGE = access.MAX_ID // LOANS_PER_PAGE


def dashboard_rows(user: Any, today: date, *, loans: bool = True) -> tuple[list[Row], int]:
    """The dashboard's rows (not `loans`: the user's own links only), and how many loans of
    the user's lenders it leaves to the lender's list (0: none)."""
    with uow() as w:
        return _dashboard_rows(w, user, today, loans=loans)


def _dashboard_rows(w: Any, user: Any, today: date, *, loans: bool = True
                    ) -> tuple[list[Row], int]:
    """A lender's loans that fit one page of its list are read with their kept figures
    (`portfolio.dashboard_loans`: computed by the core when out of date, not on every view)
    beside the user's own links' summaries; a parcel both linked and lent is the link's row."""
    memo: dict = {}
    if not (loans and getattr(user, "is_lender", False)):
        return [_row(s, today, memo) for s in statements.dashboard(w, user, today,
                                                                   loans=loans)], 0
    count = access.lender_loan_count(w, user)
    listed_apart = count if count > LOANS_PER_PAGE else 0
    rows = [_row(s, today, memo) for s in statements.dashboard(w, user, today, loans=False)]
    if listed_apart or not count:
        return rows, listed_apart
    own = {r.id for r in rows}
    label = relation_label("lender")
    lent = [_kept_row(k, today, memo, label)
            for k in portfolio.dashboard_loans(w, user, today) if k.parcel_id not in own]
    if rows and lent:  # both: in the database's order of catastro numbers
        rows = _in_catastro_order(w, rows + lent)
    return rows or lent, 0


def _kept_row(k: portfolio.DashboardLoan, today: date, memo: dict, label: str) -> Row:
    """A loan's row from its kept figures, as `_row` words a summary (`label`: the
    lender's relation's)."""
    return Row(k.parcel_id, k.catastro, k.address, k.municipality, "lender", label, k.status,
               k.annual, k.due_now, k.next_due, "",
               k.next_last_day, _deadline_text(k.next_due, today, memo),
               _deadline_text(k.next_last_day, today, memo), k.next_amount, k.lump,
               _deadline_text(k.lump.deadline, today, memo) if k.lump is not None else "",
               k.next_count, k.due_now_by, _deadline_text(k.due_now_by, today, memo),
               k.due_now_count)


def _in_catastro_order(w: Any, rows: list[Row]) -> list[Row]:
    """`rows` by catastro number and id as the database orders them (its collation)."""
    by_id = {r.id: r for r in rows}
    return [by_id[pid] for pid in portfolio.by_catastro(w, list(by_id))]


#: A parcel id no parcel has, to build the parcel page's link once and put each id in it.
_SOME_ID = 987654321


def word_rows(rows: list[Row]) -> list[Row]:
    """The dashboard's rows with their words (`Row.href` to `Row.badge`), in the request's
    language: the link built once (each row's id put in its place), "Parcel %(catastro)s"
    translated once, each status's badge worded and each date's ISO form written once."""
    from flask import url_for
    head, _some, tail = url_for("accounts.parcel", parcel_id=_SOME_ID).rpartition(
        str(_SOME_ID))
    title = Markup(template_gettext("Parcel %(catastro)s"))
    badges: dict[str, tuple[str, str]] = {}
    isos: dict[date, str] = {}
    for r in rows:
        r.href = f"{head}{r.id}{tail}"
        r.heading = title % {"catastro": r.catastro}
        r.place = full_address(r.address, r.municipality)
        badge = badges.get(r.status)
        if badge is None:
            badge = badges[r.status] = (status_css(r.status), status_label(r.status))
        r.badge = badge
        lump_by = r.lump.deadline if r.lump is not None else None
        r.isos = tuple(_iso(day, isos) for day in (r.due_by, r.next_due,
                                                   r.next_last_day or r.next_due,
                                                   r.next_last_day, lump_by))
    return rows


def _iso(day: date | None, memo: dict) -> str:
    if day is None:
        return ""
    text = memo.get(day)
    if text is None:
        text = memo[day] = day.isoformat()
    return text


class DashboardPage(NamedTuple):
    """The dashboard's one view model: its rows, the lender's loans left to its list, whether
    to say that reminders are on by default, and {parcel id: status} of the owner's parcels
    whose residential exemption waits on them (a draft, or returned)."""

    rows: list[Row]
    loans_apart: int
    reminders_notice: bool
    exemption_pending: dict[int, str]


def dashboard_page(user: Any, today: date) -> DashboardPage:
    """The dashboard read in one unit of work. A row's relation is the strongest of the
    user's live relations to its parcel (owner, then lessee), so the parcels the user owns
    and whether it has any to be reminded of (an owner's or a lessee's link) are read off
    the rows, not asked again."""
    with uow() as w:
        rows, apart = _dashboard_rows(w, user, today)
        owned = [r.id for r in rows if r.relation == "owner"]
        pending = ({} if getattr(user, "is_staff", False) else
                   exemption_status.pending_steps(w, owned, filings.certification_year(today)))
        notice = reminder_preferences.needs_notice(w, user, recipients=any(
            r.relation in reminder_preferences.RECIPIENT_ROLES for r in rows))
    return DashboardPage(word_rows(rows), apart, notice, pending)


def lender_rows(user: Any, today: date, page: int) -> tuple[list[Row], int]:
    """Page `page` of the lender's list (only its loans are read and computed), and how many
    loans there are in all."""
    with uow() as w:
        summaries, total = statements.lender_portfolio(
            w, user, today, offset=(page - 1) * LOANS_PER_PAGE, limit=LOANS_PER_PAGE)
    memo: dict = {}
    return [_row(s, today, memo) for s in summaries], total


def back_link(user: Any) -> tuple[str, str]:
    from flask import url_for
    if getattr(user, "is_staff", False):
        return url_for("accounts.lookup"), _("Staff lookup")
    return url_for("accounts.dashboard"), _("My parcels")


#: Who may ask for a payoff certificate on the parcel page (J10, R-A19).
CERTIFICATE_REQUESTERS = ("owner", "staff")


@dataclass
class ParcelPage:
    parcel: Any
    relation: str
    relation_label: str
    status: str
    fiscal_year: str
    as_of: date
    today: date
    annual: Decimal | None
    annual_why: list[ShownStep] = field(default_factory=list)
    amounts: list = field(default_factory=list)
    costs: list[dict] = field(default_factory=list)
    installments: list[ScheduleRow] = field(default_factory=list)
    schedule_why: list[ShownStep] = field(default_factory=list)
    extended_why: list[ShownStep] = field(default_factory=list)  # R-A6: the closed days' moves
    lump: SimpleNamespace | None = None
    payoff: SimpleNamespace | None = None
    budget: SimpleNamespace | None = None
    demand: SimpleNamespace | None = None
    lease: SimpleNamespace | None = None
    deposit_order: Any = None
    arrears_warning: bool = False
    as_of_text: str = ""
    annual_text: str = ""
    answer: SimpleNamespace | None = None  # the first screen: the status and what to do next
    shown_amounts: list = field(default_factory=list)  # "what you owe" less its zero figures
    not_owed: list = field(default_factory=list)  # figures that are not owed (the discount)
    zero_labels: list[str] = field(default_factory=list)  # the figures that are zero
    boxes: SimpleNamespace | None = None  # the parcel page's other boxes (`parcel_page`)
    # The payoff certificate's request (owner and staff): the days it may be good through.
    certificate: SimpleNamespace | None = None


def parcel_view(user: Any, parcel_id: int, today: date) -> ParcelPage | None:
    """The account as the parcel page shows it (the statement PDF and the demand letter
    read it too), or None when the user may not see the parcel (the route's 404). Its
    amounts and dates are worded here, once (`*_text`; the template shows them as they
    are), with the request's `formats()`."""
    try:
        with reading() as w:
            acct = statements.statement_for(w, user, parcel_id, as_of=today,
                                          with_payments=False, rows=True)
            closed = closed_days.declared(w)
    except NotFound:
        return None
    return _account_page(acct, closed, today)


def parcel_page(user: Any, parcel_id: int, today: date) -> ParcelPage | None:
    """The parcel page's one view model: `parcel_view` and every box the page shows for the
    reader's relation (`ParcelPage.boxes`), read in one unit of work from the account's
    parcel and relation (one access check), so the template calls no service. None: the
    user may not see the parcel."""
    try:
        with reading() as w:
            acct = statements.statement_for(w, user, parcel_id, as_of=today,
                                          with_payments=False, rows=True)
            closed = closed_days.declared(w)
            boxes = _boxes(w, user, acct, today)
    except NotFound:
        return None
    v = _account_page(acct, closed, today, explain_zero=False)
    v.boxes = boxes
    return v


def _boxes(w: Any, user: Any, acct: statements.AccountView, today: date) -> SimpleNamespace:
    """What the parcel page shows beside the account, each box for the relations that see
    it: the notices issued and the paperless choice, what a lender said it will pay, the
    residential exemption, the loans' servicers and what the lenders pay the CRIM, the
    property-tax attachments (staff and the debtor only, R-C5). One statement for all
    (`web.accounts.page_boxes`), the property-tax debts' too."""
    pid, relation = acct.parcel.id, acct.relation
    b = SimpleNamespace(issued=[], paperless=None, lender_marks=[], exemption=None,
                        servicers=[], lenders_pay=[], crim_missing_year=None,
                        attachment=None)
    exemption = relation in exemption_box.READERS
    owners = exemption and relation in ("owner", "delegate")
    debts = attachments.may_see_minimum(w, user, pid, relation)
    fy = portfolio.fiscal_year_start(today)
    found = page_boxes.read(
        w, user, pid, today=today, fy_id=acct.fiscal_year.id if acct.fiscal_year else None,
        fy_start=fy, issued=relation in notices.READERS,
        choice=relation in paperless.RECEIVERS,
        marks=relation in ("owner", "delegate", "lessee"), exemption=exemption,
        servicers=owners, debts=debts)
    b.issued = found.issued
    if relation in paperless.RECEIVERS:
        b.paperless = found.paperless
    b.lender_marks = [marks.shown(i) for i in found.intents]
    if exemption:
        year = (found.facts, found.cert, found.continued)
        b.exemption = exemption_box.exemption_summary(w, pid, relation, today, *year)
        if owners:
            b.servicers = found.servicers
            names = list(dict.fromkeys(name for name, _e, _s in b.servicers))
            b.lenders_pay = portfolio.lenders_pay(w, pid, names, year[0], fy, *year[1:])
            b.crim_missing_year = exemption_box.crim_missing_year(fy)
    if found.debts is not None:
        summary = attachments.summary_from_json(found.debts, pid, relation)
        b.attachment = summary_view(summary, formats()) if summary.debts else None
    return b


def _account_page(acct: statements.AccountView, closed: Any, today: date, *,
                  explain_zero: bool = True) -> ParcelPage:
    """The account worded for a page or a document. Not `explain_zero` (the parcel page): a
    figure of 0.00 is named without its explanation (`statement_amounts`), as the page shows
    it; the statement PDF explains every figure."""
    f = formats()
    lang = current_language()
    st = acct.statement
    v = ParcelPage(
        parcel=acct.parcel, relation=acct.relation, relation_label=relation_label(acct.relation),
        status=acct.status, fiscal_year=acct.fiscal_year.label if acct.fiscal_year else "—",
        as_of=acct.as_of, today=today, annual=acct.annual,
        # R-A14: the lessee deposits the rents in court until the debt is paid: the order is
        # shown while the account has amounts past due (staff record its lifting apart).
        deposit_order=acct.deposit_order if acct.status == statements.STATUS_OVERDUE else None,
        as_of_text=f.date_long(acct.as_of))
    if acct.relation in CERTIFICATE_REQUESTERS:
        v.certificate = certificate_horizon()
    if acct.lease is not None:
        v.lease = SimpleNamespace(contract=acct.lease.contract_number,
                                  lessee_pays=acct.lease.lessee_pays, payer=acct.payer)
    if st is None:
        return v
    money = f.money
    v.annual_text = money(acct.annual)
    share = acct.share_trace
    v.annual_why = _budget_steps(acct, f) + f.trace(share)
    schedule = explain_schedule(acct.annual, acct.installments, acct.assessment.notified_on)
    if acct.rules is not None:  # R-A6: which last days a day the Board declared closed moved
        extended = closed_days.installments(
            ((i.number, i.due_date, i.last_timely_day) for i in st.installments),
            acct.rules.grace_day, closed)
        schedule.extend(extended)
        v.extended_why = f.trace(extended)
    cost_texts = {k: _cost_text(e) for k, e in enumerate(acct.costs) if e.kind == "cost"}
    v.amounts = statement_amounts(st, cost_texts, f, explain_zero=explain_zero)
    # "What you owe" lists what is owed: the lump-sum discount granted is not,
    # it is said apart, below the list.
    v.shown_amounts = [a for a in v.amounts if (a.amount or a.key == "total_due_now")
                       and a.key not in NOT_OWED]
    v.zero_labels = [a.label for a in v.amounts if not a.amount and a.key != "total_due_now"
                     and a.key not in NOT_OWED]
    v.not_owed = [a for a in v.amounts if a.amount and a.key in NOT_OWED]
    v.arrears_warning = acct.status == statements.STATUS_OVERDUE  # R-A10: old debt first
    owed = {c.index: c.owed for c in st.cost_items}
    for k, e in enumerate(acct.costs):
        if e.kind == "cost":
            left = owed.get(k, e.amount)
            v.costs.append({"date": e.legal_date, "description": cost_texts[k],
                            "amount": e.amount, "owed": left,
                            "date_text": f.date_long(e.legal_date),
                            "amount_text": money(e.amount), "owed_text": money(left)})
    v.installments = schedule_rows(st, acct.installments, today)
    v.schedule_why = f.trace(schedule)
    o = acct.offer
    if acct.lump_sum is not None:
        q = acct.lump_sum
        v.lump = SimpleNamespace(eligible=q.eligible, discount=q.discount,
                                 amount_due=q.amount, deadline=q.deadline,
                                 why=f.trace(_lump_trace(q, acct, closed)),
                                 amount_due_text=money(q.amount),
                                 discount_text=money(q.discount))
    if o is not None:
        # The payoff today (what the pay page accepts) and good through a later day (with
        # the interest to that day): two figures, each with its day.
        v.payoff = SimpleNamespace(amount=o.payoff_through_amount, through=o.payoff_through,
                                   why=payoff_why(o.payoff_statement, f),
                                   amount_text=money(o.payoff_through_amount),
                                   today=o.payoff, today_text=money(o.payoff),
                                   differs=o.payoff != o.payoff_through_amount)
    if acct.budget_version is not None:
        version = acct.budget_version
        v.budget = SimpleNamespace(
            version=version.version, adopted_on=version.adopted_on,
            adopted_text=f.date_long(version.adopted_on), reference=version.reference,
            lines=[SimpleNamespace(text=line_text(line_kind_label(ln.kind),
                                                  ln.description(lang)),
                                   amount=ln.amount, financed=ln.financed_by_assessments,
                                   amount_text=money(ln.amount),
                                   financed_text=money(ln.financed_by_assessments))
                   for ln in acct.budget_lines],
            total_to_assess=version.total_to_assess,
            total_text=money(version.total_to_assess),
            parcel_units=acct.benefit_units, total_units=acct.total_units,
            share=acct.share, units_text=f.number(acct.benefit_units),
            total_units_text=f.number(acct.total_units),
            share_text=f.percent(acct.share) if acct.share is not None else "—",
            fixed_text=money(acct.fixed_amount) if acct.fixed_amount is not None else None)
    if acct.collection is not None:
        c = acct.collection  # the last demand mailed, and what stops the claim (R-A18)
        v.demand = SimpleNamespace(mailed_on=c.mailed_on, amount=c.demand.amount,
                                   last_day=c.last_day, court_from=c.court_claim_from,
                                   stage=c.stage, why=f.trace(c.trace()) + f.trace(
                                       closed_days.demand(c.mailed_on, c.last_day, closed)),
                                   mailed_text=f.date_long(c.mailed_on),
                                   amount_text=money(c.demand.amount),
                                   court_from_text=f.date_long(c.court_claim_from),
                                   stop_today=c.today, stop_today_text=money(c.today),
                                   stop_by_last=c.by_last_day,
                                   stop_by_last_text=money(c.by_last_day))
    v.answer = answer(acct, f)
    v.timeline = collection_views.timeline_view(acct, today, f)  # J9 (templates/collections)
    return v


def answer(acct: statements.AccountView, f: Formats) -> SimpleNamespace | None:
    """What the parcel page says first: the account's status and the one thing to do next,
    with the offer's figures (`core.offer`) worded here. `kind`:
    - "demand": past due, a demand in its window: what stops the court claim, by its last day;
    - "claimable": past due, the demand's last day gone: claimable in court since `day`;
    - "overdue": past due, no demand yet;
    - "due": an installment due now, still on time until `day` (its last timely day);
    - "next": up to date, the next installment and its last timely day;
    - "done": up to date, nothing else due this year.
    `lump`: the whole year in one payment while R-A11's window is open (its deadline)."""
    o = acct.offer
    if o is None or acct.statement is None:
        return None

    def money(value: Decimal) -> Any:  # the figure, with its words for a screen reader
        return spoken.formats_aloud(f, value)

    a = SimpleNamespace(kind="done", amount_text="", day=None, pay_text=money(o.due_now),
                        due_now=o.due_now, lump=None, amount=None, count=0,
                        due_by=o.due_now_by, due_count=o.due_now_count, not_late_text="")
    c = acct.collection
    if o.has_arrears:
        a.amount_text = money(o.arrears)
        a.kind = "overdue"
        if c is not None and c.stage == "demand_window":
            a.kind, a.day = "demand", c.last_day
            a.stop_today_text, a.stop_text = money(c.today), money(c.by_last_day)
            a.stop_today, a.stop_by = c.today, c.by_last_day
        elif c is not None and c.stage == "claimable":
            a.kind, a.day = "claimable", c.court_claim_from
    elif o.due_now > 0:
        due = [i for i in o.installments if i.status == "due"]
        a.kind, a.amount_text = "due", money(o.due_now)
        a.day = min(i.last_timely_day for i in due) if due else None
    elif o.next_due is not None:
        a.kind, a.amount_text, a.day = "next", money(o.next_due.owed), o.next_due.last_timely_day
        a.amount, a.count = o.next_due.owed, o.next_due.count
    if a.kind in ("overdue", "due", "demand", "claimable"):
        a.amount, a.count = (o.arrears if o.has_arrears else o.due_now), o.due_now_count
    if o.has_arrears and o.due_not_late > 0 and o.due_not_late_by is not None:
        # The pay button's due now is more than the arrears: say what the rest is.
        a.not_late, a.not_late_by = o.due_not_late, o.due_not_late_by
        a.not_late_text = money(o.due_not_late)
    q = o.lump_sum
    if q.eligible and q.deadline is not None:
        a.lump = SimpleNamespace(amount_text=money(q.amount), discount_text=money(q.discount),
                                 deadline=q.deadline, amount=q.amount)
    return a


def _lump_trace(q: Any, acct: statements.AccountView, closed: Any) -> Trace:
    """R-A11: the lump sum's explanation, with the declared closed day that moved its
    deadline, if one did."""
    t = q.trace()
    first = acct.installments[0].due_date if acct.installments else None
    deadline = acct.rules.lump_sum_deadline if acct.rules is not None else None
    t.extend(closed_days.lump_sum(q, first, deadline, closed))
    return t


#: The statement's figures that are not owed: shown apart from "What you owe".
NOT_OWED = ("discount",)


class ScheduleRow(NamedTuple):
    """One installment of the schedule table, its dates and amounts worded once here (the
    table has 12 rows of 8 cells: formatting them in the template was most of its cost)."""

    number: int
    status: str  # paid | delinquent | due | upcoming (the core's)
    status_label: str
    status_css: str
    due_date: date
    due_text: str
    last_timely_day: date
    last_text: str
    left_text: str  # "12 days left" while it can still be paid on time, else ""
    amount: Decimal | None
    principal: Decimal
    late_fee: Decimal
    interest: Decimal
    amount_text: str
    principal_text: str
    late_fee_text: str
    interest_text: str
    shown_status: str = ""  # the status shown: "cancelled" for one an amendment zeroed (R-A5)


_new_tuple = tuple.__new__


def schedule_rows(st: Any, installments: list, today: date) -> list[ScheduleRow]:
    """The statement's installments (R-A4 to R-A8) as the schedule table shows them."""
    f = formats()
    amounts = {i.number: i.amount for i in installments}
    labels: dict[str, tuple[str, str]] = {}
    rows = []
    for i in st.installments:
        amount = amounts.get(i.number)
        shown = installment_status(i.status, amount)
        label = labels.get(shown)
        if label is None:
            label = labels[shown] = (status_label(shown), status_css(shown))
        rows.append(_new_tuple(ScheduleRow, (  # (every field: a row without a Python frame)
            i.number, i.status, label[0], label[1],
            i.due_date, f.date_long(i.due_date), i.last_timely_day,
            f.date_long(i.last_timely_day),
            f.days_left(i.last_timely_day, today) if i.status in ("due", "upcoming") else "",
            amount, i.principal, i.late_fee, i.interest, f.money(amount), f.money(i.principal),
            f.money(i.late_fee), f.money(i.interest), shown)))
    return rows


def line_text(kind_label: str, description: str) -> str:
    """A budget line: "Kind: description", unless the description already starts with its
    kind (the Board's own words often do)."""
    if not description:
        return kind_label
    if description.casefold().startswith(kind_label.casefold()):
        return description
    return f"{kind_label}: {description}"


def _budget_steps(acct: statements.AccountView, f: Formats) -> list[ShownStep]:
    if acct.budget_version is None:
        return []
    t = Trace()
    t.add("R-A1", N_("The Board adopted budget version {version} on {adopted}: {total} to be "
                     "raised by assessments."),
          version=acct.budget_version.version, adopted=acct.budget_version.adopted_on,
          total=acct.budget_version.total_to_assess)
    return f.trace(t)


def _cost_text(entry: Any) -> str:
    label = cost_label(entry.cost_kind)
    return f"{label}: {entry.description}" if entry.description else label


def access_view(user: Any, parcel_id: int) -> tuple[Any, list[dict]] | None:
    """The parcel and the other people who can see it, for whoever manages it; else None."""
    try:
        with uow() as w:
            rows = parcels.access_list(w, user, parcel_id)
            parcel = access.get_parcel(w, user, parcel_id)
    except (NotFound, Forbidden):
        return None
    # People with an account and emails still to confirm one are listed alike (no account
    # enumeration: accounts.invitations).
    return parcel, [{"email": r["email"], "role_label": relation_label(r["role"]),
                     "since": clock.legal_date(r["since"])} for r in rows]


def staff_search(user: Any, q: str) -> tuple[list, list]:
    with uow() as w:
        access.require_staff(user)
        return access.search_parcels(w, user, q), users.search_people(w, user, q)


def staff_person(user: Any, user_id: int) -> SimpleNamespace | None:
    with uow() as w:
        access.require_staff(user)
        person = users.load_user(w, user_id)
        if person is None:
            return None
        linked = access.linked_parcels(w, person)
    return SimpleNamespace(
        id=person.id, name=person.name, email=person.email, language=person.language,
        email_confirmed=person.email_confirmed, is_self=person.id == user.id,
        two_factor_since=clock.legal_date(person.totp_enabled_at)
        if person.totp_enabled_at else None,
        parcels=[SimpleNamespace(id=p.id, catastro=p.catastro, address=p.address,
                                 relation_label=relation_label(rel)) for p, rel in linked])
