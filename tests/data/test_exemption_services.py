"""The residential exemption's services (J5): the certification's states move forward only,
R-B6 across the registry, only the returned steps reopen, the status J6 reads, evidence by
content stored by hash (folder and an S3-compatible server), on SQLite and PostgreSQL."""

from __future__ import annotations

import io
import socket
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal import storage
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.exemptions import evidence, filings, review
from portal.exemptions.status import exemption_status
from portal.models import (
    ExemptionCertification,
    ExemptionEvent,
    ExemptionEvidence,
    ImmutableRowError,
    OwnershipShare,
    Party,
    PartyMember,
    PropertyTaxFact,
    User,
)
from tests.support.bombs import pdf_bomb, png_bomb
from tests.support.world import build

FY = date(2026, 7, 1)


def _png() -> bytes:
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (20, 20), (1, 2, 3)).save(buf, "PNG")
    return buf.getvalue()


def _pdf() -> bytes:
    from fpdf import FPDF
    doc = FPDF()
    doc.add_page()
    return bytes(doc.output())


@pytest.fixture
def world(database, tmp_path):  # noqa: ANN001, ANN201
    storage.use(storage.FolderStore(tmp_path / "files"))
    w = build(database)
    with w.uow() as uow:
        s = uow.session
        alice = Party(kind="person", name="Alice Rivera")
        s.add(alice)
        s.flush()
        s.add(PartyMember(party_id=alice.id, user_id=w.alice.id, role="self"))
        for key in ("A", "B"):
            s.add(OwnershipShare(parcel_id=w.parcel[key], party_id=alice.id, share=Decimal(1),
                                 kind="sole", starts_on=date(2015, 1, 1)))
            s.add(PropertyTaxFact(parcel_id=w.parcel[key], fiscal_year_start=FY,
                                  municipality="San Juan", zone="urban",
                                  land_area_cuerdas=Decimal("0.05"),
                                  land_valuation=Decimal("4000.00"),
                                  structure_valuation=Decimal("16000.00"),
                                  debt_on_january_1=Decimal(0), illustrative=True,
                                  source="test"))
        w.alice_party = alice.id
    yield w
    storage.use(None)


def _user(uow, user):  # noqa: ANN001, ANN202
    return uow.session.get(User, user.id)


def _answer_all(uow, user, cid: int, party: int) -> None:  # noqa: ANN001
    for step, data in (("owners", {"owners": [party]}), ("occupants", {"occupants": "Alice"}),
                       ("use", {"use": "home"}), ("rent", {"rent": "no"}),
                       ("residential", {"residential": "all"}), ("veteran", {"veteran": "no"}),
                       ("cooperative", {"cooperative": "no"})):
        filings.save_step(uow, user, cid, step, data)


def _filed(world) -> int:  # noqa: ANN001
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        cert = filings.start(uow, alice, world.parcel["A"])
        _answer_all(uow, alice, cert.id, world.alice_party)
        filings.file(uow, alice, cert.id, attested=True, full_name="Alice Rivera")
        return cert.id


def test_file_review_return_resubmit_approve_and_the_status_j6_reads(world):
    cid = _filed(world)
    with world.uow() as uow:
        st = exemption_status(uow, world.parcel["A"], FY)
        assert (st.status, st.filing_number) == ("filed", f"EXR-2026-{cid:06d}")
        assert [o.name for o in st.owners] == ["Alice Rivera"] and st.pending
        assert st.filed_on == date(2026, 11, 30)
        staff = _user(uow, world.staff)
        review.take_up(uow, staff, cid)
        review.return_(uow, staff, cid, ["veteran"], "Falta la evidencia.")
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        # Only the returned step (and the documents, the result, the attestation) reopen.
        with pytest.raises(Conflict) as e:
            filings.save_step(uow, alice, cid, "use", {"use": "home"})
        assert e.value.code == "exemption_step_not_returned"
        filings.save_step(uow, alice, cid, "veteran", {"veteran": "yes",
                                                        "veteran_amount": "5000.00"})
        filings.file(uow, alice, cid, attested=True, full_name="Alice Rivera")
    with world.uow() as uow:
        staff = _user(uow, world.staff)
        review.take_up(uow, staff, cid)
        review.approve(uow, staff, cid)
        moves = [(e.from_status, e.to_status, e.actor_id) for e in uow.session.scalars(
            select(ExemptionEvent).where(ExemptionEvent.certification_id == cid)
            .order_by(ExemptionEvent.id))]
        cert = uow.session.get(ExemptionCertification, cid)
        # R-B3: the veteran's 5,000 comes off first; the figures follow the answer.
        assert filings.figures(uow, cert).comparison.result.veteran_exemption_amount == \
            Decimal("516.50")
    a, s = world.alice.id, world.staff.id
    assert moves == [("draft", "filed", a), ("filed", "under_review", s),
                     ("under_review", "returned", s), ("returned", "resubmitted", a),
                     ("resubmitted", "under_review", s), ("under_review", "approved", s)]
    with world.uow() as uow:
        st = exemption_status(uow, world.parcel["A"], date(2027, 7, 1))  # R-B15: continues
        assert st.approved and st.continued_from == FY
        assert exemption_status(uow, world.parcel["B"], FY) is None


