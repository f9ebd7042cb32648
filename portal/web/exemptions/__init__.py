"""The residential exemption online: the certification (J5, `certifications.py`: the owner's
wizard, evidence, the receipt, the lender's list and the staff's review) and its change
reports (J6, `changes.py`: the owner's form and its confirmation, the staff's list with
acknowledge, and the lender's list, R-B9).

One blueprint, `exemptions`, without a URL prefix."""

from flask import Blueprint

bp = Blueprint("exemptions", __name__)
