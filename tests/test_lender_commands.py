"""`portal lenders figures` and the worker's day's work `lenders.figures` (J7): every lender's
loans computed for the day and its kept totals, then nothing left; the list's first view of
the day computes nothing."""

from __future__ import annotations

from click.testing import CliRunner

from portal import clock
from portal.cli import main
from tests.support.clock import TODAY
from tests.support.schema import copy_of


def test_the_nightly_figures(tmp_path, monkeypatch, demo_db):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{copy_of(demo_db[0], tmp_path)}")
    with clock.fixed(TODAY):
        runner = CliRunner()
        first = runner.invoke(main, ["lenders", "figures"])
        again = runner.invoke(main, ["lenders", "figures"])
    assert first.exit_code == 0, first.output
    assert first.output.strip().endswith("for 1 lenders; their totals kept again for 1.")
    assert not first.output.startswith("0 ")
    assert again.output.strip() == ("0 loans computed for 1 lenders; their totals kept again "
                                    "for 0.")

