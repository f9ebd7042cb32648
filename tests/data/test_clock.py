from datetime import UTC, date, datetime, time, timedelta, timezone

import pytest

from portal import clock


@pytest.fixture(autouse=True)
def _release():
    yield
    clock.set_fixed(None)


def test_late_evening_in_san_juan_is_still_the_same_legal_date():
    instant = datetime(2026, 11, 11, 3, 30, tzinfo=UTC)  # 23:30 on the 10th in San Juan
    assert clock.legal_date(instant) == date(2026, 11, 10)
    assert clock.legal_date(datetime(2026, 11, 11, 4, 0, tzinfo=UTC)) == date(2026, 11, 11)


def test_naive_instants_are_utc_and_offsets_are_honoured():
    assert clock.legal_date(datetime(2026, 11, 11, 3, 59)) == date(2026, 11, 10)
    ny = timezone(timedelta(hours=-5))
    assert clock.legal_date(datetime(2026, 11, 10, 23, 30, tzinfo=ny)) == date(2026, 11, 11)


def test_no_daylight_saving_in_puerto_rico():
    for month in (1, 7):
        local = datetime.combine(date(2026, month, 15), time(20, 0), tzinfo=clock.PR_TZ)
        assert local.utcoffset() == timedelta(hours=-4)


def test_fixed_clock_drives_now_and_today():
    clock.set_fixed(datetime(2026, 12, 1, 2, 0, tzinfo=UTC))
    assert clock.now() == datetime(2026, 12, 1, 2, 0, tzinfo=UTC)
    assert clock.now().tzinfo is not None
    assert clock.today() == date(2026, 11, 30)
    clock.set_fixed(date(2027, 1, 4))
    assert clock.today() == date(2027, 1, 4)
    assert clock.now() == datetime(2027, 1, 4, 16, 0, tzinfo=UTC)


def test_fixed_context_restores_previous_setting():
    clock.set_fixed(date(2026, 7, 1))
    with clock.fixed(date(2026, 8, 1)):
        assert clock.today() == date(2026, 8, 1)
    assert clock.today() == date(2026, 7, 1)
    clock.set_fixed(None)
    assert not clock.is_fixed()
    assert abs(clock.now() - datetime.now(UTC)) < timedelta(seconds=5)
