"""The dashboard's and the parcel page's services build no SQL statement per call (building
them cost more than running them: docs/REQUESTS.md, web 7); the statements are built once
with bound parameters and reused. The benchmark (bench/web_bench.py) measures the time."""

from __future__ import annotations

from sqlalchemy.orm import util as orm_util
from sqlalchemy.sql import base, selectable

from portal import clock
from tests.web.conftest import parcel_ids


def test_hot_services_build_no_statements(demo_app, monkeypatch):
    from portal.services import accounts, users
    from portal.web.data import uow
    built = []
    init, generate = selectable.Select.__init__, base.Generative._generate
    alias_init = orm_util.AliasedClass.__init__

    def count(name, real):  # noqa: ANN001, ANN202
        def wrapper(self, *a, **k):  # noqa: ANN001, ANN002, ANN003, ANN202
            built.append(name)
            return real(self, *a, **k)
        return wrapper

    pid = parcel_ids(demo_app)["lessee"][0]
    with demo_app.app_context(), uow() as w:
        lessee = users.find_by_email(w, "lessee@demo.pr")
        accounts.dashboard(w, lessee, clock.today())
        accounts.statement_for(w, lessee, pid, with_payments=False)
        monkeypatch.setattr(selectable.Select, "__init__", count("select", init))
        monkeypatch.setattr(base.Generative, "_generate", count("generate", generate))
        monkeypatch.setattr(orm_util.AliasedClass, "__init__", count("aliased", alias_init))
        accounts.dashboard(w, lessee, clock.today())
        accounts.statement_for(w, lessee, pid, with_payments=False)
    assert built == [], built
