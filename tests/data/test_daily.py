"""The day's work (`portal.jobs.daily`): every registered task runs for the day asked; one
that fails does not stop the others."""

from datetime import date

from portal.jobs import daily


def test_every_task_runs_for_the_day_and_a_failure_stops_none(monkeypatch):
    seen = []

    def fails(database, day):  # noqa: ANN001, ANN202
        raise RuntimeError("boom")

    def counts(database, day):  # noqa: ANN001, ANN202
        seen.append(day)
        return {"sent": 2}

    monkeypatch.setattr(daily, "TASKS", {"fails": fails, "counts": counts})
    done = daily.run_all(object(), date(2026, 12, 5))  # type: ignore[arg-type]
    assert done == {"fails": None, "counts": {"sent": 2}}
    assert seen == [date(2026, 12, 5)]