def test_states_move_forward_only(world):
    cid = _filed(world)
    with world.uow() as uow:
        with pytest.raises(Conflict):  # a filed certification is not approved unreviewed
            review.approve(uow, _user(uow, world.staff), cid)
    with pytest.raises(ImmutableRowError), world.uow() as uow:
        uow.session.get(ExemptionCertification, cid).status = "draft"
        uow.session.flush()
    with pytest.raises(ImmutableRowError), world.uow() as uow:
        uow.session.get(ExemptionCertification, cid).filing_number = "EXR-0000-000000"
        uow.session.flush()
    with pytest.raises(ImmutableRowError), world.uow() as uow:
        uow.session.delete(uow.session.scalars(select(ExemptionEvent)).first())
        uow.session.flush()


def test_one_dwelling_per_owner_across_the_registry_r_b6(world):
    _filed(world)  # Alice's exemption on A is pending
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        from portal.accounts import parcels
        parcels.claim(uow, alice, "040-000-000-02", world.codes["B"])  # she owns B too
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        cert = filings.start(uow, alice, world.parcel["B"])
        with pytest.raises(Conflict) as e:
            filings.save_step(uow, alice, cert.id, "owners", {"owners": [world.alice_party]})
    assert e.value.code == "one_dwelling"
    assert e.value.params["conflicts"] == [("Alice Rivera", "040-000-000-01", "filed")]


def test_only_an_owner_files_and_others_do_not_see_it(world):
    cid = _filed(world)
    with world.uow() as uow:
        bob, lender = _user(uow, world.bob), _user(uow, world.lender_user)
        with pytest.raises(NotFound):
            filings.get_for_view(uow, bob, cid)
        with pytest.raises(NotFound):  # no loan on A: the lender does not see it
            filings.get_for_view(uow, lender, cid)
        with pytest.raises(NotFound):
            evidence.read(uow, bob, cid, 1)
        with pytest.raises(Forbidden):  # staff review; they do not file
            filings.start(uow, _user(uow, world.staff), world.parcel["A"])
        with pytest.raises(Forbidden):  # a staff role that is not a reviewer
            staff = _user(uow, world.staff)
            staff.staff_role = "cashier"
            review.take_up(uow, staff, cid)


def test_filing_refuses_what_the_law_refuses(world):
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        cert = filings.start(uow, alice, world.parcel["A"])
        _answer_all(uow, alice, cert.id, world.alice_party)
        filings.save_step(uow, alice, cert.id, "rent", {"rent": "yes", "rent_part": "todo"})
        with pytest.raises(Conflict) as e:  # R-B7: rent received
            filings.file(uow, alice, cert.id, attested=True, full_name="Alice Rivera")
        assert e.value.code == "exemption_not_eligible"
        filings.save_step(uow, alice, cert.id, "rent", {"rent": "no"})
        filings.save_step(uow, alice, cert.id, "cooperative", {
            "cooperative": "yes", "unit_share": "0.025", "cooperative_name": "Coop Test",
            "coop_election": "cooperative_law"})
        with pytest.raises(Conflict) as e:  # R-B4: the cooperative chose the other exemption
            filings.file(uow, alice, cert.id, attested=True, full_name="Alice Rivera")
        assert ("R-B4", filings.COOPERATIVE_LAW) in e.value.params["reasons"]
        filings.save_step(uow, alice, cert.id, "cooperative", {
            "cooperative": "yes", "unit_share": "0.025", "cooperative_name": "Coop Test",
            "coop_election": "residential"})
        cert_ = uow.session.get(ExemptionCertification, cert.id)
        # R-B4: the unit's share of the valuation (20,000 x 0.025 = 500.00), all exempt.
        assert filings.figures(uow, cert_).comparison.result.exempt_valuation == \
            Decimal("500.00")
        with pytest.raises(InvalidInput) as e:  # R-B12: the attestation's name
            filings.file(uow, alice, cert.id, attested=True, full_name="Someone Else")
        assert e.value.params["field"] == "full_name"
        with pytest.raises(InvalidInput):
            filings.file(uow, alice, cert.id, attested=False, full_name="Alice Rivera")
        with pytest.raises(InvalidInput):  # not an owner on record
            filings.save_step(uow, alice, cert.id, "owners", {"owners": [999999]})


