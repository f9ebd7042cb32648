"""The portfolio kept by the bank: loans added and removed one at a time, by an
add/delete CSV processed as a job with a per-row report (every reason code), and matched to
the roll; the owner's page names the bank that said it services the loan."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import select

from portal import clock
from portal.jobs import queue
from portal.web.data import database
from tests.support.demo import app_uow


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def lender_user(w):  # noqa: ANN001, ANN201
    from portal.models import User
    return w.session.scalar(select(User).where(User.email == "lender@demo.pr"))


def free_parcel(w):  # noqa: ANN001, ANN201
    """A parcel with one owner (a person) and no loan of the demo bank: (catastro, name)."""
    from portal.models import Loan, OwnershipShare, Parcel, Party
    today = clock.today()
    rows = w.session.execute(
        select(Parcel.catastro, Party.name, Parcel.id)
        .join(OwnershipShare, OwnershipShare.parcel_id == Parcel.id)
        .join(Party, Party.id == OwnershipShare.party_id)
        .where(Party.kind == "person", OwnershipShare.starts_on <= today,
               OwnershipShare.ends_on.is_(None),
               Parcel.id.not_in(select(Loan.parcel_id)))
        .order_by(Parcel.id).limit(30)).all()
    out, seen = [], set()
    for r in rows:
        if r[2] not in seen:
            seen.add(r[2])
            out.append(r)
    return out[:3]


def test_add_and_remove_reasons(app: Flask) -> None:
    from portal.lenders import loan_changes as lc
    with app_uow(app) as w:
        user = lender_user(w)
        (cat, name, pid), (cat2, name2, _p2), _ = free_parcel(w)
        rows = [
            {"action": "alta", "loan_number": "N-1", "catastro": cat, "owner_name": name,
             "escrow": "sí"},
            {"action": "alta", "loan_number": "N-1", "catastro": cat, "owner_name": name},
            {"action": "alta", "loan_number": "N-2", "catastro": "999-999-999-99",
             "owner_name": name},
            {"action": "alta", "loan_number": "N-3", "catastro": cat2,
             "owner_name": "Nadie Conocido"},
            {"action": "alta", "loan_number": "N-1", "catastro": cat2, "owner_name": name2},
            {"action": "quizas", "loan_number": "N-4", "catastro": cat, "owner_name": name},
            {"action": "baja", "loan_number": "N-9", "catastro": cat},
            {"action": "alta", "loan_number": "", "catastro": cat},
            {"action": "alta", "loan_number": "N-5", "catastro": "x", "owner_name": name},
            {"action": "alta", "loan_number": "N-6", "catastro": cat2, "owner_name": name2,
             "escrow": "X"},
        ]
        f, replayed = lc.filed(w, user, rows, source="api", idempotency_key="k1",
                               body_hash=lc.body_hash_of(rows))
        assert replayed is False
        # the same key and body again: the same file, said to be the earlier one (the
        # API's 200), found by the same statement that would have filed it
        assert lc.filed(w, user, rows, source="api", idempotency_key="k1",
                        body_hash=lc.body_hash_of(rows)) == (f, True)
        got, _n = lc.rows_page(w, user, f.id)
        assert [(r.outcome, r.reason) for r in got] == [
            ("done", None), ("unchanged", None), ("rejected", "not_on_roll"),
            ("rejected", "owner_not_on_record"), ("rejected", "loan_number_taken"),
            ("rejected", "bad_action"), ("rejected", "not_your_loan"),
            ("rejected", "required"), ("rejected", "bad_catastro"),
            ("rejected", "not_yes_no")]
        assert got[0].parcel_id == pid and got[0].loan_id
        assert (f.done, f.unchanged, f.rejected) == (1, 1, 8)
    # the owner's page data: the bank said it services the loan
    with app_uow(app) as w:
        names = lc.servicers(w, pid)
        assert [n for n, _e, _s in names] and names[0][1] is True
    # removed: it ends (added today: deleted), and the owner's page no longer names the bank
    with app_uow(app) as w:
        row = lc.change_one(w, lender_user(w), {"action": "baja", "loan_number": "N-1",
                                                "catastro": cat})
        assert (row.outcome, lc.what(row)) == ("done", "removed")
        assert lc.servicers(w, pid) == []


def test_csv_job_and_report(app: Flask) -> None:
    from portal.lenders import loan_changes as lc
    from portal.models import Loan
    with app_uow(app) as w:
        user = lender_user(w)
        (cat, name, pid), _b, _c = free_parcel(w)
        old = w.session.scalar(select(Loan).where(Loan.lender_id.isnot(None))
                               .order_by(Loan.id).limit(1))
        from portal.models import Parcel
        old_cat = w.session.get(Parcel, old.parcel_id).catastro
        old.starts_on = clock.today() - timedelta(days=400)
        data = ("accion;numero_prestamo;catastro;nombre_dueno;cuenta_reserva\r\n"
                f"alta;NEW-1;{cat};{name.upper()};no\r\n"
                f"baja;{old.loan_number};{old_cat};;\r\n"
                f"baja;{old.loan_number};{old_cat};;\r\n"
                "alta;=cmd|' /C calc'!A0;040;x;\r\n").encode("cp1252")
        f = lc.submit_csv(w, user, data, "cartera.csv")
        fid, job = f.id, f.job_id
    queue.enqueue_or_leave(job)
    with app_uow(app) as w:
        user = lender_user(w)
        f = lc.get(w, user, fid)
        assert f.status == "done" and (f.done, f.unchanged, f.rejected) == (2, 1, 1)
        loan = w.session.get(Loan, old.id)
        assert loan.ends_on == clock.today() - timedelta(days=1)
        added = w.session.scalar(select(Loan).where(Loan.loan_number == "NEW-1"))
        assert added.parcel_id == pid and added.escrow is False
        text = "".join(lc.report_csv(w, user, fid, lang="es"))
        assert text.startswith("\ufeffaccion,numero_prestamo")
        assert "'=cmd" in text and "No es uno de sus" not in text.split("\r\n")[1]


def test_file_refused_as_a_whole(app: Flask) -> None:
    from portal.accounts.errors import InvalidInput
    from portal.lenders import loan_changes as lc
    for data, code in ((b"", "empty"), (b"accion,foo\r\nalta,1\r\n", "unknown_columns"),
                       (b"accion,catastro\r\nalta,1\r\n", "missing_columns"),
                       (b"accion,numero_prestamo,catastro\r\n", "no_rows")):
        with pytest.raises(InvalidInput) as e:
            lc.parse_csv(data)
        assert e.value.code == code


def test_names_match() -> None:
    from portal.lenders.loan_changes import name_matches
    assert name_matches("Jose Bolivar", ["José Antonio Bolívar Rivera"])
    assert name_matches("BOLÍVAR, JOSÉ", ["José Bolívar"])
    assert not name_matches("José", ["José Bolívar"])
    assert not name_matches("Ana Bolívar", ["José Bolívar"])
