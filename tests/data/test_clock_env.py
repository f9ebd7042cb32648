"""PORTAL_TODAY pins the legal date (the demo's 2026-11-30) while the time of day runs on."""

from datetime import date

import pytest

from portal import clock


@pytest.fixture(autouse=True)
def real_clock():
    """Release any clock the suite fixed, and put it back afterwards."""
    previous = clock.now() if clock.is_fixed() else None
    clock.set_fixed(None)
    yield
    clock.set_fixed(previous)


def test_portal_today_pins_the_date(monkeypatch):
    monkeypatch.setenv("PORTAL_TODAY", "2026-11-30")
    assert clock.today() == date(2026, 11, 30)
    assert clock.legal_date(clock.now()) == date(2026, 11, 30)


def test_a_fixed_clock_wins_over_portal_today(monkeypatch):
    monkeypatch.setenv("PORTAL_TODAY", "2026-11-30")
    with clock.fixed(date(2027, 1, 4)):
        assert clock.today() == date(2027, 1, 4)


def test_empty_portal_today_is_the_real_clock(monkeypatch):
    monkeypatch.setenv("PORTAL_TODAY", "")
    assert clock.now().year >= 2026
    assert clock.today() == clock.legal_date(clock.now())


def test_a_malformed_portal_today_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("PORTAL_TODAY", "30/11/2026")
    with pytest.raises(RuntimeError, match="PORTAL_TODAY must be a date"):
        clock.today()


def test_the_true_time_is_not_moved_by_portal_today(monkeypatch):
    """An authenticator app's codes follow the real time: the demo's pinned day must not
    shift the TOTP clock (a code would never match), while a test's fixed clock does."""
    from datetime import UTC, datetime, timedelta

    monkeypatch.setenv("PORTAL_TODAY", "2001-01-01")
    assert clock.today() == date(2001, 1, 1)
    assert abs(clock.true_now() - datetime.now(UTC)) < timedelta(seconds=5)
    with clock.fixed(date(2027, 1, 4)):
        assert clock.true_now() == clock.now()
