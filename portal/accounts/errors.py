"""Domain errors: each has a stable `code` (never English text) and `params` for the message.

The web layer maps `code` to a catalog message (DESIGN.md 5) and may format `params` into it.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """Base of every domain error. `code`: stable identifier; `params`: the figures."""

    code = "error"

    def __init__(self, code: str | None = None, **params: Any):
        self.code = code or type(self).code
        self.params = params
        super().__init__(self.code if not params else f"{self.code} {params}")


class NotFound(ServiceError):
    """Not there, or not visible to this user: the web answers 404 either way."""

    code = "not_found"


class Forbidden(ServiceError):
    """Visible, but this user may not do that (e.g. a delegate granting access)."""

    code = "forbidden"


class InvalidInput(ServiceError):
    """A value the operation cannot accept; `params["field"]` names it when there is one."""

    code = "invalid"


class Conflict(ServiceError):
    """The operation clashes with the state of the data (already published, duplicate...)."""

    code = "conflict"


class ClaimRefused(ServiceError):
    """Unknown catastro number or wrong access code (one message for both)."""

    code = "claim_refused"


class ClaimRateLimited(ServiceError):
    """Too many wrong codes recently; `params["retry_after"]` seconds until the next try."""

    code = "claim_rate_limited"


CODES = {
    "not_found": "not visible or does not exist",
    "forbidden": "visible but not allowed",
    "invalid": "bad value (params: field, ...)",
    "conflict": "clashes with the current state",
    "email_taken": "an account with that email exists",
    "password_too_short": "params: min",
    "claim_refused": "wrong catastro number or access code",
    "claim_rate_limited": "params: retry_after (seconds)",
    "grantee_not_found": "no account with that email",
    "cannot_grant_self": "an owner grants access to someone else",
    "already_linked": "the person already has access",
    "budget_not_adopted": "a roll needs an adopted budget version",
    "budget_adopted": "an adopted version is never edited (R-A1)",
    "roll_published": "a published roll is not recomputed",
    "roll_incomplete": "the roll's computation did not finish: compute it again",
    "roll_parcels_changed": "the parcels changed while the roll was computed: compute it again",
    "no_assessment": "the parcel has no assessment that year",
    "cost_before_posted_payment": "params: last (date); costs are never back-dated",
    "payment_not_applied": "only a completed payment is posted",
    "already_reversed": "an entry is reversed at most once",
    "no_fiscal_year": "no fiscal year covers that date",
    "calc": "the calculation core refused the inputs (params: field, message)",
    "nothing_delinquent": "a demand needs delinquent principal (R-A12)",
    "already_mailed": "the demand's mailing is already recorded",
    "database_not_empty": "the demo loads only into an empty database",
}
