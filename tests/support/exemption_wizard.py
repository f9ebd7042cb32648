"""The owner's certification wizard through the web (J5), for the tests that walk it: the
demo owner's home, its owner of record, a step answered, the draft up to the attestation."""

from __future__ import annotations

import re

from flask import Flask
from sqlalchemy import select

from tests.support.pages import csrf_token

HOME_CATASTRO = "040-000-000-00"  # the demo owner's home (featured, with the bank's loan)


def ids(app: Flask) -> dict:
    from portal.db import UnitOfWork
    from portal.models import OwnershipShare, Parcel, Party
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        home = w.session.scalar(select(Parcel.id).where(Parcel.catastro == HOME_CATASTRO))
        maria = w.session.scalar(select(Party.id).join(
            OwnershipShare, OwnershipShare.party_id == Party.id)
            .where(OwnershipShare.parcel_id == home))
    return {"home": home, "maria": maria}


def post(client, url: str, data: dict, page_url: str | None = None, **kw):  # noqa: ANN001, ANN003, ANN202
    page = client.get(page_url or url).get_data(as_text=True)
    return client.post(url, data={"csrf_token": csrf_token(page), **data}, **kw)


def start(client, home: int) -> str:  # noqa: ANN001
    r = post(client, f"/propiedad/{home}/exoneracion", {})
    assert r.status_code == 303, r.status_code
    return r.headers["Location"]


def answer(client, cid: int, slug: str, data: dict) -> str:  # noqa: ANN001
    url = f"/exoneracion/{cid}/paso/{slug}"
    r = post(client, url, data)
    assert r.status_code == 303, (slug, r.status_code, r.get_data(as_text=True)[:3000])
    return r.headers["Location"]


def file_home(client, ids: dict) -> int:  # noqa: ANN001
    """Answer every step for the home (R-B1..R-B12) up to the attestation; the draft's id."""
    loc = start(client, ids["home"])
    cid = int(re.search(r"/exoneracion/(\d+)/", loc).group(1))
    assert loc.endswith("/paso/duenos")
    assert answer(client, cid, "duenos", {"owners": ids["maria"]}).endswith("/residentes")
    answer(client, cid, "residentes", {"occupants": "María Rivera Ortiz (dueña)"})
    assert answer(client, cid, "uso", {"use": "home"}).endswith("/renta")  # no absence step
    answer(client, cid, "renta", {"rent": "no"})
    answer(client, cid, "parte-residencial", {"residential": "all"})
    answer(client, cid, "veterano", {"veteran": "no"})
    # The home owes the property tax recorded on it (a Treasury debt, a CRIM debt with an
    # auction): the R-B11 step is asked; she pays it in full within the 30 days.
    assert answer(client, cid, "cooperativa", {"cooperative": "no"}).endswith("/deuda")
    assert answer(client, cid, "deuda", {"plan": "pay_in_full"}).endswith("/evidencia")
    return cid


def lender_records_coop_election(app: Flask, name: str, election: str) -> str:
    """The demo bank's record of the housing cooperative `name`'s election of FY 2026-2027
    (as its rows record it, R-B4, R-B20); the bank's name."""
    from datetime import date

    from portal.db import UnitOfWork
    from portal.exemptions import cooperatives
    from portal.models import Lender, Party, PartyMember, User
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        user, lender, bank = w.session.execute(
            select(User.id, Lender.id, Party.name)
            .join(PartyMember, PartyMember.user_id == User.id)
            .join(Lender, Lender.party_id == PartyMember.party_id)
            .join(Party, Party.id == Lender.party_id)
            .where(User.email == "lender@demo.pr")).first()
        cooperatives.record(w, fy=date(2026, 7, 1), name=name, election=election,
                            recorded_by_id=user, lender_id=lender)
    return bank
