"""A code of the authenticator is accepted once per user, even when several requests bring
it at the same instant (docs/SECURITY.md): the step is consumed by one conditional UPDATE
(portal/people/two_factor.py `_fresh_step`), on SQLite and on PostgreSQL alike. So is a
recovery code."""

from __future__ import annotations

import threading

import pyotp

from portal.db import Database, UnitOfWork
from portal.people import two_factor, users

SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
AT_ONCE = 4


def _enrolled(database: Database) -> int:
    with UnitOfWork(database) as w:
        user = users.register(w, "dos@example.com", "correct horse battery", "Dos Pasos")
        two_factor.enrol_with_secret(w, user, SECRET)
        return user.id


def _at_once(database: Database, attempt) -> list[bool]:  # noqa: ANN001
    """`attempt(uow)` from AT_ONCE threads released together, each in its own unit of work:
    which of them were accepted."""
    start, results = threading.Barrier(AT_ONCE), []

    def run() -> None:
        start.wait(10)
        with UnitOfWork(database) as w:
            results.append(attempt(w))

    threads = [threading.Thread(target=run) for _ in range(AT_ONCE)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(results) == AT_ONCE
    return results


def test_one_code_at_the_same_instant_is_accepted_once(database):
    from portal import clock
    uid = _enrolled(database)
    code = pyotp.TOTP(SECRET).at(clock.true_now())
    accepted = _at_once(database, lambda w: two_factor.verify(w, uid, code).ok)
    assert sorted(accepted) == [False] * (AT_ONCE - 1) + [True]
    with UnitOfWork(database) as w:  # and later, the same code is still refused
        assert not two_factor.verify(w, uid, code).ok


def test_one_recovery_code_at_the_same_instant_is_accepted_once(database):
    uid = _enrolled(database)
    with UnitOfWork(database) as w:
        [first, *_rest] = two_factor._replace_recovery_codes(w, users.load_user(w, uid))
    accepted = _at_once(database, lambda w: two_factor.verify(w, uid,
                                                              recovery_code=first).ok)
    assert sorted(accepted) == [False] * (AT_ONCE - 1) + [True]
