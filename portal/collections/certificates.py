"""Payoff certificates (certificación de deuda, J10, R-A19): issue, verify, list.

- `issue`: the owner of the parcel (or staff) asks for a certificate good through a date
  (the issue date up to `CERTIFICATE_DAYS` later). Its content is the core's
  (`core.payoff_certificate`: every fiscal year with something owed or credited, and the
  year of the issue date, each the account's statement as of the good-through date; the
  R-A15 ranking with the parcel's mortgages), worded and rendered once as the PDF in the
  asker's language, with a verification code and its QR code; stored as issued
  (`models.DebtCertificate`, append-only) and audit-logged.
- Who may: the owner and staff. Not a lessee: J10 is the owner's (a sale, a refinancing),
  R-A19's certificate speaks for the parcel and its lien (R-A15), which is the owner's
  title, and a lessee already has the pay-off amount good through a date on the parcel page
  (J4); nor a delegate or a lender (they see the account, they do not certify it). For
  anyone else the parcel, its certificates and their PDFs are not found (404).
- `verify(code)`: anyone, without signing in, rate-limited per address (`services.
  throttle`): only what the certificate says on its face (parcel, issue date, good-through
  date, amounts) and whether it still holds (`standing`).
- The code: 28 characters of Crockford's base32 (140 random bits from `secrets`), shown in
  groups of four. Only its SHA-256 digest is stored and looked up (docs/CERTIFICATES.md).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import func, select

from portal import clock, pdf
from portal.accounts import access, audit, statements, throttle
from portal.accounts.errors import InvalidInput, NotFound
from portal.core.explain import N_
from portal.core.payoff_certificate import (
    CERTIFICATE_DAYS,
    CertificateContent,
    CertificateDateError,
    RankedLien,
    YearFigures,
    certificate,
    check_good_through,
    last_good_through,
    year_figures,
)
from portal.core.rules import LAW_6432, RULES
from portal.db import UnitOfWork
from portal.i18n import Formats, formats, translate, use_language
from portal.i18n import gettext as _
from portal.models import (
    Assessment,
    DebtCertificate,
    FiscalYear,
    Lease,
    LedgerEntry,
    Lender,
    Loan,
    Notice,
    OwnershipShare,
    Party,
)
from portal.pdf.certificate import Code, render_with_code

__all__ = ["CERTIFICATE_DAYS", "ISSUERS", "Issued", "Listed", "Verified", "digest", "display",
           "issue", "last_good_through", "listing", "new_code", "normalise", "pdf_of",
           "standing", "verify"]

#: Who may issue and download a parcel's certificates (see the module's docstring).
ISSUERS = ("owner", "staff")
#: Public look-ups of codes per client address: (count, seconds).
VERIFY_LIMIT = (30, 15 * 60)
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32: no I, L, O or U
CODE_LENGTH = 28  # 28 x 5 = 140 random bits
_READ_AS = {"O": "0", "I": "1", "L": "1"}  # what a reader may type for 0 and 1

R_A19 = pdf.Ref("R-A19", f"{LAW_6432}(e)", "")  # the title is worded per document


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def display(code: str) -> str:
    """The code in groups of four, as printed and shown: "7KQ2-M9XD-...". """
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))


def normalise(text: str | None) -> str | None:
    """A code as typed (any case, spaces or hyphens, O for 0, I or L for 1), or None when it
    cannot be one."""
    if not text:
        return None
    out = "".join(_READ_AS.get(c, c) for c in text.upper() if c not in " -\t")
    if len(out) != CODE_LENGTH or any(c not in ALPHABET for c in out):
        return None
    return out


def digest(code: str) -> str:
    return hashlib.sha256(code.encode("ascii")).hexdigest()


# --- issuing --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Issued:
    certificate: DebtCertificate
    code: str  # as displayed: shown once on the page that follows, printed in the PDF


def _issuer_parcel(uow: UnitOfWork, user: Any, parcel_id: int | str) -> Any:
    """The parcel if the user may issue its certificates (owner or staff), else NotFound."""
    parcel, relation = access.get_parcel_and_relation(uow, user, parcel_id)
    if relation not in ISSUERS:
        raise NotFound()
    return parcel


def may_issue(uow: UnitOfWork, user: Any, parcel_id: int | str) -> bool:
    try:
        _issuer_parcel(uow, user, parcel_id)
    except NotFound:
        return False
    return True


def issue(uow: UnitOfWork, user: Any, parcel_id: int | str, good_through: date, lang: str,
          verify_url: str) -> Issued:
    """R-A19: issue a certificate of the parcel good through `good_through`, in `lang`.
    `verify_url`: the public verification page's absolute address (the code is added as
    `?codigo=`). NotFound unless the user is the parcel's owner or staff; InvalidInput
    ("past" / "too_far", with `last`) for a date outside the horizon."""
    parcel = _issuer_parcel(uow, user, parcel_id)
    today = clock.today()
    try:
        check_good_through(today, good_through)
    except CertificateDateError as exc:
        raise InvalidInput(exc.code, last=exc.last) from None
    # The marks first: a fact written while the content is read then counts as later, so
    # the certificate is superseded rather than valid without it.
    marks = _marks(uow, parcel.id)
    content = _content(uow, user, parcel, today, good_through)
    code = new_code()
    link = f"{verify_url}?codigo={display(code)}"
    document = render(content, display(code), link, lang)
    cert = DebtCertificate(
        parcel_id=parcel.id, issued_at=clock.now(), issued_on=today, issued_by_id=user.id,
        good_through=good_through, total_due=content.total_due,
        upcoming=content.upcoming_principal, payoff=content.payoff, language=lang,
        code_digest=digest(code), content=json.dumps(content.to_json(), sort_keys=True),
        document=document, last_entry_id=marks[0], last_assessment_id=marks[1])
    uow.session.add(cert)
    uow.session.flush()
    audit.record(uow, user, "certificate.issued", cert,
                 after={"parcel_id": parcel.id, "good_through": good_through.isoformat(),
                        "payoff": str(content.payoff), "language": lang})
    return Issued(cert, display(code))


def _marks(uow: UnitOfWork, parcel_id: int) -> tuple[int, int]:
    """The parcel's last ledger entry id and last assessment id (0: none)."""
    entry = uow.session.scalar(select(func.max(LedgerEntry.id))
                               .where(LedgerEntry.parcel_id == parcel_id))
    assessment = uow.session.scalar(select(func.max(Assessment.id))
                                    .where(Assessment.parcel_id == parcel_id))
    return int(entry or 0), int(assessment or 0)


