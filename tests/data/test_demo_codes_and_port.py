"""`portal demo --codes` prints the unclaimed parcels' access codes again, and `portal serve
--port` (`make run PORT=…`) serves links and the payment's return on that port unless
PORTAL_BASE_URL says otherwise."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from portal import db
from portal.accounts import parcels
from portal.accounts.errors import ServiceError
from portal.cli import main
from portal.config import served_base_url
from portal.people import users

_CODE = re.compile(r"^\s+(\d{3}-\d{3}-\d{3}-\d{2})\s+(\S+)\s", re.M)


def test_the_demo_reprints_its_access_codes(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    db.reset_databases()
    runner = CliRunner()
    out = runner.invoke(main, ["demo", "--parcels", "40"])
    assert out.exit_code == 0, out.output
    first = dict(_CODE.findall(out.output))
    again = runner.invoke(main, ["demo", "--codes"])
    assert again.exit_code == 0, again.output
    second = dict(_CODE.findall(again.output))
    assert second and set(second) == set(first)  # the same unclaimed parcels
    catastro = sorted(second)[0]
    assert second[catastro] != first[catastro]
    with db.UnitOfWork(db.get_database(url)) as uow:
        owner = users.find_by_email(uow, "lessee@demo.pr")
        with pytest.raises(ServiceError):  # the code printed at loading stopped working
            parcels.claim(uow, owner, catastro, first[catastro])
    with db.UnitOfWork(db.get_database(url)) as uow:
        owner = users.find_by_email(uow, "lessee@demo.pr")
        parcels.claim(uow, owner, catastro, second[catastro])
    third = runner.invoke(main, ["demo", "--codes"])
    assert catastro not in dict(_CODE.findall(third.output))  # claimed: not listed again
    db.reset_databases()


@pytest.mark.parametrize(("host", "port", "env", "expected"), [
    ("127.0.0.1", 8080, {}, "http://127.0.0.1:8080"),
    ("0.0.0.0", 5001, {}, "http://127.0.0.1:5001"),
    ("127.0.0.1", 8080, {"PORTAL_BASE_URL": "https://portal.example.pr"},
     "https://portal.example.pr"),
])
def test_serve_follows_its_port_unless_the_base_url_is_set(host, port, env, expected):  # noqa: ANN001
    assert served_base_url(host, port, env) == expected


def test_serve_builds_the_app_on_its_port(tmp_path, monkeypatch):
    import werkzeug.serving
    monkeypatch.setenv("PORTAL_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("PORTAL_BASE_URL", raising=False)
    served = {}
    monkeypatch.setattr(werkzeug.serving, "run_simple",
                        lambda host, port, app, **kw: served.update(app=app, port=port))
    out = CliRunner().invoke(main, ["serve", "--port", "8123"])
    assert out.exit_code == 0, out.output
    assert served["app"].config["PORTAL_BASE_URL"] == "http://127.0.0.1:8123"
    with served["app"].test_request_context("/"):
        from flask import url_for
        assert url_for("payments.choose", _external=True).startswith("http://127.0.0.1:8123/")
