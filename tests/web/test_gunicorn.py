"""The portal under gunicorn (portal/gunicorn_conf.py), two workers: it serves, and no
response names the server software or its version."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.gunicorn import gunicorn_serving

pytest.importorskip("gunicorn", reason="gunicorn is not installed (pip install -e .)")


@pytest.fixture
def served(tmp_path: Path):  # noqa: ANN201
    with gunicorn_serving(tmp_path) as (url, _log):
        yield url


def test_two_workers_serve_and_no_response_names_the_server_software(served):
    for path in ("/cuenta/entrar", "/no-such-page", "/static/portal.css"):
        try:
            with urllib.request.urlopen(served + path, timeout=10) as r:
                status, headers = r.status, r.headers
        except urllib.error.HTTPError as err:
            status, headers = err.code, err.headers
            err.close()
        assert status == (404 if path == "/no-such-page" else 200), path
        assert headers.get_all("Server") == ["portal"], (path, headers.get_all("Server"))
        assert "gunicorn" not in str(headers).lower(), path