def _content(uow: UnitOfWork, user: Any, parcel: Any, today: date, good_through: date
             ) -> CertificateContent:
    """R-A19's content from the accounts (`accounts.statement_for`, the parcel page's
    facts) of every fiscal year of the parcel that began by the good-through date."""
    years: list[YearFigures] = []
    payer = "owner"
    fiscal_years = uow.session.scalars(
        select(FiscalYear).join(Assessment, Assessment.fiscal_year_id == FiscalYear.id)
        .where(Assessment.parcel_id == parcel.id, FiscalYear.starts_on <= good_through)
        .distinct().order_by(FiscalYear.starts_on)).all()
    for fy in fiscal_years:
        view = statements.statement_for(uow, user, parcel.id, fiscal_year=fy, as_of=today,
                                      with_payments=False)
        if view.facts is None or view.assessment is None:
            continue
        version = view.budget_version
        y = year_figures(view.facts.account(label=parcel.catastro, on=good_through), today,
                         good_through, demand=statements.last_demand(view.demands),
                         budget_version=version.version if version is not None else None,
                         budget_adopted_on=version.adopted_on if version is not None else None)
        current = fy.starts_on <= today <= fy.ends_on
        if current or y.payoff > 0 or y.credit > 0:
            years.append(y)
        if current:
            payer = view.payer
    return certificate(parcel.catastro, payer, _payer_names(uow, parcel.id, payer, today),
                       today, good_through, years, _mortgages(uow, parcel.id, today))


def _payer_names(uow: UnitOfWork, parcel_id: int, payer: str, on: date) -> list[str]:
    """R-A16: the owners on `on` (their shares in force), or the lessee of the lease in
    force, by name."""
    if payer == "lessee":
        stmt = (select(Party.name).join(Lease, Lease.lessee_party_id == Party.id)
                .where(Lease.parcel_id == parcel_id, Lease.starts_on <= on,
                       (Lease.ends_on.is_(None)) | (Lease.ends_on >= on)))
    else:
        stmt = (select(Party.name).join(OwnershipShare, OwnershipShare.party_id == Party.id)
                .where(OwnershipShare.parcel_id == parcel_id, OwnershipShare.starts_on <= on,
                       (OwnershipShare.ends_on.is_(None)) | (OwnershipShare.ends_on >= on)))
    return sorted(set(uow.session.scalars(stmt)))


