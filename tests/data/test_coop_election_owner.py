"""R-B4, R-B20 in the owner's wizard: the cooperative, not the member, elects. The owner
names the cooperative; its election of the year, when on record, is the unit's (the owner is
not asked); when none is, the owner states it and filing records it as the cooperative's
(by that owner), so later units, an owner's or a lender's, follow it; another election for
the same cooperative is refused (`coop_election_differs`), as in a lender's rows. The clock
is the data tests' day (tests/data/conftest.py)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from portal.accounts.errors import Conflict, InvalidInput
from portal.db import UnitOfWork
from portal.exemptions import cooperatives, filings
from portal.lenders import batches as lb
from portal.models import (
    CooperativeElection,
    ExemptionCertification,
    LenderBatchRow,
    Parcel,
    ParcelLink,
    Party,
    PartyMember,
    User,
)
from tests.data.test_lender_batch_filing import _catastro, _row, _world

COOP = "Cooperativa Jardines"


def _owner(uow: UnitOfWork, k: int) -> User:
    """A user who is Dueña k, the owner of the parcel `_catastro(k)`."""
    user = User(email=f"duena{k}@correo.pr", password_hash="x", name=f"Dueña {k}")
    uow.session.add(user)
    uow.session.flush()
    party = uow.session.scalar(select(Party.id).where(Party.name == f"Dueña {k}"))
    parcel = uow.session.scalar(select(Parcel.id).where(Parcel.catastro == _catastro(k)))
    uow.session.add_all([PartyMember(party_id=party, user_id=user.id, role="self"),
                         ParcelLink(user_id=user.id, parcel_id=parcel, role="owner",
                                    source="code")])
    uow.session.flush()
    return user


def _answered(uow: UnitOfWork, user: User, k: int, coop: dict) -> ExemptionCertification:
    parcel = uow.session.scalar(select(Parcel.id).where(Parcel.catastro == _catastro(k)))
    party = uow.session.scalar(select(Party.id).where(Party.name == f"Dueña {k}"))
    cert = filings.start(uow, user, parcel)
    for step, data in (("owners", {"owners": [party]}), ("occupants", {"occupants": "Ana"}),
                       ("use", {"use": "home"}), ("rent", {"rent": "no"}),
                       ("residential", {"residential": "all"}), ("veteran", {"veteran": "no"}),
                       ("cooperative", {"cooperative": "yes", "unit_share": "0.25", **coop})):
        filings.save_step(uow, user, cert.id, step, data)
    return cert


def _file(uow: UnitOfWork, user: User, k: int, coop: dict) -> ExemptionCertification:
    cert = _answered(uow, user, k, coop)
    return filings.file(uow, user, cert.id, attested=True, full_name=f"Dueña {k}")


def _refused_the_other(uow: UnitOfWork, user: User, k: int) -> ExemptionCertification:
    """Unit k's owner names the cooperative with the other election: refused, the reason
    naming the one on record (residential); the draft as it was."""
    cert = _answered(uow, user, k, {"cooperative_name": "Coop Otra",
                                    "coop_election": "residential"})
    with pytest.raises(Conflict) as e:
        filings.save_step(uow, user, cert.id, "cooperative", {
            "cooperative": "yes", "unit_share": "0.25", "cooperative_name": COOP,
            "coop_election": "cooperative_law"})
    assert (e.value.code, e.value.params["election"]) == ("coop_election_differs",
                                                          "residential")
    return uow.session.get(ExemptionCertification, cert.id)


def _lender_rows(uow: UnitOfWork, *rows: dict) -> list[LenderBatchRow]:
    officer = uow.session.scalar(select(User).where(User.email == "oficial@banco.pr"))
    batch = lb.submit(uow, officer, list(rows), source="csv", filename="lote.csv")
    lb.process(uow, batch.id)
    return list(uow.session.scalars(select(LenderBatchRow).where(
        LenderBatchRow.batch_id == batch.id).order_by(LenderBatchRow.row_number)))


def test_the_first_unit_records_the_election_the_second_follows_another_is_refused(database):
    _world(database)
    with UnitOfWork(database) as uow:
        first, second, third = _owner(uow, 0), _owner(uow, 2), _owner(uow, 4)
        cert = _answered(uow, first, 0, {"cooperative_name": "Cooperativa  Jardínes",
                                         "coop_election": "cooperative_law"})
        # none on record: the owner must state the cooperative's election
        with pytest.raises(InvalidInput) as e:
            filings.save_step(uow, first, cert.id, "cooperative", {
                "cooperative": "yes", "unit_share": "0.25", "cooperative_name": COOP})
        assert e.value.params["field"] == "coop_election"
        with pytest.raises(InvalidInput) as e:  # the cooperative named
            filings.save_step(uow, first, cert.id, "cooperative", {
                "cooperative": "yes", "unit_share": "0.25", "cooperative_name": " ",
                "coop_election": "residential"})
        assert e.value.params["field"] == "cooperative_name"
        filings.save_step(uow, first, cert.id, "cooperative", {
            "cooperative": "yes", "unit_share": "0.25", "cooperative_name": COOP,
            "coop_election": "residential"})
        assert uow.session.scalars(select(CooperativeElection)).all() == []  # not until filed
        filings.file(uow, first, cert.id, attested=True, full_name="Dueña 0")
        e1 = uow.session.scalars(select(CooperativeElection)).one()
        assert (e1.cooperative_name, e1.election, e1.recorded_by_id, e1.lender_id) == (
            COOP, "residential", first.id, None)
        assert cert.coop_election_id == e1.id
        # the second unit: named differently spelled, not asked, filed under it
        c2 = _file(uow, second, 2, {"cooperative_name": "COOPERATIVA JARDINES"})
        assert c2.coop_election_id == e1.id
        assert c2.answers["coop_election"] == "residential"
        assert c2.answers["coop_elected_by"] == "cooperative"
        assert c2.answers["cooperative_name"] == COOP  # the name as on record
        shown = cooperatives.shown(uow, c2)
        assert (shown.cooperative, shown.election, shown.recorded_by, shown.by_owner,
                shown.units) == (COOP, "residential", "", True, (_catastro(0), _catastro(2)))
        # the other election for the same cooperative: refused, nothing changed
        c3 = _refused_the_other(uow, third, 4)
        assert c3.answers["cooperative_name"] == "Coop Otra"
        assert len(uow.session.scalars(select(CooperativeElection)).all()) == 1


def test_an_election_recorded_since_the_owner_answered_refuses_the_filing(database):
    _world(database)
    with UnitOfWork(database) as uow:
        first, second = _owner(uow, 0), _owner(uow, 2)
        late = _answered(uow, first, 0, {"cooperative_name": COOP,
                                         "coop_election": "cooperative_law"})
        _file(uow, second, 2, {"cooperative_name": COOP, "coop_election": "residential"})
        with pytest.raises(Conflict) as e:
            with uow.session.begin_nested():
                filings.file(uow, first, late.id, attested=True, full_name="Dueña 0")
        assert e.value.code == "coop_election_differs"
        assert uow.session.get(ExemptionCertification, late.id).status == "draft"


def test_a_lenders_units_then_an_owners_follow_the_same_election(database):
    _world(database)
    coop = {"cooperative_share": "0.25", "cooperative_name": COOP,
            "cooperative_election": "residencial"}
    with UnitOfWork(database) as uow:
        rows = _lender_rows(uow, _row(0, **coop))
        assert rows[0].outcome == "accepted"
        owner = _owner(uow, 2)
        cert = _file(uow, owner, 2, {"cooperative_name": "cooperativa jardines"})
        e = uow.session.scalars(select(CooperativeElection)).one()
        assert cert.coop_election_id == e.id and e.lender_id is not None
        shown = cooperatives.shown(uow, cert)
        assert (shown.recorded_by, shown.by_owner, shown.units) == (
            "Banco", False, (_catastro(0), _catastro(2)))
        _refused_the_other(uow, _owner(uow, 4), 4)


def test_an_owners_unit_then_a_lenders_rows_follow_it_or_are_refused(database):
    _world(database)
    with UnitOfWork(database) as uow:
        owner = _owner(uow, 2)
        _file(uow, owner, 2, {"cooperative_name": COOP, "coop_election": "residential"})
        rows = _lender_rows(
            uow, _row(0, cooperative_share="0.25", cooperative_name="COOPERATIVA JARDINES",
                      cooperative_election="residencial"),
            _row(4, cooperative_share="0.25", cooperative_name=COOP,
                 cooperative_election="ley_cooperativas"))
        assert [(r.outcome, r.error_column, r.reason) for r in rows] == [
            ("accepted", None, None),
            ("rejected", "cooperative_election", "coop_election_differs")]
        e = uow.session.scalars(select(CooperativeElection)).one()
        assert e.recorded_by_id == owner.id
        filed = uow.session.get(ExemptionCertification, rows[0].certification_id)
        assert filed.coop_election_id == e.id
