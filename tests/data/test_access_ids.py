"""Ids from URLs: anything that cannot be a row id is NotFound, never a database error."""

from __future__ import annotations

import pytest

from portal.accounts import access
from portal.accounts.errors import NotFound


@pytest.mark.parametrize("value", ["abc", "", None, "0", "-1", 0, 2**63, "9" * 30,
                                   2**31, "2147483648",  # beyond PostgreSQL's INTEGER ids
                                   "٣", "１", " 3", "+3", "3\x00"])  # ids are ASCII digits
def test_parse_id_refuses_what_cannot_be_an_id(value):
    with pytest.raises(NotFound):
        access.parse_id(value)


@pytest.mark.parametrize(("value", "expected"), [("1", 1), (42, 42), (2**31 - 1, 2**31 - 1),
                                                 ("2147483647", 2**31 - 1)])
def test_parse_id_accepts_ids(value, expected):
    assert access.parse_id(value) == expected