def _mortgages(uow: UnitOfWork, parcel_id: int, on: date) -> list[RankedLien]:
    """The parcel's mortgages the portal knows (its lenders' loans active on `on`), with
    their recording dates (R-A15: constituted when recorded) and the lenders' names."""
    rows = uow.session.execute(
        select(Loan.recorded_on, Party.name).join(Lender, Lender.id == Loan.lender_id)
        .join(Party, Party.id == Lender.party_id)
        .where(Loan.parcel_id == parcel_id, Loan.starts_on <= on,
               (Loan.ends_on.is_(None)) | (Loan.ends_on >= on))
        .order_by(Loan.recorded_on, Loan.id)).all()
    return [RankedLien("mortgage", recorded, name) for recorded, name in rows]


# --- the document ---------------------------------------------------------------------------

def render(content: CertificateContent, code: str, link: str, lang: str) -> bytes:
    """The certificate as a tagged PDF in `lang`, with the QR code of `link`."""
    with use_language(lang):
        doc = document(content, code, link)
        qr = Code(link, _("QR code of the verification address: %(link)s", link=link),
                  (_("Verify this certificate"),
                   _("Scan the code, or go to %(link)s and type the code %(code)s. The page "
                     "shows what this certificate says and whether it still holds.",
                     link=link.split("?", 1)[0], code=code)))
    return render_with_code(doc, lang, qr)


PAYERS = {"owner": N_("Owner"), "lessee": N_("Lessee (under the lease)")}
KINDS = {
    "fiscal_act21_1997": N_("Fiscal lien for tax debt transferred under Act 21 of 1997, if "
                            "any"),
    "property_tax": N_("Municipal property-tax lien (CRIM), if any"),
    "mortgage": N_("Mortgage"),
}
STAGES = {
    "demand_window": N_("Demand mailed on %(mailed)s; last day to pay it: %(last)s."),
    "claimable": N_("Demand mailed on %(mailed)s, not paid by %(last)s: since %(court)s the "
                    "debt may be claimed in court (Rule 60)."),
    "paid": N_("Demand mailed on %(mailed)s: nothing is owed any more on what it listed."),
}


def _ref(rule_id: str) -> pdf.Ref:
    if rule_id == "R-A19":
        return pdf.Ref("R-A19", R_A19.source, _("Payoff certificate"))
    r = RULES[rule_id]
    return pdf.Ref(r.id, r.source, translate(r.title))


def document(content: CertificateContent, code: str, link: str) -> pdf.Document:
    """What the certificate says (R-A19), worded in the language in force."""
    f = formats()
    c = content
    through = f.date_long(c.good_through)
    facts = [(_("Parcel"), c.catastro),
             (_("Payer"), _(PAYERS.get(c.payer, PAYERS["owner"]))
              + (": " + "; ".join(c.payer_names) if c.payer_names else "")),
             (_("Date issued"), f.date_long(c.issued_on)),
             (_("Good through"), through),
             (_("Verification code"), code),
             (_("Verify at"), link.split("?", 1)[0])]
    rows = [pdf.Row(_("Past due and due, paid by %(date)s", date=through), f.money(c.total_due)),
            pdf.Row(_("Installments not yet due on %(date)s (apart)", date=through),
                    f.money(c.upcoming_principal)),
            pdf.Row(_("Pay-off amount, good through %(date)s", date=through), f.money(c.payoff),
                    [pdf.Why(_("Paid by %(date)s, it settles every item this certificate "
                               "lists.", date=through), _ref("R-A19"))], strong=True)]
    tables = [_year_table(y, f, through) for y in c.years]
    tables.append(_ranking_table(c, f))
    body: list[str | pdf.Why] = []
    for y in c.years:
        body.append(pdf.Why(_year_status(y, f), _ref("R-A13" if y.collection else "R-A6")))
    notes: list[str | pdf.Why] = [
        pdf.Why(_("The amounts are those of the budget version in force when the certificate "
                  "was issued; an amendment of the budget may change them."), _ref("R-A5")),
        pdf.Why(_("The ranking of liens is advisory: the senior liens are named, not "
                  "certified. A mortgage is constituted when it is recorded in the Registry."),
                _ref("R-A15")),
        pdf.Why(_("The verification page shows only what this certificate says: the parcel, "
                  "the dates and the amounts, and whether a payment, a new charge or a later "
                  "certificate has superseded it."), _ref("R-A19"))]
    return pdf.Document(
        title=_("Payoff certificate"),
        subtitle=_("District Assessments Portal") + " · "
        + _("Good through %(date)s", date=through),
        facts=facts, rows=rows, rows_heading=_("Amounts good through %(date)s", date=through),
        body=body, tables=tables, notes=notes,
        reference=_("Parcel %(catastro)s", catastro=c.catastro), on=c.issued_on)


