"""The collection timeline of an account on a day (J9): every step with its date, and the
exact amount that, paid by a given day, stops the next step.

R-A4 (notified), R-A6 (due; delinquent after the rolled day G), R-A7/R-A8 (late fee,
interest), R-A12/R-A17 (the demand, queued the day after each month's rolled day G for every
delinquent account, mailed by certified mail with return receipt), R-A13 (the 15 days after
mailing, the last day rolled over weekends, holidays and declared closures; claimable in court
from the day after), R-A18 (what stops the court claim). 23 LPRA § 6432(d).

The steps, in order (`STEPS`): notified, due, delinquent, demand_queued, demand_mailed,
received, window_ends, claimable, claimed. Each has the day it happened (`done`) or the day
it will happen if nothing is paid (`done` False; `on` None when it cannot be known yet, such
as the window's last day before the demand is mailed).

The next step and what stops it (`NextStop`):
- nothing delinquent, an installment unpaid: it becomes delinquent after its rolled day G
  (R-A6, R-A7: a late fee, and interest from its due date); paying what comes before it in
  R-A10's order and its principal by that day stops it;
- delinquent, no demand: a demand is queued on the run day on or after today, the day after a
  month's rolled day G (R-A17; on that day itself, today: "today a demand is queued"); paid by
  the day before, the amount that leaves no principal delinquent at the end of that
  day (every installment whose day G is then past, with all interest, fees and costs first,
  R-A10) stops it;
- a demand queued, not yet mailed: what it lists, paid today (its last day is known only once
  it is mailed: 15 days after mailing, R-A13);
- a demand mailed, in its window: what it lists with interest to the last day, paid by the last
  day, stops the court claim (R-A18, `offer.StopOption`);
- past the last day: claimable in court; what the demand listed, paid today (staff decides
  whether to sue, R-A18);
- claimed: no next step here (the court's).

Pure: the account's facts (`offer.Account`) in, dates and amounts out. Every amount comes from
the core's `statement` and `offer.to_clear` (R-A10's order), computed once here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from portal.core.collection import Demand
from portal.core.deadlines import demand_mailing, demand_run_day
from portal.core.explain import N_, Trace
from portal.core.money import ZERO
from portal.core.offer import Account, Offer, StopOption, offer, to_clear
from portal.core.statement import InstallmentStatus, Statement, interest_per_day

STEPS = ("notified", "due", "delinquent", "demand_queued", "demand_mailed", "received",
         "window_ends", "claimable", "claimed")
RULE_OF_STEP = {"notified": "R-A4", "due": "R-A4", "delinquent": "R-A6",
                "demand_queued": "R-A12", "demand_mailed": "R-A12", "received": "R-A12",
                "window_ends": "R-A13", "claimable": "R-A13", "claimed": "R-A13"}
#: What the next step is, as `NextStop.step`.
NEXT_STEPS = ("delinquent", "demand_queued", "claimable", "claimed")


@dataclass(frozen=True)
class Step:
    key: str  # one of STEPS
    on: date | None  # the day it happened, or will if nothing is paid; None: not known yet
    done: bool  # it has happened by the timeline's day

    @property
    def rule(self) -> str:
        return RULE_OF_STEP[self.key]


@dataclass(frozen=True)
class NextStop:
    """`amount` paid by `by` (None: today is the only day that can be said) stops `step`."""

    step: str  # one of NEXT_STEPS
    amount: Decimal
    by: date | None
    rule: str
    installment: int | None = None  # for "delinquent": the installment that would be
    on: date | None = None  # for "demand_queued": the run day (R-A17), `by` + 1 or today
    #: for "delinquent": every installment whose day G is `by` (a notice may move several to
    #: one due day: one payment keeps them all on time)
    installments: tuple[int, ...] = ()


@dataclass(frozen=True)
class Timeline:
    today: date
    stage: str  # current | due | delinquent | demand_queued | demand_window | claimable |
    #             claimed | paid
    steps: tuple[Step, ...]
    next: NextStop | None
    stop: StopOption | None  # the mailed demand's figures (R-A18), when there is one

    def step(self, key: str) -> Step | None:
        return next((s for s in self.steps if s.key == key), None)

    def trace(self) -> Trace:
        """The sentence the parcel page and the demand letter say: what stops the next step."""
        t = Trace()
        n = self.next
        if n is None:
            if self.stage == "claimed":
                t.add("R-A13", N_("The debt has been claimed in court under Rule 60 of Civil "
                                  "Procedure."))
            return t
        if n.step == "delinquent" and len(n.installments) > 1:
            t.add("R-A6", N_("Pay {amount} by {by} and installments {first} to {last} stay on "
                             "time; after that day they are delinquent, each with a late fee "
                             "and interest from its due date."),
                  amount=n.amount, by=n.by, first=n.installments[0], last=n.installments[-1])
        elif n.step == "delinquent":
            t.add("R-A6", N_("Pay {amount} by {by} and installment {number} stays on time; "
                             "after that day it is delinquent, with a late fee and interest "
                             "from its due date."),
                  amount=n.amount, by=n.by, number=n.installment)
        elif n.step == "demand_queued" and n.on == self.today:
            t.add("R-A17", N_("Today, {run}, a demand by certified mail is queued for every "
                              "amount past due; {amount} pays everything past due today."),
                  amount=n.amount, run=n.on)
        elif n.step == "demand_queued":
            t.add("R-A12", N_("Pay {amount} by {by} and no installment stays past due; "
                              "otherwise, on {run}, a demand by certified mail is queued for "
                              "every amount past due."),
                  amount=n.amount, by=n.by, run=n.on)
        elif n.step == "claimable" and n.by is None:
            t.add("R-A13", N_("A demand for what is past due is about to be mailed by "
                              "certified mail; paid today, {amount} pays everything it lists. "
                              "Once mailed, there are 15 days to pay it."),
                  amount=n.amount)
        elif n.step == "claimable":
            t.add("R-A13", N_("Pay {amount} by {by}, the demand's last day, and the claim in "
                              "court is stopped; from {first} the debt may be claimed in court "
                              "under Rule 60 of Civil Procedure, whatever the amount."),
                  amount=n.amount, by=n.by, first=self.stop.court_claim_from if self.stop
                  else None)
        else:
            t.add("R-A13", N_("The demand's last day has passed: the debt may be claimed in "
                              "court. Paid today, {amount} pays everything the demand "
                              "listed."), amount=n.amount)
        return t


def mail_by(queued_on: date, closed_days: frozenset[date] = frozenset()) -> date:
    """R-A17, 23 LPRA § 6432(d) (policy): the last day to mail a demand queued on
    `queued_on` (`deadlines.demand_mailing`: the 5th working day after it; weekends, Puerto
    Rico holidays and days the Board declares closed do not count)."""
    return demand_mailing(queued_on, closed_days)


def next_run_day(on: date, grace: int, closed_days: frozenset[date] = frozenset()) -> date:
    """R-A17: the first day on or after `on` on which demands are queued: the day after a
    month's rolled day G (counted for an installment due on the 1st;
    `deadlines.demand_run_day`). On the run day itself it is that day: on 11 November, with
    day G Tuesday 10 November, it is 11 November, not 11 December."""
    return demand_run_day(on, grace, closed_days)


def _anchor(st: Statement, demanded: tuple[int, ...]) -> InstallmentStatus | None:
    """The installment the timeline follows: the first unpaid one a demand listed; else the first
    delinquent; else the next to fall due unpaid."""
    items = st.installments
    listed = [i for i in items if i.number in demanded]
    if listed:
        unpaid = [i for i in listed if i.status != "paid"]
        return min(unpaid or listed, key=lambda i: (i.due_date, i.number))
    for status in ("delinquent", "due", "upcoming"):
        found = [i for i in items if i.status == status]
        if found:
            return min(found, key=lambda i: (i.due_date, i.number))
    return None


def timeline(account: Account, today: date, *, notified_on: date | None = None,
             demand: Demand | None = None, queued_on: date | None = None,
             claimed_on: date | None = None, offered: Offer | None = None) -> Timeline:
    """Every collection step of `account` on `today` and what stops the next (module doc).
    `demand`: the last demand mailed (R-A12); `queued_on`: a demand queued and not yet mailed;
    `claimed_on`: the day a claim in court was filed; `offered`: `offer(account, today,
    demand=demand)` when the caller has computed it (the parcel page), else computed here."""
    rules = account.rules
    closed = rules.closed_days
    o = offered if offered is not None and offered.on == today and \
        (offered.stop is None) == (demand is None) else \
        offer(account, today, demand=demand, with_later=False)
    st, stop = o.statement, o.stop
    if stop is not None and stop.stage == "paid":
        active = None  # R-A18: stopped; new delinquencies get new demands
    else:
        active = stop
    anchor = _anchor(st, stop.demanded if active is not None else ())
    steps: list[Step] = []
    if notified_on is not None:
        steps.append(Step("notified", notified_on, notified_on <= today))
    if anchor is not None:
        steps.append(Step("due", anchor.due_date, anchor.due_date <= today))
        late = anchor.last_timely_day + timedelta(days=1)
        steps.append(Step("delinquent", late, late <= today))
    nxt: NextStop | None = None
    delinquent = st.delinquent_principal > 0
    if claimed_on is not None:
        stage = "claimed"
    elif active is not None:
        stage = stop.stage
    elif queued_on is not None and delinquent:
        stage = "demand_queued"
    elif delinquent:
        stage = "delinquent"
    elif st.total_due_now > 0:
        stage = "due"
    elif st.payoff > 0 or stop is None:
        stage = "current"
    else:
        stage = "paid"

    if active is not None:
        queued = queued_on if queued_on is not None and queued_on <= active.mailed_on else None
        if queued is not None:
            steps.append(Step("demand_queued", queued, True))
        steps.append(Step("demand_mailed", active.mailed_on, True))
        ack = active.demand.acknowledged_on
        steps.append(Step("received", ack, ack is not None))
        steps.append(Step("window_ends", active.last_day, today > active.last_day))
        steps.append(Step("claimable", active.court_claim_from,
                          today >= active.court_claim_from))
        steps.append(Step("claimed", claimed_on, claimed_on is not None))
        if claimed_on is None:
            if stage == "demand_window":
                nxt = NextStop("claimable", active.by_last_day, active.last_day, "R-A13")
            else:
                nxt = NextStop("claimed", active.today, today, "R-A13")
    elif stage == "demand_queued":
        steps.append(Step("demand_queued", queued_on, True))
        steps.append(Step("demand_mailed", mail_by(queued_on, closed), False))  # R-A17
        steps.extend(Step(k, None, False) for k in ("received", "window_ends", "claimable",
                                                    "claimed"))
        listed = offer(account, today, demand=Demand(queued_on, ZERO), with_later=False).stop
        nxt = NextStop("claimable", listed.today, None, "R-A13")
    elif stage == "delinquent":
        # R-A17: queued on the run day on or after today; on the run day itself, today
        run = next_run_day(today, rules.grace_day, closed)
        by = max(today, run - timedelta(days=1))
        steps.append(Step("demand_queued", run, False))
        steps.extend(Step(k, None, False) for k in ("demand_mailed", "received", "window_ends",
                                                    "claimable", "claimed"))
        nxt = NextStop("demand_queued", _clears_delinquency(account, by), by, "R-A12",
                       on=run)
    elif stage in ("due", "current") and anchor is not None:
        by = anchor.last_timely_day
        at = account.statement(by) if by > today else st
        same = tuple(i.number for i in at.installments
                     if i.status != "paid" and i.last_timely_day == by) or (anchor.number,)
        nxt = NextStop("delinquent", to_clear(at, {("installment", n) for n in same}), by,
                       "R-A6", anchor.number, installments=same)
    return Timeline(today, stage, tuple(steps), nxt, stop)


def _clears_delinquency(account: Account, by: date) -> Decimal:
    """R-A6, R-A10, R-A17: the least payment on `by` that leaves no principal delinquent at the
    end of that day: every unpaid installment whose rolled day G is `by` or before, after all
    interest, late fees and costs."""
    st = account.statement(by)
    wanted = {("installment", i.number) for i in st.installments
              if i.status != "paid" and i.last_timely_day <= by}
    return to_clear(st, wanted)


__all__ = ["NEXT_STEPS", "STEPS", "NextStop", "Step", "Timeline", "interest_per_day", "mail_by",
           "next_run_day", "timeline"]
