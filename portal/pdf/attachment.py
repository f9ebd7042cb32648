"""The notice of attachment (R-C1–R-C3, R-C7; 13 LPRA § 33262) as the portal recorded it:
in the reader's language first and then in the other, in one tagged PDF — the demand's
sequence of documents (`demand.render_all`: the second version from a new page, inside a
/Sect with its own /Lang and footnotes). The caller words both versions and passes the
core's figures already formatted (`portal.documents.attachment_notice.notice_document`); the
layer words nothing of its own. No auction minimum is ever part of it (R-C5)."""

from __future__ import annotations

from portal.pdf.demand import render_all
from portal.pdf.model import Document


def render_notice(first: Document, lang: str, second: Document, second_lang: str) -> bytes:
    """One PDF: the notice in `lang`, then in `second_lang`."""
    return render_all(first, lang, [(second, second_lang)])