def test_evidence_is_checked_by_content_and_nothing_is_stored_on_refusal(world, tmp_path):
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        cid = filings.start(uow, alice, world.parcel["A"]).id
    bad = {"evidence_type": b"MZ\x90\x00" + b"\x00" * 64,  # an executable named .pdf
           "evidence_empty": b"",
           "evidence_corrupt": _png()[:30],  # a PNG cut short
           "evidence_too_large": b"%PDF-1.4\n" + b"0" * evidence.MAX_BYTES}
    for code, data in bad.items():
        with world.uow() as uow, pytest.raises(InvalidInput) as e:
            evidence.add(uow, _user(uow, world.alice), cid, data, "recibo.pdf")
        assert e.value.code == code
    assert not (tmp_path / "files").exists() or not any((tmp_path / "files").rglob("*"))
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        row = evidence.add(uow, alice, cid, _png(), "../../etc/foto.png")
        again = evidence.add(uow, alice, cid, _png(), "otra.png")
        pdf = evidence.add(uow, alice, cid, _pdf(), "escritura.pdf")
        assert row.sha256 == again.sha256  # stored once, by its hash
        assert (row.content_type, pdf.content_type) == ("image/png", "application/pdf")
        assert row.filename == "foto.png"
        got, data = evidence.read(uow, alice, cid, pdf.id)
        assert got.id == pdf.id and data.startswith(b"%PDF")
    with world.uow() as uow:
        n = uow.session.scalar(select(func.count()).select_from(ExemptionEvidence))
    assert n == 3


def test_at_most_ten_files(world):
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        cid = filings.start(uow, alice, world.parcel["A"]).id
        from PIL import Image
        for k in range(evidence.MAX_FILES):
            buf = io.BytesIO()
            Image.new("RGB", (8, 8), (k, 0, 0)).save(buf, "PNG")
            evidence.add(uow, alice, cid, buf.getvalue(), f"{k}.png")
        with pytest.raises(InvalidInput) as e:
            evidence.add(uow, alice, cid, _pdf(), "once.pdf")
    assert e.value.code == "evidence_too_many"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_s3_compatible_store_against_motos_server(monkeypatch):
    """The same interface on an S3-compatible server (moto's, on localhost)."""
    pytest.importorskip("moto.server")
    import boto3
    from moto.server import ThreadedMotoServer
    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port)
    server.start()
    try:
        for k, v in {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                     "AWS_DEFAULT_REGION": "us-east-1"}.items():
            monkeypatch.setenv(k, v)
        endpoint = f"http://127.0.0.1:{port}"
        boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket="evidencia")
        monkeypatch.setenv("STORAGE_S3_BUCKET", "evidencia")
        monkeypatch.setenv("STORAGE_S3_ENDPOINT_URL", endpoint)
        store = storage.store()
        assert isinstance(store, storage.S3Store)
        key = store.put(_png())
        assert store.exists(key) and store.get(key) == _png()
        assert store.put(_png()) == key
        assert not store.exists("0" * 64)
        with pytest.raises(ValueError):
            store.get("../secret")
        assert store.delete(key) and not store.exists(key)  # the retention policy's delete
        assert not store.delete(key)
    finally:
        server.stop()


def test_no_certification_without_the_crims_facts_and_rate(world):
    """Without the year's facts, or a rate for their municipality, no figure can be computed:
    the certification does not start (the page says to call the Authority)."""
    with world.uow() as uow:
        fact = uow.session.scalar(select(PropertyTaxFact).where(
            PropertyTaxFact.parcel_id == world.parcel["A"]))
        fact.municipality = "Atlantis"
    with world.uow() as uow, pytest.raises(NotFound) as e:
        filings.start(uow, _user(uow, world.alice), world.parcel["A"])
    assert e.value.code == "no_property_tax_facts"