def _year_table(y: YearFigures, f: Formats, through: str) -> pdf.Table:
    version = (_("budget version %(version)s, adopted on %(date)s", version=y.budget_version,
                 date=f.date_long(y.budget_adopted_on))
               if y.budget_version is not None else _("no budget version"))
    rows: list[tuple[str | pdf.Why, str]] = [
        (_("Delinquent principal"), f.money(y.delinquent_principal)),
        (_("Principal due"), f.money(y.due_principal)),
        (pdf.Why(_("Late fees"), _ref("R-A7")), f.money(y.late_fees)),
        (pdf.Why(_("Interest to %(date)s", date=through), _ref("R-A8")), f.money(y.interest)),
        (_("Interest per day after %(date)s", date=through), f.money(y.interest_per_day)),
        (pdf.Why(_("Collection costs"), _ref("R-A9")), f.money(y.costs)),
        (pdf.Why(_("Credit (subtracted)"), _ref("R-A10")), f.money(y.credit)),
        (_("Past due and due"), f.money(y.total_due)),
    ]
    upcoming = _("Installments not yet due (apart)")
    if y.upcoming_count and y.next_due is not None:
        upcoming = _("%(count)s installments not yet due, the next on %(date)s (apart)",
                     count=y.upcoming_count, date=f.date_long(y.next_due))
    rows += [(upcoming, f.money(y.upcoming_principal)),
             (_("Pay-off amount"), f.money(y.payoff))]
    return pdf.Table(head=(_("Item"), _("Amount")), rows=rows, widths=(75, 25), align="LR",
                     heading=_("Fiscal year %(label)s (%(version)s)", label=y.fiscal_year,
                               version=version))


def _year_status(y: YearFigures, f: Formats) -> str:
    text = {"current": _("Fiscal year %(label)s: the account is up to date.",
                         label=y.fiscal_year),
            "pending": _("Fiscal year %(label)s: an installment is due, still on time.",
                         label=y.fiscal_year),
            }.get(y.status) or _("Fiscal year %(label)s: the account has amounts past due.",
                                 label=y.fiscal_year)
    c = y.collection
    if c is None:
        return text + " " + _("No demand for payment has been mailed.")
    return text + " " + _(STAGES[c.stage], mailed=f.date_long(c.mailed_on),
                          last=f.date_long(c.last_day), court=f.date_long(c.court_claim_from))


def _ranking_table(c: CertificateContent, f: Formats) -> pdf.Table:
    def lien(x: RankedLien) -> str:
        text = _(KINDS.get(x.kind, KINDS["mortgage"]))
        if x.holder:
            text += f" ({x.holder})"
        if x.constituted_on is not None:
            text += " · " + _("recorded on %(date)s", date=f.date_long(x.constituted_on))
        return text

    rows: list[tuple[str, str]] = [(_("Ahead of the District's lien"), lien(x))
                                   for x in c.ranking.senior]
    rows.append((_("The District's lien"),
                 _("This certificate's amounts: the statutory tacit lien on the parcel")))
    rows += [(_("Behind the District's lien"), lien(x)) for x in c.ranking.junior]
    rows += [(_("Not recorded (not constituted)"), lien(x)) for x in c.ranking.unrecorded]
    return pdf.Table(head=(_("Rank"), _("Lien")), rows=rows, widths=(32, 68), align="LL",
                     heading=_("Liens on the parcel (advisory ranking)"))


# --- reading ------------------------------------------------------------------------------

VALID, SUPERSEDED, EXPIRED = "valid", "superseded", "expired"


