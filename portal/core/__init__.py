"""The calculation core: the statutes (quoted in docs/rules/) as pure, tested Python.

Rules are cited by the ids of docs/rules/ (R-A1 ... R-C8). Only the standard library and
`holidays` are used here: no Flask, SQLAlchemy, Stripe, network or database.
"""

from portal.core.errors import CalcError, InputError, ParameterNotFound
from portal.core.money import ZERO, cents, parse_money

__all__ = ["CalcError", "InputError", "ParameterNotFound", "ZERO", "cents", "parse_money"]
