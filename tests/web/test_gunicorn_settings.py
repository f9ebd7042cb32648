"""portal/gunicorn_conf.py's service settings: a control socket per instance (each host's
instance folder), a preloaded app with a graceful timeout for reloads, JSON logs and no
text access log in production."""

from __future__ import annotations

import importlib

import pytest

pytest.importorskip("gunicorn", reason="gunicorn is not installed (pip install -e .)")


def _conf(monkeypatch, **env):  # noqa: ANN001, ANN003, ANN202
    for name in ("PORTAL_CONTROL_SOCKET", "PORTAL_ENV", "LOG_FORMAT", "PORTAL_PRELOAD"):
        monkeypatch.delenv(name, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    import portal.gunicorn_conf as conf
    return importlib.reload(conf)


def test_each_instance_has_its_own_control_socket(monkeypatch, tmp_path):
    a = _conf(monkeypatch, PORTAL_INSTANCE=str(tmp_path / "a")).control_socket
    b = _conf(monkeypatch, PORTAL_INSTANCE=str(tmp_path / "b")).control_socket
    assert a == str(tmp_path / "a" / "gunicorn.ctl") and a != b


def test_reloads_keep_serving_and_production_logs_json(monkeypatch, tmp_path):
    conf = _conf(monkeypatch, PORTAL_INSTANCE=str(tmp_path), PORTAL_ENV="production")
    assert conf.preload_app is True and conf.graceful_timeout == 30
    assert conf.accesslog is None
    assert conf.logconfig_dict["formatters"]["json"]["()"] == \
        "portal.operations.logs.json_formatter"
    assert _conf(monkeypatch, PORTAL_INSTANCE=str(tmp_path)).accesslog == "-"
