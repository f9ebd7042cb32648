"""The payoff certificate (certificación de deuda, J10, R-A19), as issued.

The certificate is worded and rendered once, when it is issued, by the collections domain
(`portal.collections.certificates.issue`: `document` and `render`, with its QR code,
`portal.pdf.certificate`), and its PDF is stored with it (append-only): a certificate is
always downloaded exactly as issued. Its wording stays in the domain because issuing it is
the domain's work, and the domains may not import this layer. Here: the stored PDF for a
reader the service allows (the parcel's owner or staff), with its file name. No Flask.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from portal.collections import certificates
from portal.db import UnitOfWork

#: Where the wording is (for a reader of this package).
document = certificates.document
render = certificates.render


def filename(catastro: str, issued_on: date, lang: str) -> str:
    """certificacion-de-deuda-<catastro>-<day>.pdf (payoff-certificate-... in English): in
    the certificate's own language."""
    return ("certificacion-de-deuda" if lang == "es" else "payoff-certificate") + \
        f"-{catastro}-{issued_on.isoformat()}.pdf"


def issued_pdf(w: UnitOfWork, user: Any, parcel_id: int, certificate_id: int
               ) -> tuple[bytes, str]:
    """The certificate's PDF as issued and its file name (NotFound for anyone but the
    parcel's owner or staff, as for an unknown certificate)."""
    cert, catastro = certificates.pdf_of(w, user, parcel_id, certificate_id)
    return cert.document, filename(catastro, cert.issued_on, cert.language)