def test_a_couple_has_one_exemption_r_b5_r_b6(world):
    """Spouses are both owners: both are named; and a spouse's exemption elsewhere blocks the
    other's filing (a couple has one exemption)."""
    with world.uow() as uow:
        s = uow.session
        carlos = Party(kind="person", name="Carlos Vega")
        s.add(carlos)
        s.flush()
        share = s.scalar(select(OwnershipShare).where(
            OwnershipShare.parcel_id == world.parcel["A"]))
        share.kind, share.share = "spouse", Decimal("0.5")
        s.add(OwnershipShare(parcel_id=world.parcel["A"], party_id=carlos.id,
                             share=Decimal("0.5"), kind="spouse", starts_on=date(2015, 1, 1)))
        s.add(OwnershipShare(parcel_id=world.parcel["C"], party_id=carlos.id, share=Decimal(1),
                             kind="sole", starts_on=date(2015, 1, 1)))
        other = ExemptionCertification(parcel_id=world.parcel["C"], fiscal_year_start=FY,
                                       status="draft", created_by_id=world.bob.id, answers={})
        s.add(other)
        s.flush()
        from portal.models import ExemptionOwner
        s.add(ExemptionOwner(certification_id=other.id, party_id=carlos.id))
        s.flush()
        other.status = "filed"
        carlos_id = carlos.id
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        cert = filings.start(uow, alice, world.parcel["A"])
        with pytest.raises(InvalidInput) as e:
            filings.save_step(uow, alice, cert.id, "owners", {"owners": [world.alice_party]})
        assert e.value.code == "both_spouses"
        with pytest.raises(Conflict) as e:
            filings.save_step(uow, alice, cert.id, "owners",
                              {"owners": [world.alice_party, carlos_id]})
        assert e.value.params["conflicts"] == [("Carlos Vega", "040-000-000-03", "filed")]
        assert filings.spouses_of(uow, [world.alice_party]) == {carlos_id}


def test_withdraw_then_file_anew_but_never_undo_an_approval(world):
    cid = _filed(world)
    with world.uow() as uow:
        filings.withdraw(uow, _user(uow, world.alice), cid)
    with world.uow() as uow:
        assert exemption_status(uow, world.parcel["A"], FY) is None  # withdrawn: not shown
        alice = _user(uow, world.alice)
        again = filings.start(uow, alice, world.parcel["A"])
        assert again.id != cid and again.status == "draft"
        _answer_all(uow, alice, again.id, world.alice_party)  # R-B6: a withdrawn one holds none
        filings.file(uow, alice, again.id, attested=True, full_name="Alice Rivera")
        staff = _user(uow, world.staff)
        review.take_up(uow, staff, again.id)
        review.approve(uow, staff, again.id)
    with world.uow() as uow, pytest.raises(Conflict):
        filings.withdraw(uow, _user(uow, world.alice), again.id)


def _pdf_of(pages: int) -> bytes:
    from pypdf import PdfWriter
    writer, buf = PdfWriter(), io.BytesIO()
    for _ in range(pages):
        writer.add_blank_page(612, 792)
    writer.write(buf)
    return buf.getvalue()


@pytest.mark.parametrize("bomb", ["png", "pdf"])
def test_bombs_are_refused_from_their_header_in_little_memory(tmp_path, bomb):
    """A decompression-bomb PNG (10^8 pixels declared: 400 MB decoded) and a PDF bomb (its
    page tree in an object stream that inflates to 1 GB) are refused as
    `evidence_oversized`: checked in a fresh process, its peak memory stays within 60 MB of
    the same process's before the check (pypdf's own bound would let 75 MB a stream, and
    148 MB were measured before `MAX_PDF_INFLATED`)."""
    import subprocess
    import sys
    path = tmp_path / f"bomb.{bomb}"
    path.write_bytes(png_bomb() if bomb == "png" else pdf_bomb())
    script = (
        "import resource, sys\n"
        "from portal.exemptions import evidence\n"
        "from portal.accounts.errors import InvalidInput\n"
        "import PIL.Image, PIL.PngImagePlugin, pypdf, pypdf.filters\n"
        "data = open(sys.argv[1], 'rb').read()\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n"
        "    evidence.check(data)\n"
        "    print('accepted')\n"
        "except InvalidInput as e:\n"
        "    print(e.code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n")
    out = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out[0] == "evidence_oversized"
    assert int(out[1]) < 60 * 1024, f"peak grew by {out[1]} kB"


