"""Paying without an account and paperless notices, the services:

- a guest pass opens by the catastro number and a live access code; a wrong code or an
  unknown catastro is refused alike and counted per address (the claim form's limits): past
  the limit even the right code waits, from that address only;
- the notice's signed link reads back to its parcel; one changed, signed with another key,
  for no parcel or older than `LINK_DAYS` is refused;
- the guest pays only its parcel's accounts, and sees only the checkouts its session started;
- a parcel whose owner chose paperless is left out of the print file and still emailed;
  choosing paper again prints it on the next run;
- the parcel's issued notices, newest first, for its payers and staff only;
- the notice printed with the QR code of its pay link: a tagged PDF, the link the parcel's.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from portal import clock, storage
from portal.accounts import paperless, pay_links, throttle
from portal.accounts import parcels as parcel_service
from portal.accounts.errors import ClaimRateLimited, ClaimRefused, NotFound
from portal.core import offer as core_offer
from portal.models import Notice, NoticeDelivery, User
from portal.payments import guest
from portal.payments.gateway import MemorySandboxStore, SandboxGateway
from portal.roll import notices
from tests.support.clock import at

SECRET = "test-secret-key"
BASE = "http://127.0.0.1:5000"
POPPLER = pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="poppler-utils missing")


@pytest.fixture
def files(tmp_path):
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


@pytest.fixture
def config(tmp_path):
    return {"MAIL_FROM": "Portal <portal@example.pr>", "OUTBOX_DIR": str(tmp_path / "outbox"),
            "PORTAL_BASE_URL": BASE, "MAIL_SERVER": None, "MAIL_INLINE": True,
            "SECRET_KEY": SECRET}


def _open(world, catastro: str, code: str, ip: str = "192.0.2.1") -> guest.GuestPass:
    with world.uow() as uow:
        uow.info["ip"] = ip
        return guest.open_by_code(uow, catastro, code)


# --- the way in --------------------------------------------------------------------------------

def test_the_right_code_opens_the_parcel_and_wrong_ones_are_throttled_per_address(world):
    d = world.parcel["D"]
    opened = _open(world, "040 000 000 04", world.codes["D"].lower())
    assert opened.parcel_id == d and opened.live
    assert opened.expires_at == clock.now() + timedelta(minutes=guest.SESSION_MINUTES)
    for typed in ("040-000-000-04", "999-999-999-99"):  # a wrong code, an unknown parcel
        with pytest.raises(ClaimRefused):
            _open(world, typed, "AAAA-BBBB-CCCC")
    with world.uow() as uow:
        assert throttle.count(uow, "guestpay:ip:192.0.2.1", parcel_service.ADDRESS_WINDOW) == 2
    for _ in range(parcel_service.MAX_ADDRESS_FAILURES - 2):
        with pytest.raises(ClaimRefused):
            _open(world, "040-000-000-04", "AAAA-BBBB-CCCC")
    with pytest.raises(ClaimRateLimited) as refused:
        _open(world, "040-000-000-04", world.codes["D"])  # even the right code waits
    assert refused.value.params["retry_after"] > 0
    assert _open(world, "040-000-000-04", world.codes["D"], ip="192.0.2.2").parcel_id == d
    later = clock.now() + timedelta(seconds=2 * parcel_service.ADDRESS_WINDOW)
    with clock.fixed(later):
        assert _open(world, "040-000-000-04", world.codes["D"]).parcel_id == d


def test_a_revoked_code_opens_nothing(world):
    with world.uow() as uow:
        parcel_service.revoke_codes(uow, uow.session.get(User, world.staff.id),
                                    world.parcel["D"])
    with pytest.raises(ClaimRefused):
        _open(world, "040-000-000-04", world.codes["D"])


def test_the_signed_link_reads_back_and_a_changed_one_is_refused(world):
    a = world.parcel["A"]
    token = guest.pay_link_token(a, SECRET)
    assert guest.pay_link(BASE + "/", a, SECRET) == f"{BASE}/pagar-sin-cuenta/enlace/{token}"
    with world.uow() as uow:
        assert guest.read_pay_link(uow, token, SECRET).parcel_id == a
        payload, stamp, signature = token.split(".")
        other = guest.pay_link_token(world.parcel["B"], "x").split(".")[0]
        nowhere = pay_links._signer(SECRET).dumps({"p": 999999})
        no_parcel = pay_links._signer(SECRET).dumps({"q": 1})
        for bad in (f"{other}.{stamp}.{signature}", guest.pay_link_token(a, "another key"),
                    nowhere, no_parcel, "", "a.b.c"):
            with pytest.raises(ClaimRefused):
                guest.read_pay_link(uow, bad, SECRET)
    with clock.fixed(clock.now() + timedelta(days=guest.LINK_DAYS + 1)), world.uow() as uow:
        with pytest.raises(ClaimRefused):
            guest.read_pay_link(uow, token, SECRET)


def test_a_pass_ends_and_reads_back_from_the_session(world):
    p = guest.new_pass(world.parcel["D"])
    assert guest.GuestPass.from_dict(p.as_dict()) == p
    assert guest.GuestPass.from_dict({"p": "x"}) is None
    with clock.fixed(p.expires_at):
        assert guest.GuestPass.from_dict(p.as_dict()) is None
        with world.uow() as uow, pytest.raises(NotFound):
            guest.accounts(uow, p)


# --- paying ------------------------------------------------------------------------------------

def _start(world, p, key: str, gw):  # noqa: ANN001, ANN202
    with world.uow() as uow:
        accounts = guest.accounts(uow, p)
    offers = {a.key: a.offer for a in accounts}
    priced = core_offer.price_all(offers, [core_offer.Choice(key, "amount",
                                                             amount=__import__("decimal")
                                                             .Decimal("10.00"))])
    return guest.start_checkout(world.database, p, guest.GuestPayer("g@example.com", "G",
                                                                    p.key), priced,
                                language="es", gateway=gw, description="x",
                                success_url=lambda c: f"/ok/{c}",
                                cancel_url=lambda c: f"/no/{c}")


def test_the_guest_pays_only_its_parcel_and_sees_only_its_checkouts(world):
    gw = SandboxGateway(MemorySandboxStore())
    p = _open(world, "040-000-000-04", world.codes["D"])
    with world.uow() as uow:
        accounts = guest.accounts(uow, p)
    assert {a.parcel_id for a in accounts} == {world.parcel["D"]}
    started = _start(world, p, accounts[0].key, gw)
    assert started.checkout_id in p.checkouts
    with world.uow() as uow:
        chk = guest.checkout(uow, p, started.checkout_id)
        assert chk.user_id is None and chk.payer_email == "g@example.com"
        assert chk.payer_name == "G" and chk.amount == __import__("decimal").Decimal("10.00")
        other = guest.new_pass(world.parcel["D"])  # another browser's guest pass
        for who in (other, None):
            with pytest.raises(NotFound):
                guest.checkout(uow, who, started.checkout_id)
    # the same session clicking twice reuses its checkout; another guest's is another
    assert _start(world, p, accounts[0].key, gw).checkout_id == started.checkout_id
    other = _open(world, "040-000-000-04", world.codes["D"], ip="192.0.2.9")
    assert _start(world, other, accounts[0].key, gw).checkout_id != started.checkout_id
    # an account of another parcel is refused, whatever was priced
    with world.uow() as uow:
        a_pass = guest.new_pass(world.parcel["A"])
        a_key = guest.accounts(uow, a_pass)[0].key
    with world.uow() as uow:
        a_offers = {x.key: x.offer for x in guest.accounts(uow, a_pass)}
    priced = core_offer.price_all(a_offers, [core_offer.Choice(
        a_key, "amount", amount=__import__("decimal").Decimal("10.00"))])
    with pytest.raises(NotFound):
        guest.start_checkout(world.database, p, guest.GuestPayer("g@example.com", "", p.key),
                             priced, language="es", gateway=gw, description="x",
                             success_url=str, cancel_url=str)


# --- paperless ---------------------------------------------------------------------------------

def _notify(world, config):
    with clock.fixed(at(date(2026, 6, 11))), world.uow() as uow:
        return notices.notify(uow, uow.session.get(User, world.staff.id), world.roll_id, config)


def _printed(world) -> set[int]:
    with world.uow() as uow:
        return set(uow.session.scalars(select(Notice.parcel_id).join(
            NoticeDelivery, NoticeDelivery.notice_id == Notice.id).where(
            NoticeDelivery.channel == "print")))


def test_a_paperless_parcel_is_emailed_and_left_out_of_the_print_file(world, config, files):
    with world.uow() as uow:
        alice = uow.session.get(User, world.alice.id)
        assert [(c.parcel.id, c.paperless) for c in paperless.choices(uow, alice)] == [
            (world.parcel["A"], False)]
        paperless.choose(uow, alice, world.parcel["A"], True)
        with pytest.raises(NotFound):  # Bob's parcel is not hers
            paperless.choose(uow, alice, world.parcel["B"], True)
        assert paperless.choices(uow, alice)[0].paperless is True
    result = _notify(world, config)
    assert result["paperless"] == 1 and result["printed"] == 3 and result["emails"] == 2
    assert world.parcel["A"] not in _printed(world) and world.parcel["B"] in _printed(world)
    with world.uow() as uow:
        emailed = set(uow.session.scalars(select(NoticeDelivery.user_id).where(
            NoticeDelivery.channel == "email")))
    assert world.alice.id in emailed  # still emailed
    with world.uow() as uow:  # paper again: printed on the next run, nothing else new
        paperless.choose(uow, uow.session.get(User, world.alice.id), world.parcel["A"], False)
    again = _notify(world, config)
    assert again == {"roll_id": world.roll_id, "emails": 0, "printed": 1, "codes": 0,
                     "paperless": 0, "email_stopped": 0}
    assert world.parcel["A"] in _printed(world)


# --- the parcel's notices ----------------------------------------------------------------------

def test_the_parcels_notices_newest_first_for_its_payers_and_staff(world, config, files):
    _notify(world, config)
    with world.uow() as uow:
        alice = uow.session.get(User, world.alice.id)
        listed = notices.issued(uow, alice, world.parcel["A"])
        assert [n.kind for n in listed] == ["assessment"]
        assert listed[0].fiscal_year == "2026-2027"
        loaded = notices.issued_notice(uow, alice, world.parcel["A"], listed[0].notice_id)
        assert loaded[0].parcel_id == world.parcel["A"]
        for who, pid in ((world.bob, world.parcel["A"]), (world.lender_user, world.parcel["C"])):
            user = uow.session.get(User, who.id)
            with pytest.raises(NotFound):
                notices.issued(uow, user, pid)
            with pytest.raises(NotFound):
                notices.issued_notice(uow, user, pid, listed[0].notice_id)
        with pytest.raises(NotFound):  # A's notice asked for as B's
            notices.issued_notice(uow, uow.session.get(User, world.bob.id), world.parcel["B"],
                                  listed[0].notice_id)
        staff = uow.session.get(User, world.staff.id)
        assert [n.notice_id for n in notices.issued(uow, staff, world.parcel["A"])] == [
            listed[0].notice_id]


@POPPLER
@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_notice_prints_its_pay_link_as_a_qr_code(world, config, files, lang, tmp_path):
    _notify(world, config)
    with world.uow() as uow:
        loaded = notices.staff_notice(uow, uow.session.get(User, world.staff.id),
                                      world.roll_id, world.parcel["C"])
    f, state, printed_on = loaded
    from portal.i18n import use_language
    with use_language(lang):
        doc = notices.document(f, BASE, state, None, printed_on, secret=SECRET)
    link = doc.code.data
    token = re.fullmatch(rf"{re.escape(BASE)}/pagar-sin-cuenta/enlace/(\S+)", link).group(1)
    with world.uow() as uow:
        assert guest.read_pay_link(uow, token, SECRET).parcel_id == world.parcel["C"]
    assert ("Pague en línea sin cuenta" if lang == "es" else "Pay online without an account") \
        in doc.code.caption[0]
    data = notices.notice_pdf(loaded, lang, BASE, SECRET)
    path = tmp_path / "notice.pdf"
    path.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
    assert re.search(r"^Tagged:\s+yes$", info, re.M)
    tree = subprocess.run(["pdfinfo", "-struct-text", str(path)], capture_output=True,
                          text=True).stdout
    assert "Figure" in tree
