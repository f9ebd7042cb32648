"""`portal lenders figures` (J7): every lender's loans computed for the day, then nothing left."""

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
    assert first.output.strip().endswith("for 1 lenders.") and not first.output.startswith("0 ")
    assert again.output.startswith("0 loans computed")