def test_bombs_uploaded_at_once_are_all_refused_in_bounded_memory(tmp_path):
    """Eight bombs checked at the same instant in one process (four PNGs of 10^8 pixels,
    four PDFs inflating to 1 GB, one thread each, as a worker's threads serve uploads at
    once): every one refused as `evidence_oversized`, and the process's peak memory grows by
    less than 100 MB in all (one PNG decoded would take 400 MB; each PDF is cut at
    `MAX_PDF_INFLATED`, its bound per thread). Measured in a fresh process (ru_maxrss)."""
    import subprocess
    import sys
    n = 8
    for k in range(n):
        (tmp_path / f"bomb{k}").write_bytes(png_bomb() if k % 2 == 0 else pdf_bomb())
    script = (
        "import resource, sys, threading, warnings\n"
        "from portal.exemptions import evidence\n"
        "from portal.accounts.errors import InvalidInput\n"
        "import PIL.Image, PIL.PngImagePlugin, pypdf, pypdf.filters\n"
        "warnings.simplefilter('ignore')\n"
        "files = [open(p, 'rb').read() for p in sys.argv[1:]]\n"
        "start, codes = threading.Barrier(len(files)), []\n"
        "def upload(data):\n"
        "    start.wait(60)\n"
        "    try:\n"
        "        evidence.check(data)\n"
        "        codes.append('accepted')\n"
        "    except InvalidInput as e:\n"
        "        codes.append(e.code)\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "threads = [threading.Thread(target=upload, args=(f,)) for f in files]\n"
        "for t in threads: t.start()\n"
        "for t in threads: t.join(300)\n"
        "print(','.join(sorted(codes)), "
        "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n")
    out = subprocess.run([sys.executable, "-c", script,
                          *(str(tmp_path / f"bomb{k}") for k in range(n))],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0].split(",") == ["evidence_oversized"] * n
    assert int(out[1]) < 100 * 1024, f"peak grew by {out[1]} kB for {n} bombs at once"


def test_the_bounds_refuse_what_is_too_big_and_keep_what_is_not():
    """Past the page bound: oversized. The same PDF as the bomb, small: accepted (the
    refusal is its size, not its shape). A PNG cut short: corrupt, not oversized."""
    with pytest.raises(InvalidInput) as e:
        evidence.check(_pdf_of(evidence.MAX_PDF_PAGES + 1))
    assert e.value.code == "evidence_oversized"
    assert evidence.check(_pdf_of(3)) == "application/pdf"
    assert evidence.check(pdf_bomb(inflated=1 << 20)) == "application/pdf"
    assert evidence.active_content(pdf_bomb()) == []  # the flagging step bounded as well
    with pytest.raises(InvalidInput) as e:
        evidence.check(_png()[:60])
    assert e.value.code == "evidence_corrupt"


def test_uploads_at_once_never_pass_the_limit(world):
    """Nine files, then four uploads at the same instant: one more is kept, three are
    refused (`evidence_too_many`), never eleven."""
    import threading
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        cid = filings.start(uow, alice, world.parcel["A"]).id
        for k in range(evidence.MAX_FILES - 1):
            evidence.add(uow, alice, cid, _pdf_of(1) + str(k).encode(), f"{k}.pdf")
    start, codes = threading.Barrier(4), []

    def upload(k: int) -> None:
        start.wait(10)
        try:
            with world.uow() as uow:
                evidence.add(uow, _user(uow, world.alice), cid, _png(), f"at-once-{k}.png")
            codes.append("kept")
        except InvalidInput as exc:
            codes.append(exc.code)

    threads = [threading.Thread(target=upload, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(codes) == ["evidence_too_many"] * 3 + ["kept"]
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(ExemptionEvidence).where(
            ExemptionEvidence.certification_id == cid)) == evidence.MAX_FILES


def test_an_unreachable_store_refuses_the_upload_clearly(world, tmp_path):
    """A store that cannot write (a folder that cannot be made: as a full disk, an OSError)
    or an S3 server that does not answer: `evidence_store_unavailable`, nothing recorded."""
    import boto3
    from botocore.config import Config
    blocker = tmp_path / "not-a-folder"
    blocker.write_bytes(b"")
    client = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{_free_port()}",
                          aws_access_key_id="x", aws_secret_access_key="x",
                          region_name="us-east-1",
                          config=Config(retries={"max_attempts": 1}, connect_timeout=1))
    with world.uow() as uow:
        cid = filings.start(uow, _user(uow, world.alice), world.parcel["A"]).id
    for store in (storage.FolderStore(blocker / "files"), storage.S3Store("b", client=client)):
        storage.use(store)
        with world.uow() as uow, pytest.raises(Conflict) as e:
            evidence.add(uow, _user(uow, world.alice), cid, _png(), "foto.png")
        assert e.value.code == "evidence_store_unavailable"
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(ExemptionEvidence)) == 0


