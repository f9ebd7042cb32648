"""The shared throttle (`accounts.throttle`) and what it guards: sign-in per account and per
address, and the claim form per guesser (never per parcel). On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from portal import clock, db
from portal.accounts import parcels, throttle
from portal.accounts.errors import ClaimRateLimited, ClaimRefused
from portal.models.security import ThrottleHit
from portal.people import users
from tests.support.world import PASSWORD


def _hits(database, key: str, limit: int = 3, window: int = 60) -> bool:
    with db.UnitOfWork(database) as uow:
        return throttle.hit(uow, key, limit, window)


def _at(seconds: int) -> None:
    """The clock `seconds` after the start of a 60-second window."""
    clock.set_fixed(datetime.fromtimestamp(1_800_000_000 - 1_800_000_000 % 60 + seconds, UTC))


def test_counts_to_the_limit_then_refuses_until_the_sliding_count_falls(database):
    _at(10)
    assert [_hits(database, "k") for _ in range(4)] == [True, True, True, False]
    with db.UnitOfWork(database) as uow:
        assert throttle.count(uow, "k", 60) == 4
        assert throttle.blocked(uow, "k", 3, 60)
        assert not throttle.blocked(uow, "other", 3, 60)
        # 4 hits weigh 4 x (1 - g) in the next window: below 3 once g > 1/2, i.e. 30 s into
        # it, which is 50 + 30 = 80 s from now.
        assert throttle.retry_after(uow, "k", 3, 60) == 80
    _at(60 + 29)
    with db.UnitOfWork(database) as uow:
        assert throttle.blocked(uow, "k", 3, 60)
    _at(60 + 31)
    assert _hits(database, "k")
    _at(120 + 59)  # two windows on, the old hits are forgotten
    with db.UnitOfWork(database) as uow:
        assert throttle.count(uow, "k", 60) == 1


def test_no_burst_of_twice_the_limit_across_a_windows_end(database):
    """A fixed window let 3 tries at 0:59 and 3 more at 1:00; the sliding count does not."""
    _at(59)
    assert [_hits(database, "b") for _ in range(3)] == [True] * 3
    _at(60)
    assert [_hits(database, "b") for _ in range(3)] == [False] * 3


def test_two_databases_on_one_store_share_the_counter(database):
    """Two workers (two engines, two connection pools) count on the same rows."""
    other = db.Database(str(database.engine.url.render_as_string(hide_password=False)))
    try:
        answers = [_hits(database if k % 2 == 0 else other, "shared", limit=5)
                   for k in range(8)]
    finally:
        other.dispose()
    assert answers == [True] * 5 + [False] * 3


def test_clear_and_clear_by_prefix(database):
    for key in ("signin:pair:abc:1.1.1.1", "signin:pair:abc:2.2.2.2", "signin:pair:abcd:1"):
        _hits(database, key)
    with db.UnitOfWork(database) as uow:
        assert throttle.clear(uow, "signin:pair:abc:", prefix=True) == 2
        assert throttle.count(uow, "signin:pair:abcd:1", 60) == 1
        assert throttle.clear(uow, "signin:pair:abcd:1") == 1


def test_rows_of_ended_windows_are_deleted(database, monkeypatch):
    start = clock.now()
    _hits(database, "old")
    clock.set_fixed(start + timedelta(minutes=5))
    monkeypatch.setattr(throttle, "PURGE_ONE_IN", 1)  # this hit purges
    _hits(database, "new")
    with db.UnitOfWork(database) as uow:
        keys = uow.session.scalars(select(ThrottleHit.key)).all()
    assert keys == ["new"]


# --- Sign-in ------------------------------------------------------------------------------

def _sign_in(world, email, password, address):
    with world.uow() as uow:
        return users.authenticate(uow, email, password, address=address)


def _guess(world, email, address, n):
    for k in range(n):
        assert _sign_in(world, email, f"wrong guess number {k}", address) is None


def test_a_second_address_gets_no_fresh_guesses_at_a_throttled_account(world):
    limit = users.SIGNIN_ACCOUNT[0]
    _guess(world, "alice@test.pr", "10.0.0.1", limit)
    with pytest.raises(throttle.Throttled):
        _sign_in(world, "alice@test.pr", "another guess", "10.0.0.1")
    # A second address gets one guess, not another full allowance.
    assert _sign_in(world, "alice@test.pr", "guess from elsewhere", "10.0.0.2") is None
    with pytest.raises(throttle.Throttled) as err:
        _sign_in(world, "alice@test.pr", "and another", "10.0.0.2")
    # A sliding count: up to two windows.
    assert 0 < err.value.params["retry_after"] <= 2 * users.SIGNIN_ACCOUNT[1]


def test_the_owner_signs_in_from_an_address_that_did_not_guess(world):
    _guess(world, "alice@test.pr", "10.0.0.1", users.SIGNIN_ACCOUNT[0])
    _guess(world, "alice@test.pr", "10.0.0.2", 1)
    user = _sign_in(world, "alice@test.pr", PASSWORD, "192.168.7.7")
    assert user is not None and user.email == "alice@test.pr"


def test_a_blocked_address_is_refused_before_any_password_is_checked(world, monkeypatch):
    monkeypatch.setattr(users, "SIGNIN_ADDRESS", (5, 3600))
    for k in range(5):
        assert _sign_in(world, f"nobody{k}@test.pr", "wrong password here", "10.9.9.9") is None
    with pytest.raises(throttle.Throttled):
        _sign_in(world, "bob@test.pr", PASSWORD, "10.9.9.9")
    assert _sign_in(world, "bob@test.pr", PASSWORD, "10.9.9.10") is not None


def test_unknown_and_known_emails_are_throttled_alike(world):
    limit = users.SIGNIN_ACCOUNT[0]
    _guess(world, "alice@test.pr", "10.0.0.1", limit)
    _guess(world, "nobody@test.pr", "10.0.0.1", limit)
    for email in ("alice@test.pr", "nobody@test.pr"):
        with pytest.raises(throttle.Throttled):
            _sign_in(world, email, "x" * 12, "10.0.0.1")


def test_a_new_password_lifts_the_accounts_throttle(world):
    _guess(world, "alice@test.pr", "10.0.0.1", users.SIGNIN_ACCOUNT[0])
    with world.uow() as uow:
        users.set_password(uow, world.alice.id, "a brand new long phrase")
    assert _sign_in(world, "alice@test.pr", "a brand new long phrase", "10.0.0.1") is not None


def test_a_right_password_forgets_this_addresses_failures(world):
    _guess(world, "bob@test.pr", "10.0.0.1", 3)
    assert _sign_in(world, "bob@test.pr", PASSWORD, "10.0.0.1") is not None
    pair = users._signin_keys("bob@test.pr", "10.0.0.1")[1]
    with world.uow() as uow:
        assert throttle.count(uow, pair, users.SIGNIN_ACCOUNT[1]) == 0


# --- The claim form: the guesser, not the parcel -------------------------------------------

def _claim(world, user, code, ip):
    with world.uow() as uow:
        uow.info["ip"] = ip
        return parcels.claim(uow, user, "040-000-000-01", code)


def _user(world, email):
    with world.uow() as uow:
        return users.register(uow, email, PASSWORD, "Guesser")


def test_guessers_from_many_accounts_do_not_lock_the_owner_out(world):
    for k in range(12):
        guesser = _user(world, f"g{k}@test.pr")
        with pytest.raises(ClaimRefused):
            _claim(world, guesser, f"BAD{k}", f"10.1.0.{k}")
    owner = _user(world, "owner@test.pr")
    assert _claim(world, owner, world.codes["A"], "10.2.0.1").id == world.parcel["A"]


def test_guesses_from_one_address_are_stopped_whoever_signs_in(world):
    for k in range(parcels.MAX_ADDRESS_FAILURES):
        guesser = _user(world, f"g{k}@test.pr")
        with pytest.raises(ClaimRefused):
            _claim(world, guesser, "WRON-GCOD-E000", "10.3.0.1")
    late = _user(world, "late@test.pr")
    with pytest.raises(ClaimRateLimited):
        _claim(world, late, world.codes["A"], "10.3.0.1")
    assert _claim(world, late, world.codes["A"], "10.3.0.2").id == world.parcel["A"]
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(ThrottleHit)) >= 1
