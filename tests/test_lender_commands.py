"""`portal lenders figures` (J7): every lender's loans computed for the day, then nothing left."""

from __future__ import annotations

from click.testing import CliRunner

from portal import clock
from portal.cli import main


def test_the_nightly_figures(tmp_path, monkeypatch):
    from portal import db
    from portal.demo import district
    url = f"sqlite:///{tmp_path / 'p.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    with clock.fixed(clock.now().replace(year=2026, month=11, day=30)):
        db.upgrade(url, "head")
        district.load(db.Database(url))
        runner = CliRunner()
        first = runner.invoke(main, ["lenders", "figures"])
        again = runner.invoke(main, ["lenders", "figures"])
    assert first.exit_code == 0, first.output
    assert first.output.strip().endswith("for 1 lenders.") and not first.output.startswith("0 ")
    assert again.output.startswith("0 loans computed")