def _decided_on_c(world, fy: date, *, revoked_from: date | None = None) -> None:  # noqa: ANN001
    """Alice's certification on parcel C for `fy`, approved (and revoked from `revoked_from`)."""
    from portal.models import ExemptionOwner
    with world.uow() as uow:
        s = uow.session
        s.add(OwnershipShare(parcel_id=world.parcel["C"], party_id=world.alice_party,
                             share=Decimal(1), kind="sole", starts_on=date(2015, 1, 1)))
        cert = ExemptionCertification(parcel_id=world.parcel["C"], fiscal_year_start=fy,
                                      status="draft", created_by_id=world.alice.id, answers={})
        s.add(cert)
        s.flush()
        s.add(ExemptionOwner(certification_id=cert.id, party_id=world.alice_party))
        for status in ("filed", "under_review", "approved"):
            cert.status = status
            s.flush()
        if revoked_from is not None:
            cert.status, cert.revoked_from = "revoked", revoked_from
            s.flush()


def _owners_step_on_a(world):  # noqa: ANN001, ANN202
    with world.uow() as uow:
        alice = _user(uow, world.alice)
        cert = filings.start(uow, alice, world.parcel["A"])
        filings.save_step(uow, alice, cert.id, "owners", {"owners": [world.alice_party]})


@pytest.mark.parametrize("decided", ["last_year", "revoked_next_year"])
def test_an_exemption_that_still_holds_the_year_blocks_another_home_r_b6(world, decided):
    """R-B6 with R-B15 and R-B18: last year's approval continues into this year, and a
    certification revoked from next year still holds this one: either is Alice's exemption
    on C this year, so she cannot claim A as well."""
    if decided == "last_year":
        _decided_on_c(world, date(2025, 7, 1))
    else:
        _decided_on_c(world, FY, revoked_from=date(2027, 7, 1))
    with pytest.raises(Conflict) as e:
        _owners_step_on_a(world)
    assert e.value.code == "one_dwelling"
    assert e.value.params["conflicts"] == [("Alice Rivera", "040-000-000-03", "approved")]


@pytest.mark.parametrize("revoked_from", [date(2026, 7, 1), date(2025, 7, 1)])
def test_an_exemption_revoked_from_this_year_frees_the_owner_r_b6(world, revoked_from):
    """R-B18: revoked from this year (or an earlier one), C no longer holds her exemption:
    she may claim A."""
    _decided_on_c(world, date(2025, 7, 1), revoked_from=revoked_from)
    _owners_step_on_a(world)  # no conflict


def test_a_later_decision_on_the_parcel_ends_the_continuing_approval_r_b15(world):
    """Alice's approval on C for 2024 stopped continuing when C's 2025 certification (naming
    someone else) was approved: only the parcel's last decision continues."""
    from portal.models import ExemptionOwner
    _decided_on_c(world, date(2024, 7, 1))
    with world.uow() as uow:
        s = uow.session
        carlos = Party(kind="person", name="Carlos Vega")
        s.add(carlos)
        s.flush()
        cert = ExemptionCertification(parcel_id=world.parcel["C"],
                                      fiscal_year_start=date(2025, 7, 1), status="draft",
                                      created_by_id=world.bob.id, answers={})
        s.add(cert)
        s.flush()
        s.add(ExemptionOwner(certification_id=cert.id, party_id=carlos.id))
        for status in ("filed", "under_review", "approved"):
            cert.status = status
            s.flush()
    _owners_step_on_a(world)  # no conflict
