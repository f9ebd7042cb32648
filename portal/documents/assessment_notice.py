"""The assessment notice (J8; R-A4, R-A5, R-A16) on demand: a parcel's notice as a tagged PDF
in the reader's language, and its file name.

The notice is worded by the roll domain (`portal.roll.notices.document` and
`email_context`), because the job "roll.notify" (a domain's job, run by the worker) prints
every notice of a published roll and emails its payers, and the domains may not import this
layer; rendered by `portal.pdf.assessment_notice`. The on-demand download (a payer's from the
parcel page, staff's from the roll) prints it from the stored facts
(`notices.latest_notice`, `notices.staff_notice`), without the access code (only its hash is
stored). No Flask: the caller passes the portal's base address (PORTAL_BASE_URL).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from portal.roll import notices
from portal.roll.notices import NoticeFacts

#: Where the wording is (for a reader of this package).
document = notices.document
LANGS = notices.LANGS


def base_url(config: Mapping[str, Any]) -> str:
    """PORTAL_BASE_URL without its trailing slash: the notice's links start with it."""
    return str(config.get("PORTAL_BASE_URL") or "").rstrip("/")


def notice_pdf(loaded: tuple[NoticeFacts, str, date | None], lang: str, base: str,
               secret: str | None = None) -> bytes:
    """The notice as a tagged PDF in `lang` (no access code: it is not stored); with
    `secret` (the app's SECRET_KEY), the QR code of the parcel's signed pay link."""
    return notices.notice_pdf(loaded, lang, base, secret)


def filename(catastro: str, lang: str) -> str:
    return ("aviso-de-tasacion" if lang == "es" else "assessment-notice") + f"-{catastro}.pdf"

