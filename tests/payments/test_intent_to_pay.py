"""Two payers, one bill: while someone else's payment of the same account is not finished (a
checkout started and not completed, or a bank debit processing), whoever else pays it is told
who is paying and since when, and must confirm to pay too; the server starts no checkout
without that confirmation. With it, both can pay (the second becomes a credit)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.models import LedgerEntry, User
from portal.models.checkouts import Checkout
from tests.support.payments import add_people, review, sign_in_from, start

WARNING = "Someone else is already paying this"


@pytest.fixture
def world(world):
    """The payments' world with its other people (tests.support.payments.add_people)."""
    add_people(world)
    return world


def checkouts(world) -> int:  # noqa: ANN001
    with world.uow() as uow:
        return uow.session.scalar(select(func.count()).select_from(Checkout))


def payments_posted(world) -> int:  # noqa: ANN001
    with world.uow() as uow:
        return uow.session.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.kind == "payment", LedgerEntry.parcel_id == world.parcel_ids[0]))


def plain(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_lender_is_told_the_owner_is_paying_and_must_confirm(app, world):
    owner, otok = sign_in_from(app, "owner")
    key = world.key(0)
    owner_url = start(owner, otok, {f"choice-{key}": "due_now"})
    lender, ltok = sign_in_from(app, "lender")
    page, form = review(lender, ltok, {f"choice-{key}": "due_now"})
    text = plain(page.text)
    assert WARNING in text
    assert "María Rivera started paying parcel 060-000-001-01 on September 5, 2026 at " \
           "12:00 PM and has not finished yet." in text
    assert 'name="pay_anyway"' in page.text
    # Without the box: refused, the warning again, nothing created.
    r = lender.post("/pagar/confirmar", data=form)
    assert r.status_code == 409
    assert "To pay it too, check the box below." in plain(r.text)
    assert checkouts(world) == 1
    # With it: the lender pays; then the owner still can (the second is a credit).
    r = lender.post("/pagar/confirmar", data={**form, "pay_anyway": "yes"})
    assert r.status_code == 303, plain(r.text)[:600]
    assert checkouts(world) == 2
    for client, tok, url in ((lender, ltok, r.headers["Location"]), (owner, otok, owner_url)):
        assert client.post(url, data={"csrf_token": tok, "outcome": "card_succeeds"}
                           ).status_code == 303
    assert payments_posted(world) == 2


def test_the_owner_sees_a_bank_payment_processing_and_the_payer_unnamed(app, world):
    with world.uow() as uow:
        uow.session.get(User, world.other.id).name = ""  # a payer without a name
    lessee, ltok = sign_in_from(app, "other")
    key = world.key(0)
    url = start(lessee, ltok, {f"choice-{key}": "due_now"})
    lessee.post(url, data={"csrf_token": ltok, "outcome": "bank_processing"})
    with world.uow() as uow:
        assert uow.session.scalar(select(Checkout.status)) == "processing"
    owner, otok = sign_in_from(app, "owner")
    owner.post("/idioma", data={"csrf_token": otok, "lang": "es", "next": "/"})
    page, form = review(owner, otok, {f"choice-{key}": "installments",
                                      f"through-{key}": "12"})
    text = plain(page.text)
    assert "Otra persona ya está pagando esto" in text
    assert "Otra persona con acceso pagó la propiedad 060-000-001-01 desde una cuenta de banco " \
           "el 5 de septiembre de 2026 a las 12:00 p. m.; el banco todavía está procesando " \
           "ese pago." in text, text[:3000]
    r = owner.post("/pagar/confirmar", data=form)
    assert r.status_code == 409 and "marque la casilla" in plain(r.text)
    assert owner.post("/pagar/confirmar", data={**form, "pay_anyway": "yes"}
                      ).status_code == 303


def test_the_same_payer_is_not_warned_about_their_own_payment(app, world):
    owner, otok = sign_in_from(app, "owner")
    key = world.key(0)
    start(owner, otok, {f"choice-{key}": "due_now"})
    page, form = review(owner, otok, {f"choice-{key}": "installments",
                                      f"through-{key}": "3"})
    assert WARNING not in plain(page.text) and 'name="pay_anyway"' not in page.text
    assert owner.post("/pagar/confirmar", data=form).status_code == 303


def test_another_account_is_not_warned(app, world):
    owner, otok = sign_in_from(app, "owner")
    start(owner, otok, {f"choice-{world.key(0)}": "due_now"})
    lender, ltok = sign_in_from(app, "lender")
    page, form = review(lender, ltok, {f"choice-{world.key(1)}": "due_now"})
    assert WARNING not in plain(page.text)
    assert lender.post("/pagar/confirmar", data=form).status_code == 303


def test_a_finished_or_abandoned_payment_does_not_warn(app, world):
    owner, otok = sign_in_from(app, "owner")
    key = world.key(0)
    url = start(owner, otok, {f"choice-{key}": "due_now"})
    owner.post(url, data={"csrf_token": otok, "outcome": "card_declined"})
    lender, ltok = sign_in_from(app, "lender")
    page, _form = review(lender, ltok, {f"choice-{key}": "due_now"})
    assert WARNING not in plain(page.text)
    start(owner, otok, {f"choice-{key}": "installments", f"through-{key}": "2"})
    with clock.fixed(clock.now().replace(day=7)):  # two days later: abandoned
        lender, ltok = sign_in_from(app, "lender")
        page, _form = review(lender, ltok, {f"choice-{key}": "due_now"})
    assert WARNING not in plain(page.text)


def test_the_server_refuses_a_second_payer_who_never_saw_the_review(app, world):
    """Both review at the same moment (no warning yet); the owner pays first; the lender's
    Pay is refused until confirmed."""
    owner, otok = sign_in_from(app, "owner")
    lender, ltok = sign_in_from(app, "lender")
    key = world.key(0)
    _o_page, o_form = review(owner, otok, {f"choice-{key}": "due_now"})
    l_page, l_form = review(lender, ltok, {f"choice-{key}": "due_now"})
    assert WARNING not in plain(l_page.text)
    assert owner.post("/pagar/confirmar", data=o_form).status_code == 303
    r = lender.post("/pagar/confirmar", data=l_form)
    assert r.status_code == 409 and WARNING in plain(r.text)
    assert checkouts(world) == 1
