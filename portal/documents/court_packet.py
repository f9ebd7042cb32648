"""The court packet of a Rule 60 claim (R-A13): one tagged PDF in the staff's language with
the statement of account today (`statement`), the demand as it was sent and the receipt of
its mailing (`demand_letter`), each from a new page with its own footnotes.

No Flask: the caller passes the parcel page's values (`portal.web.accounts.views.parcel_view`),
the letter's facts (`portal.collections.demands.letter`) and the declared closed days.
"""

from __future__ import annotations

from portal.accounts import closed_days
from portal.collections import demands
from portal.documents import demand_letter, statement
from portal.i18n import use_language
from portal.pdf.demand import render_all


def may_print(lf: demands.LetterFacts) -> bool:
    """A packet is for a demand mailed, whose last day has passed and that is still owed."""
    stop = lf.timeline.stop
    return lf.notice.mailed_on is not None and stop is not None and stop.stage == "claimable"


def packet_pdf(v: statement.ParcelPage, lf: demands.LetterFacts, lang: str,
               closed: tuple[closed_days.ClosedDay, ...] = ()) -> bytes:
    """The packet in `lang`: the statement `v` (its values worded in `lang`), the demand
    letter, the receipt of mailing."""
    with use_language(lang):
        first = statement.statement_document(v)
    return render_all(first, lang,
                      [(demand_letter.letter_document(lf, lang, closed), lang),
                       (demand_letter.mailing_document(lf, lang), lang)])


def filename(notice_id: int, lang: str) -> str:
    return f"expediente-{notice_id}.pdf" if lang == "es" else f"court-packet-{notice_id}.pdf"
