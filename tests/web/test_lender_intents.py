"""J7: a lender marks what it will pay (CRIM bills, District installments) on its loan's page;
the owner sees "Your bank said it will pay this" on the parcel page and the pay pages, and
must confirm to pay it anyway; the lender may not mark what is paid, nor what someone else
is paying; another lender's loan is not found; each mark and withdrawal is audit-logged. The
acquisition form on the same page (R-B10 iii, R-B21)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from portal.db import UnitOfWork
from portal.models import AuditRecord, LenderAcquisition, LenderIntent, Loan
from tests.support.demo import parcel_ids
from tests.support.pages import csrf_token, login


def plain(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _rows(app, model):  # noqa: ANN001, ANN202
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalars(select(model).order_by(model.id)).all()


@pytest.fixture
def home(demo_app):  # noqa: ANN001, ANN201
    """(the owner's home's parcel id, the bank's loan id on it)."""
    from portal.web.data import database
    owner = set(parcel_ids(demo_app)["owner"])
    with demo_app.app_context(), UnitOfWork(database()) as w:
        loan = next(ln for ln in w.session.scalars(select(Loan).order_by(Loan.id))
                    if ln.parcel_id in owner)
        return loan.parcel_id, loan.id


def _items(html: str) -> list[str]:
    return re.findall(r'name="item" value="([^"]+)"', html)


def _key(demo_app, pid: int) -> str:  # noqa: ANN001
    from portal import clock
    from portal.accounts.facts import fiscal_year_on
    from portal.web.data import database
    with demo_app.app_context(), UnitOfWork(database()) as w:
        return f"{pid}-{fiscal_year_on(w, clock.today()).id}"


def _mark(client, loan_id: int, *items: str, status: int = 303):  # noqa: ANN001, ANN202
    url = f"/prestamista/prestamos/{loan_id}"
    tok = csrf_token(client.get(url).get_data(as_text=True))
    r = client.post(f"{url}/pagaremos", data={"csrf_token": tok, "item": list(items)})
    assert r.status_code == status, plain(r.get_data(as_text=True))[:800]
    return r


def test_the_lender_marks_and_the_owner_sees_it_before_paying(demo_app, home):
    pid, loan_id = home
    lender = login(demo_app, "lender")
    page = lender.get(f"/prestamista/prestamos/{loan_id}").get_data(as_text=True)
    items = _items(page)
    assert items[:2] == ["crim-1", "crim-2"] and "inst-6" not in items[:2]
    assert "due_now" not in items  # nothing due now: installments 1–5 are paid
    inst = items[2]
    _mark(lender, loan_id, "crim-2", inst)
    page = lender.get(f"/prestamista/prestamos/{loan_id}").get_data(as_text=True)
    assert "crim-2" not in _items(page) and inst not in _items(page)
    assert "Retirar" in page
    marks = _rows(demo_app, LenderIntent)
    assert [(m.kind, m.crim_half) for m in marks] == [("crim_bill", 2),
                                                      ("district_installment", None)]
    assert all(m.amount > 0 and m.withdrawn_at is None for m in marks)
    # Marking the same again creates nothing new.
    _mark(lender, loan_id, "crim-2")
    assert len(_rows(demo_app, LenderIntent)) == 2

    owner = login(demo_app, "owner")
    parcel = plain(owner.get(f"/propiedad/{pid}").get_data(as_text=True))
    assert "Su banco dijo que pagará esto" in parcel, parcel[:2000]
    assert "Banco Hipotecario del Caribe indicó el" in parcel
    key = _key(demo_app, pid)
    choose = plain(owner.get(f"/pagar?parcela={pid}").get_data(as_text=True))
    assert "Su banco dijo que pagará esto" in choose
    tok = csrf_token(owner.get("/pagar").get_data(as_text=True))
    data = {"csrf_token": tok, f"choice-{key}": "installments", f"through-{key}": "6"}
    review = owner.post("/pagar/revisar", data=data)
    assert review.status_code == 200
    html = review.get_data(as_text=True)
    assert 'name="lender_ok"' in html and "Su banco dijo que pagará esto" in plain(html)
    expected = re.search(r'name="expected_total" value="([^"]+)"', html).group(1)
    form = {**data, "expected_total": expected}
    r = owner.post("/pagar/confirmar", data=form)
    assert r.status_code == 409
    assert "marque la casilla" in plain(r.get_data(as_text=True))
    r = owner.post("/pagar/confirmar", data={**form, "lender_ok": "yes"})
    assert r.status_code == 303 and "/pagos/prueba/" in r.headers["Location"]

    # English too.
    english = plain(owner.get(f"/propiedad/{pid}?lang=en").get_data(as_text=True))
    assert "Your bank said it will pay this" in english


def test_a_lender_paying_what_it_marked_is_not_asked(demo_app, home):
    pid, loan_id = home
    lender = login(demo_app, "lender")
    page = lender.get(f"/prestamista/prestamos/{loan_id}").get_data(as_text=True)
    _mark(lender, loan_id, _items(page)[2])
    key = _key(demo_app, pid)
    tok = csrf_token(lender.get("/pagar").get_data(as_text=True))
    html = lender.post("/pagar/revisar", data={
        "csrf_token": tok, f"choice-{key}": "installments", f"through-{key}": "6"}
    ).get_data(as_text=True)
    assert 'name="lender_ok"' not in html


def test_withdrawn_the_owner_no_longer_sees_it(demo_app, home):
    pid, loan_id = home
    lender = login(demo_app, "lender")
    _mark(lender, loan_id, "crim-1")
    intent = _rows(demo_app, LenderIntent)[0]
    url = f"/prestamista/prestamos/{loan_id}"
    tok = csrf_token(lender.get(url).get_data(as_text=True))
    r = lender.post(f"{url}/pagaremos/{intent.id}/retirar", data={"csrf_token": tok})
    assert r.status_code == 303
    again = lender.post(f"{url}/pagaremos/{intent.id}/retirar", data={"csrf_token": tok})
    assert again.status_code == 404  # withdrawn once
    rows = _rows(demo_app, LenderIntent)
    assert len(rows) == 1 and rows[0].withdrawn_at is not None  # kept, not deleted
    owner = login(demo_app, "owner")
    assert "Su banco dijo" not in plain(owner.get(f"/propiedad/{pid}").get_data(as_text=True))
    actions = [a.action for a in _rows(demo_app, AuditRecord)
               if a.action.startswith("lender.intent")]
    assert actions == ["lender.intent_marked", "lender.intent_withdrawn"]


def test_nothing_paid_or_unknown_can_be_marked(demo_app, home):
    _pid, loan_id = home
    lender = login(demo_app, "lender")
    from portal.models import Installment
    paid = next(i for i in _rows(demo_app, Installment) if i.number == 1)
    for items in (["inst-999999"], [f"inst-{paid.id}"], ["due_now"], []):
        r = _mark(lender, loan_id, *items, status=400)
        assert "error-summary" in r.get_data(as_text=True)
    assert _rows(demo_app, LenderIntent) == []


def test_the_lender_may_not_mark_what_the_owner_is_paying(demo_app, home):
    pid, loan_id = home
    owner = login(demo_app, "owner")
    key = _key(demo_app, pid)
    tok = csrf_token(owner.get("/pagar").get_data(as_text=True))
    data = {"csrf_token": tok, f"choice-{key}": "installments", f"through-{key}": "6"}
    html = owner.post("/pagar/revisar", data=data).get_data(as_text=True)
    expected = re.search(r'name="expected_total" value="([^"]+)"', html).group(1)
    assert owner.post("/pagar/confirmar", data={**data, "expected_total": expected}
                      ).status_code == 303
    lender = login(demo_app, "lender")
    page = lender.get(f"/prestamista/prestamos/{loan_id}").get_data(as_text=True)
    assert "Otra persona ya está pagando la cuenta del Distrito" in plain(page), plain(page)[-2500:]
    r = _mark(lender, loan_id, _items(page)[2], status=409)
    assert "error-summary" in r.get_data(as_text=True)
    _mark(lender, loan_id, "crim-1")  # a CRIM bill is not the District's account
    assert [m.kind for m in _rows(demo_app, LenderIntent)] == ["crim_bill"]


def test_the_acquisition_form(demo_app, home):
    _pid, loan_id = home
    lender = login(demo_app, "lender")
    url = f"/prestamista/prestamos/{loan_id}"
    tok = csrf_token(lender.get(url).get_data(as_text=True))
    for bad in ("2026-12-01", "30/10/26", ""):  # R-B21: a deed of last year is taken
        r = lender.post(f"{url}/adquisicion", data={"csrf_token": tok, "acquired_on": bad})
        assert r.status_code == 400, bad
        assert "error-summary" in r.get_data(as_text=True)
    assert _rows(demo_app, LenderAcquisition) == []
    r = lender.post(f"{url}/adquisicion", data={"csrf_token": tok,
                                                "acquired_on": "2026-10-27"})
    assert r.status_code == 303
    page = plain(lender.get(url).get_data(as_text=True))
    # + 30 = Thanksgiving 2026-11-26: the last day is Friday the 27th, 3 days ago: overdue.
    assert "27 de noviembre de 2026" in page and "hace 3 días" in page and "vencido" in page
    english = plain(lender.get(url + "?lang=en").get_data(as_text=True))
    assert "November 27, 2026" in english and "3 days ago" in english


@pytest.mark.parametrize("role", ["other", "owner", "lessee", "staff", "anonymous"])
def test_no_one_else_touches_the_loan(demo_app, home, role):
    """A clerk of another bank, the parcel's owner, a lessee, staff: every route of the
    bank's loan is a 404 (anonymous: sign in first); nothing is written."""
    from portal.web.data import database
    from tests.support.lenders import other_lender
    _pid, loan_id = home
    with demo_app.app_context(), UnitOfWork(database()) as w:
        other_lender(w)  # user00001@demo.pr ("other") works for another bank
    client = demo_app.test_client() if role == "anonymous" else login(demo_app, role)
    tok = csrf_token(client.get("/cuenta/entrar" if role == "anonymous" else "/mis-propiedades")
                     .get_data(as_text=True))
    url = f"/prestamista/prestamos/{loan_id}"
    expected = 302 if role == "anonymous" else 404
    assert client.get(url).status_code == expected
    for path, data in ((f"{url}/pagaremos", {"item": "crim-1"}),
                       (f"{url}/adquisicion", {"acquired_on": "2026-10-27"}),
                       (f"{url}/pagaremos/1/retirar", {})):
        r = client.post(path, data={"csrf_token": tok, **data})
        assert r.status_code == expected, (role, path, r.status_code)
    assert _rows(demo_app, LenderIntent) == [] and _rows(demo_app, LenderAcquisition) == []
