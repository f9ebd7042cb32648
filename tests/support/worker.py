"""A worker in a test: the queue only records what is enqueued (the test runs the job with
`runner.run`), and `Died`, a worker's process ending midway (not an error the runner
handles)."""

from __future__ import annotations

from typing import Any

from flask import Flask

from portal.jobs import queue


class Died(BaseException):
    """The worker's process ending (not an error the runner handles)."""


def record_queue(app: Flask, monkeypatch: Any) -> list[int]:
    """The job ids enqueued from now on (also `app.config["ENQUEUED"]`); nothing runs."""
    enqueued: list[int] = []
    monkeypatch.setattr(queue, "enqueue_or_leave", enqueued.append)
    app.config["ENQUEUED"] = enqueued
    return enqueued
