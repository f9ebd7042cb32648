"""Claiming a parcel with its access code; wrong codes are rate limited."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.accounts import access, parcels, policy
from portal.accounts.errors import ClaimRateLimited, ClaimRefused, Forbidden
from portal.models import AccessCode, AuditRecord, ClaimAttempt, ParcelLink, User
from portal.people import users
from tests.support.world import PASSWORD


def _new_user(world, email="carol@test.pr"):
    with world.uow() as uow:
        return users.register(uow, email, PASSWORD, "Carol")


def test_claim_links_the_payer_with_the_right_role(world):
    carol = _new_user(world)
    with world.uow() as uow:
        p = parcels.claim(uow, carol, "040 000 000 04", parcels.format_code(world.codes["D"])
                          .lower())
        assert p.id == world.parcel["D"]
    with world.uow() as uow:
        assert access.relation(uow, carol, world.parcel["D"]) == "lessee"  # R-A16
        link = uow.session.scalar(select(ParcelLink).where(ParcelLink.user_id == carol.id))
        assert (link.source, link.granted_by_id) == ("code", None)
        assert policy.can_manage(uow, carol, world.parcel["D"])
        # Claiming again changes nothing.
        parcels.claim(uow, carol, "040-000-000-04", world.codes["D"])
        assert uow.session.scalar(select(func.count()).select_from(ParcelLink)
                                  .where(ParcelLink.user_id == carol.id)) == 1
        assert uow.session.scalar(select(func.count()).select_from(AuditRecord)
                                  .where(AuditRecord.action == "parcel.claimed")) == 3


def test_unknown_catastro_and_wrong_code_are_the_same_refusal(world):
    carol = _new_user(world)
    with world.uow() as uow:
        with pytest.raises(ClaimRefused) as e1:
            parcels.claim(uow, carol, "999-999-999-99", world.codes["A"])
    with world.uow() as uow:
        with pytest.raises(ClaimRefused) as e2:
            parcels.claim(uow, carol, "040-000-000-01", world.codes["B"])
    assert e1.value.code == e2.value.code == "claim_refused"
    with world.uow() as uow:
        with pytest.raises(Forbidden):
            parcels.claim(uow, None, "040-000-000-01", world.codes["A"])


def test_five_wrong_codes_in_fifteen_minutes_then_refused(world):
    carol = _new_user(world)
    start = clock.now()
    for k in range(5):
        clock.set_fixed(start + timedelta(minutes=k))
        with pytest.raises(ClaimRefused), world.uow() as uow:
            parcels.claim(uow, carol, "040-000-000-01", "WRON-GCOD-E000")
    # The failures were kept although each claim raised (and its unit of work rolled back).
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(ClaimAttempt).where(
            ClaimAttempt.user_id == carol.id, ClaimAttempt.succeeded.is_(False))) == 5
        assert uow.session.scalar(select(AccessCode.failed_attempts).where(
            AccessCode.parcel_id == world.parcel["A"], AccessCode.revoked_at.is_(None))) == 5
    clock.set_fixed(start + timedelta(minutes=6))
    with pytest.raises(ClaimRateLimited) as err, world.uow() as uow:
        parcels.claim(uow, carol, "040-000-000-01", world.codes["A"])  # even the right code
    assert err.value.code == "claim_rate_limited"
    assert 0 < err.value.params["retry_after"] <= 9 * 60 + 1
    # Another person is not blocked by Carol's guesses.
    dave = _new_user(world, "dave@test.pr")
    with world.uow() as uow:
        assert parcels.claim(uow, dave, "040-000-000-01", world.codes["A"]).id == \
            world.parcel["A"]
    # Once the window has passed, Carol may try again.
    clock.set_fixed(start + timedelta(minutes=15, seconds=1))
    with world.uow() as uow:
        assert parcels.claim(uow, carol, "040-000-000-01", world.codes["A"]).id == \
            world.parcel["A"]


def test_many_guessers_from_one_address_are_stopped_too(world):
    for k in range(parcels.MAX_ADDRESS_FAILURES):
        u = _new_user(world, f"g{k}@test.pr")
        with pytest.raises(ClaimRefused), world.uow() as uow:
            uow.info["ip"] = "10.0.0.1"
            parcels.claim(uow, u, "040-000-000-01", f"BAD{k}")
    late = _new_user(world, "late@test.pr")
    with pytest.raises(ClaimRateLimited), world.uow() as uow:
        uow.info["ip"] = "10.0.0.1"
        parcels.claim(uow, late, "040-000-000-01", world.codes["A"])


def test_rotating_a_code_retires_the_old_one(world):
    carol = _new_user(world)
    with world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        new = parcels.issue_code(uow, staff, world.parcel["A"])
        assert uow.session.scalar(select(func.count()).select_from(AuditRecord)
                                  .where(AuditRecord.action == "access_code.rotated")) == 1
    assert new != world.codes["A"]
    with pytest.raises(ClaimRefused), world.uow() as uow:
        parcels.claim(uow, carol, "040-000-000-01", world.codes["A"])
    with world.uow() as uow:
        assert parcels.claim(uow, carol, "040-000-000-01", new).id == world.parcel["A"]
        stored = uow.session.scalars(select(AccessCode.code_hash)).all()
    assert all(new.replace("-", "") not in h for h in stored)  # only hashes are kept
    with pytest.raises(Forbidden), world.uow() as uow:
        parcels.issue_code(uow, carol, world.parcel["A"])


def test_code_hashing():
    h = parcels.hash_code("abcd-efgh-jk23")
    assert parcels.check_code(h, "ABCDEFGHJK23")
    assert parcels.check_code(h, " abcd efgh jk23 ")
    assert not parcels.check_code(h, "ABCDEFGHJK24")
    assert not parcels.check_code("garbage", "ABCDEFGHJK23")
    assert h.startswith("sha256$") and h != parcels.hash_code("ABCDEFGHJK23")  # salted
    # A code stored as scrypt (n in the hash) still checks, and only the right one.
    import hashlib
    salt = bytes(range(16))
    digest = hashlib.scrypt(b"ABCDEFGHJK23", salt=salt, n=256, r=8, p=1, dklen=32).hex()
    old = f"scrypt$256${salt.hex()}${digest}"
    assert parcels.check_code(old, "abcd-efgh-jk23")
    assert not parcels.check_code(old, "ABCDEFGHJK24")
    assert not parcels.check_code("sha256$zz$00", "ABCDEFGHJK23")
    code = parcels.generate_code()
    assert len(code) == 14 and code.count("-") == 2
    assert set(code.replace("-", "")) <= set(parcels.CODE_ALPHABET)
