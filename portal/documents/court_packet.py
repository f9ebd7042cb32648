"""The court packet of a Rule 60 claim (R-A13): one PDF in the staff's language with the
statement of account today (`statement`), the demand letter as kept when it was queued
(R-A17: the same file the payer was sent, never re-rendered; `collections.letters`) and the
receipt of its mailing as recorded (`demand_letter`), each from a new page with its own
footnotes.

No Flask: the caller passes the parcel page's values (`portal.web.accounts.views.parcel_view`),
the letter's facts (`portal.collections.demands.letter`) and the declared closed days.
"""

from __future__ import annotations

from portal.accounts import closed_days
from portal.collections import demands, letters
from portal.documents import demand_letter, statement
from portal.i18n import use_language
from portal.pdf.demand import render_all


def may_print(lf: demands.LetterFacts) -> bool:
    """A packet is for a demand mailed, whose last day has passed and that is still owed."""
    stop = lf.timeline.stop
    return lf.notice.mailed_on is not None and stop is not None and stop.stage == "claimable"


def packet_pdf(v: statement.ParcelPage, lf: demands.LetterFacts, lang: str,
               closed: tuple[closed_days.ClosedDay, ...] = (), kept: bytes | None = None
               ) -> bytes:
    """The packet in `lang`: the statement `v` (its values worded in `lang`), the demand
    letter, the receipt of mailing. `kept`: the letter as kept when it was queued (R-A17),
    put in as it is, between the two, its tags kept (`collections.letters.merge`); without it (a
    demand from before letters were kept) the letter is worded from its stored amounts."""
    with use_language(lang):
        first = statement.statement_document(v)
    if kept is not None:
        receipt = demand_letter.mailing_document(lf, lang, closed)
        return letters.merge([render_all(first, lang, []), kept, render_all(receipt, lang, [])])
    return render_all(first, lang,
                      [(demand_letter.letter_document(lf, lang, closed), lang),
                       (demand_letter.mailing_document(lf, lang, closed), lang)])


def filename(notice_id: int, lang: str) -> str:
    return f"expediente-{notice_id}.pdf" if lang == "es" else f"court-packet-{notice_id}.pdf"
