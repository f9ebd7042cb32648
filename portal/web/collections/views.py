"""What the collections pages say, worded once here in the request's language: the owner's
timeline (J9, `core.collection_timeline`) and the staff's rows. The demand letter (R-A17)
and the receipt of mailing are `portal.documents.demand_letter`'s."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace
from typing import Any

from portal.collections import demands
from portal.core.explain import N_
from portal.i18n import Formats, formats

#: The steps of the timeline, in the owner's words (worded by `Formats.words`: once a language).
STEP_LABELS = {
    "notified": N_("Assessment notified"),
    "due": N_("Installment due"),
    "delinquent": N_("Delinquent (after the grace day)"),
    "demand_queued": N_("Demand queued"),
    "demand_mailed": N_("Demand mailed by certified mail"),
    "received": N_("Return receipt"),
    "window_ends": N_("Last day to pay the demand"),
    "claimable": N_("May be claimed in court"),
    "claimed": N_("Claimed in court"),
}
#: A step with no date yet: why.
NOT_YET = {
    "demand_mailed": N_("when it is mailed"),
    "received": N_("when the return receipt comes back"),
    "window_ends": N_("15 days after mailing"),
    "claimable": N_("the day after the last day"),
    "claimed": N_("if staff decide to sue"),
}
#: A demand's status on the staff's lists (`status_text`: in the reader's words).
STATUS_LABELS = {
    "queued": N_("Queued, not mailed"),
    "mailed": N_("Mailed, in its 15 days"),
    "received": N_("Received, in its 15 days"),
    "claimable": N_("May go to court"),
    "claimed": N_("Claimed in court"),
    "paid": N_("Paid: claim stopped"),
}


def timeline_view(acct: Any, today: date, f: Formats | None = None) -> SimpleNamespace | None:
    """The parcel page's collection timeline (one line in `accounts.views.parcel_view`): every
    step with its date and the amount that, paid by which day, stops the next step. None
    when the account has nothing to collect (no statement, or nothing owed nor upcoming)."""
    if acct.offer is None or acct.statement is None or acct.assessment is None:
        return None
    sent = [n for n in acct.demands if n.kind == "demand"]
    st = acct.statement
    if not sent and acct.offer.on == today and st.delinquent_principal <= 0 \
            and st.total_due_now <= 0:
        # Without a demand the core's stage is "delinquent" or "due" only from these two
        # figures of today's statement, else "current" or "paid": nothing to show, and the
        # timeline (an up-to-date account's) is not computed to be dropped.
        return None
    tl = demands.account_timeline(acct.offer.account, today, acct.assessment.notified_on,
                                  sent, acct.claims, offered=acct.offer)
    if tl.stage in ("current", "paid") and not sent:
        return None  # up to date: the page's first screen says what is next
    return shown(tl, today, f or formats())


def shown(tl: Any, today: date, f: Formats) -> SimpleNamespace:
    words = f.words
    steps = [SimpleNamespace(key=s.key, label=words(STEP_LABELS[s.key]), day=s.on, done=s.done,
                             text=f.date_long(s.on) if s.on else (
                                 words(NOT_YET[s.key]) if s.key in NOT_YET else "—"),
                             rule=s.rule)
             for s in tl.steps]
    n = tl.next
    why = f.trace(tl.trace())  # worded once: the explanation, and the sentence of its texts
    return SimpleNamespace(stage=tl.stage, steps=steps, today=today,
                           next=None if n is None else SimpleNamespace(
                               step=n.step, amount=n.amount, by=n.by,
                               amount_text=f.money(n.amount)),
                           why=why, sentence=" ".join(s.text for s in why))


def status_text(status: str, f: Formats) -> str:
    """A demand's status in the reader's words (each label translated once a language)."""
    label = STATUS_LABELS.get(status)
    return status if label is None else f.words(label)


def row_view(r: demands.DemandRow, f: Formats) -> SimpleNamespace:
    """A demand on the staff's lists."""
    n, dl = r.notice, r.letter
    return SimpleNamespace(
        mail_by_text=f.date_long(r.mail_by) if r.mail_by is not None else "",
        id=n.id, catastro=r.catastro, addressee=r.addressee or "—",
        status=r.status, status_text=status_text(r.status, f),
        amount_text=f.money(n.amount), run_text=f.date_long(dl.run_on) if dl else "—",
        mailed_text=f.date_long(n.mailed_on) if n.mailed_on else "—",
        number=n.certified_mail_number or "—", number_value=n.certified_mail_number or "",
        mailed_on=n.mailed_on,
        received_text=f.date_long(n.acknowledged_on) if n.acknowledged_on else "—",
        last_day=r.last_day, last_text=f.date_long(r.last_day) if r.last_day else "—",
        claimable_from=r.claimable_from,
        claimable_text=f.date_long(r.claimable_from) if r.claimable_from else "—",
        stop_text=f.money(r.stop_amount) if r.stop_amount is not None else "—",
        claim=r.claim, language=n.language, mailed=n.mailed_on is not None,
        received=n.acknowledged_on is not None)
