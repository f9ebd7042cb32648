"""The residential exemption (J5, J6; docs/rules/B-residential-exemption.md): property-tax
facts (`tax_facts`), the owner's certification (`filings`: a resumable draft, the one-dwelling
check, the payment plan, the filing), its documents (`evidence`), the staff's review
(`review`), a lender's certifications filed in bulk (`batch_filing`), change reports
(`changes`) and what the other pages read (`status.exemption_status`).

Plain functions taking a `UnitOfWork` first; every read goes through `portal.accounts.access`;
every state change writes an audit record and an `ExemptionEvent`. See docs/EXEMPTION.md.
"""
