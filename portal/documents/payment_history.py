"""A person's payments of a calendar year (the account page, /cuenta): the view the page, the
CSV and the PDF share (`year_view`, worded in the language in force from
`portal.payments.receipts.year_history`: each payment's amount and refund as the ledger
recorded them), the CSV (`year_csv`: every cell through `portal.csv_text`, so a spreadsheet
never runs one as a formula) and the tagged PDF (`year_pdf`, `portal.pdf`).

No Flask: a command could issue the same files. No amount is computed here: the sums are the
service's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from portal import clock, pdf
from portal.csv_text import csv_lines
from portal.documents import receipt
from portal.i18n import date_long, format_address, money
from portal.i18n import gettext as _
from portal.payments.receipts import YearHistory


@dataclass(frozen=True)
class PaymentLine:
    day: date | None
    receipt_number: str
    catastro: str
    address: str
    what: str
    method: str
    status: str
    amount: Decimal
    refunded: Decimal


@dataclass(frozen=True)
class YearView:
    year: int
    name: str
    email: str
    lines: list[PaymentLine]
    paid: Decimal
    refunded: Decimal
    issued: date


def year_view(h: YearHistory, name: str, email: str) -> YearView:
    lines = []
    for y in h.payments:
        r = y.row
        shown = r.shown
        lines.append(PaymentLine(
            day=r.legal_date, receipt_number=shown.receipt_number or "",
            catastro=y.parcel.catastro,
            address=format_address(y.parcel.address, y.parcel.municipality),
            what=receipt.kind_label(r.payment.purpose, r.through),
            method=receipt.method_label(shown), status=receipt.status_label(shown.status),
            amount=r.payment.amount, refunded=r.payment.refunded_amount or Decimal("0.00")))
    return YearView(h.year, name, email, lines, h.paid, h.refunded, clock.today())


def _head() -> list[str]:
    return [_("Date"), _("Receipt"), _("Catastro number"), _("Address"), _("What"),
            _("Method"), _("Status"), _("Amount"), _("Refunded")]


def year_csv(v: YearView) -> Iterator[str]:
    """The CSV's lines: dates as YYYY-MM-DD and amounts as plain numbers (1234.50), as
    spreadsheets read them in either language; the header in the reader's language."""
    return csv_lines(_head(), (
        (ln.day.isoformat() if ln.day else "", ln.receipt_number, ln.catastro, ln.address,
         ln.what, ln.method, ln.status, f"{ln.amount:.2f}", f"{ln.refunded:.2f}")
        for ln in v.lines))


def year_document(v: YearView) -> pdf.Document:
    facts = [(_("Name"), v.name or "—"), (_("Email"), v.email),
             (_("Year"), str(v.year)),
             (_("Payments"), str(len(v.lines))),
             (_("Total paid"), money(v.paid))]
    if v.refunded:
        facts.append((_("Total refunded"), money(v.refunded)))
    rows = [(date_long(ln.day), ln.receipt_number or "—", ln.catastro,
             f"{ln.what} · {ln.method} · {ln.status}",
             money(ln.amount) + (f" (−{money(ln.refunded)})" if ln.refunded else ""))
            for ln in v.lines]
    table = pdf.Table(head=(_("Date"), _("Receipt"), _("Parcel"), _("What"), _("Amount")),
                      rows=rows, widths=(25, 16, 18, 41, 17), align="LLLLR",
                      heading=_("Payments made in %(year)s", year=v.year))
    notes = [_("Every payment completed from January 1 to December 31, %(year)s (Puerto Rico "
               "dates), on the parcels you own or lease and those you paid yourself. Each "
               "receipt, with what the payment was applied to, is on the portal.",
               year=v.year)]
    if not v.lines:
        notes.insert(0, _("No payments in %(year)s.", year=v.year))
    return pdf.Document(
        title=_("Payment history %(year)s", year=v.year),
        subtitle=_("District Assessments Portal"),
        facts=facts, tables=[table] if rows else [], notes=notes,
        reference=_("Payment history %(year)s", year=v.year), on=v.issued)


def year_pdf(v: YearView, lang: str) -> bytes:
    """The year's payments as a tagged PDF in `lang`."""
    return pdf.render(year_document(v), lang)


def filename(year: int, lang: str, ext: str) -> str:
    """pagos-2026.csv, payments-2026.pdf."""
    return ("pagos" if lang == "es" else "payments") + f"-{year}.{ext}"