def standing(uow: UnitOfWork, cert: DebtCertificate, today: date | None = None) -> str:
    """Whether a certificate still holds (docs/CERTIFICATES.md): "superseded" when a later
    certificate of the parcel was issued, a ledger entry or an assessment was recorded for
    the parcel after it (a payment, a cost, an adjustment, a refund, a reversal, an
    amendment), or a demand was mailed that it does not state; else "expired" after its
    good-through date; else "valid"."""
    s = uow.session
    later = s.scalar(select(func.count()).select_from(DebtCertificate).where(
        DebtCertificate.parcel_id == cert.parcel_id, DebtCertificate.id > cert.id))
    entry, assessment = _marks(uow, cert.parcel_id)
    if later or entry > cert.last_entry_id or assessment > cert.last_assessment_id \
            or _demands_changed(uow, cert):
        return SUPERSEDED
    if (today or clock.today()) > cert.good_through:
        return EXPIRED
    return VALID


def _demands_changed(uow: UnitOfWork, cert: DebtCertificate) -> bool:
    """A demand mailed (R-A12) by the certificate's good-through date that it does not
    state: for a fiscal year it lists, a last mailing other than the one it states; for a
    year it does not list (nothing was owed), one mailed on or after its issue date."""
    stated = {y["fiscal_year"]: (y["collection"] or {}).get("mailed_on")
              for y in json.loads(cert.content)["years"]}
    rows = uow.session.execute(
        select(FiscalYear.label, func.max(Notice.mailed_on))
        .join(FiscalYear, FiscalYear.id == Notice.fiscal_year_id)
        .where(Notice.parcel_id == cert.parcel_id, Notice.kind == "demand",
               Notice.mailed_on.is_not(None), Notice.mailed_on <= cert.good_through)
        .group_by(FiscalYear.label)).all()
    for label, mailed in rows:
        if mailed is None:
            continue
        if label in stated:
            if stated[label] != mailed.isoformat():
                return True
        elif mailed >= cert.issued_on:
            return True
    return False


@dataclass(frozen=True)
class Listed:
    id: int
    issued_on: date
    good_through: date
    payoff: Any
    language: str
    standing: str


def listing(uow: UnitOfWork, user: Any, parcel_id: int | str) -> tuple[Any, list[Listed]]:
    """The parcel and its certificates, newest first (owner or staff; else NotFound)."""
    parcel = _issuer_parcel(uow, user, parcel_id)
    certs = uow.session.scalars(select(DebtCertificate)
                                .where(DebtCertificate.parcel_id == parcel.id)
                                .order_by(DebtCertificate.id.desc())).all()
    today = clock.today()
    return parcel, [Listed(c.id, c.issued_on, c.good_through, c.payoff, c.language,
                           standing(uow, c, today)) for c in certs]


def pdf_of(uow: UnitOfWork, user: Any, parcel_id: int | str, certificate_id: int | str
           ) -> tuple[DebtCertificate, str]:
    """A certificate's PDF as issued and the parcel's catastro number (owner or staff of its
    parcel; anything else NotFound)."""
    parcel = _issuer_parcel(uow, user, parcel_id)
    cert = uow.session.scalar(select(DebtCertificate).where(
        DebtCertificate.id == access.parse_id(certificate_id),
        DebtCertificate.parcel_id == parcel.id))
    if cert is None:
        raise NotFound()
    return cert, parcel.catastro


@dataclass(frozen=True)
class Verified:
    """What the public page shows of a certificate: what it says on its face, no more."""

    catastro: str
    issued_on: date
    good_through: date
    total_due: Any
    upcoming: Any
    payoff: Any
    standing: str


def verify(uow: UnitOfWork, code: str | None, address: str | None) -> Verified | None:
    """The certificate a code belongs to (None: no such code, or not a code at all). Each
    look-up counts against the address (`VERIFY_LIMIT`); over it, `throttle.Throttled`."""
    key = f"certificate-verify:{address or ''}"
    if throttle.blocked(uow, key, *VERIFY_LIMIT):
        raise throttle.Throttled(retry_after=throttle.retry_after(uow, key, *VERIFY_LIMIT))
    throttle.hit(uow, key, *VERIFY_LIMIT)
    normal = normalise(code)
    if normal is None:
        return None
    cert = uow.session.scalar(select(DebtCertificate)
                              .where(DebtCertificate.code_digest == digest(normal)))
    if cert is None:
        return None
    catastro = json.loads(cert.content)["catastro"]
    return Verified(catastro, cert.issued_on, cert.good_through, cert.total_due, cert.upcoming,
                    cert.payoff, standing(uow, cert))
