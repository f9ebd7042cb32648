"""Collections for staff and payers: the demands (J9, `demands.py`: the delinquency run, the
demands, their mailing and return receipt, the court list, the demand letter a payer or owner
downloads), property-tax attachment and auction with the lessee's deposit orders (R-C1–R-C8,
R-A14, `attachments.py`: the staff's pages under /personal/embargos and the debtor's section
of the parcel page) and payoff certificates (J10, R-A19, `certificates.py`: request one on the
parcel page, list and download a parcel's, and the public page that verifies a code).

One blueprint, `collections`, without a URL prefix."""

from flask import Blueprint

bp = Blueprint("collections", __name__)
