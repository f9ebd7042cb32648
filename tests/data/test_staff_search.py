"""The staff search (portal/accounts/search.py): one box over the roll, accounts,
lessees, loans and filings, accent- and case-insensitive, on SQLite (a registered Python
function) and on PostgreSQL (`unaccent`, trigram indexes: migration bo281)."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import text

from portal.accounts import search
from portal.accounts.errors import Forbidden
from portal.models import ExemptionCertification, Lease, OwnershipShare, Party, User
from tests.support.world import FY_START


@pytest.fixture
def people(world):  # noqa: ANN001, ANN201
    with world.uow() as w:
        s = w.session
        owner = Party(kind="person", name="Ramón Muñoz Bolívar")
        cafe = Party(kind="organisation", name="Cafetería Peñuelas")
        s.add_all([owner, cafe])
        s.flush()
        s.add(OwnershipShare(parcel_id=world.parcel["A"], party_id=owner.id, share=1,
                             kind="sole", starts_on=date(2000, 1, 1)))
        s.add(Lease(parcel_id=world.parcel["E"], lessee_party_id=cafe.id, lessee_pays=True,
                    contract_number="CT-77", starts_on=date(2021, 1, 1)))
        s.add(User(email="jose.munoz@example.com", password_hash="x", name="José MUÑOZ",
                   language="es"))
        s.add(ExemptionCertification(parcel_id=world.parcel["C"], fiscal_year_start=FY_START,
                                     status="filed", created_by_id=world.alice.id,
                                     filing_number="EX-2026-000123"))
    return world


def _find(world, query: str, **kw) -> dict[str, list[str]]:  # noqa: ANN001
    with world.uow() as w:
        found = search.search(w, world.user(w, "staff"), query, **kw)
    assert found is not None
    return {r.kind: [h.title for h in r.hits] for r in found}


def test_munoz_is_found_by_munoz_without_the_accent_and_in_any_case(people):
    found = _find(people, "munoz")
    assert found["parcels"] == ["040-000-000-01"]  # the owner's name on the roll
    assert found["accounts"] == ["José MUÑOZ"]  # the name, and the email too
    assert _find(people, "BOLIVAR")["parcels"] == ["040-000-000-01"]
    assert _find(people, "  Múñoz   bolívar ")["parcels"] == ["040-000-000-01"]


def test_each_kind_by_its_own_number(people):
    assert _find(people, "peñuelas") == {"lessees": ["Cafetería Peñuelas"]}
    assert _find(people, "ct-77") == {"lessees": ["Cafetería Peñuelas"]}
    assert _find(people, "l-1") == {"loans": ["L-1"]}  # the ended L-OLD is not listed
    assert _find(people, "ex-2026-000123") == {"filings": ["EX-2026-000123"]}
    assert _find(people, "040-000-000-0")["parcels"] == [
        f"040-000-000-0{n}" for n in range(1, 6)]
    assert _find(people, "lender@test")["accounts"] == ["Lender"]


def test_wildcards_are_the_characters_themselves(people):
    with people.uow() as w:
        assert search.search(w, people.user(w, "staff"), "%_") == []
        assert search.search(w, people.user(w, "staff"), " a ") is None  # too short


def test_a_kind_is_paged(people):
    with people.uow() as w:
        for n in range(search.PAGE + 5):
            w.session.add(User(email=f"munoz{n:02d}@example.com", password_hash="x",
                               name=f"Muñoz {n:02d}", language="es"))
    with people.uow() as w:
        staff = people.user(w, "staff")
        [first] = search.search(w, staff, "munoz", kind="accounts")
        [second] = search.search(w, staff, "munoz", kind="accounts", page=2)
    assert first.total == second.total == search.PAGE + 6
    assert (first.pages, len(first.hits), second.page, len(second.hits)) == (
        2, search.PAGE, 2, 6)


def test_staff_only(people):
    with people.uow() as w, pytest.raises(Forbidden):
        search.search(w, people.user(w, "alice"), "munoz")


def test_postgresql_reads_the_trigram_index(people):
    """On PostgreSQL the folded match is the migration's function, and its index serves it
    (the planner is told not to scan the table, so a plan without it would say so)."""
    with people.uow() as w:
        if w.session.get_bind().dialect.name != "postgresql":
            pytest.skip("PostgreSQL's index")
        assert w.session.scalar(text("SELECT portal_fold('Ñañez BOLÍVAR')")) == "nanez bolivar"
        w.session.execute(text("SET LOCAL enable_seqscan = off"))
        plan = "\n".join(w.session.scalars(text(
            "EXPLAIN SELECT id FROM parties WHERE portal_fold(name) LIKE '%munoz%'")))
    assert "ix_parties_name_trgm" in plan
