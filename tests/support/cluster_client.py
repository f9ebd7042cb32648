"""A browser for the portal in production's shape (`tests/support/cluster.py`): cookies, CSRF
tokens, redirects not followed, from a local address of its own. Used by
`tests/test_cluster.py` and `bench/cluster_bench.py` (imports `requests`, which moto's server
brings: import this module after checking `cluster.missing()`)."""

from __future__ import annotations

import re

import requests
from requests.adapters import HTTPAdapter

from portal.demo.district import DEMO_PASSWORD


class _From(HTTPAdapter):
    """Connections from a given local address (127.0.0.2, ...: another client)."""

    def __init__(self, source: str):
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN201
        kwargs["source_address"] = (self.source, 0)
        return super().init_poolmanager(*args, **kwargs)


class Client:
    """A browser: cookies, CSRF tokens, redirects not followed (the portal's Location is
    a path), from a local address of its own."""

    def __init__(self, base: str, source: str = "127.0.0.1"):
        self.base = base
        self.http = requests.Session()
        self.http.trust_env = False  # no proxy between the test and the cluster
        if source != "127.0.0.1":
            self.http.mount("http://", _From(source))

    def get(self, path: str, base: str | None = None, **kw) -> requests.Response:  # noqa: ANN003
        return self.http.get((base or self.base) + path, allow_redirects=False, timeout=30,
                             **kw)

    def post(self, path: str, data: dict, page: str | None = None, base: str | None = None,
             **kw) -> requests.Response:  # noqa: ANN003
        html = self.get(page or path, base=base).text
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
        assert token, f"no form on {page or path}"
        return self.http.post((base or self.base) + path, data={"csrf_token": token.group(1),
                                                                **data},
                              allow_redirects=False, timeout=30, **kw)

    def sign_in(self, email: str, totp: str | None = None) -> None:
        r = self.post("/cuenta/entrar", {"email": email, "password": DEMO_PASSWORD})
        assert r.status_code == 303, (r.status_code, r.text[:500])
        if r.headers["Location"].endswith("/cuenta/verificar"):
            import pyotp
            r = self.post("/cuenta/verificar", {"code": pyotp.TOTP(totp).now()})
            assert r.status_code == 303, (r.status_code, r.text[:500])


