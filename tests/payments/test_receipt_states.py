"""A payment's page words its state: a declined card says nothing was charged,
when it was attempted and how to try again (never "Date —"); a bank payment still
processing says how it is being applied and its "Total in process", never "Total paid"."""

from __future__ import annotations

import pytest

from tests.support.pages import PASSWORD, main_text
from tests.support.payments import pay_in_sandbox, sign_in_to_pay
from tests.support.world import set_passwords


@pytest.fixture
def world(world):
    """The payments' world; its people sign in with PASSWORD."""
    set_passwords(world, PASSWORD)
    return world


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ("Intentado el 5 de septiembre de 2026", "Intentar el pago de nuevo",
            "No se cobró nada")),
    ("en", ("Attempted on September 5, 2026", "Try the payment again", "Nothing was charged")),
])
def test_a_declined_payment_says_try_again(app, world, lang, words):  # noqa: F811
    client = app.test_client()
    tok = sign_in_to_pay(client, lang=lang)
    _, receipt = pay_in_sandbox(client, tok, {f"choice-{world.key(0)}": "due_now"},
                                outcome="card_declined")
    shown = main_text(receipt.text)
    for w in words:
        assert w in shown, w
    assert "—" not in shown.split("Pagador" if lang == "es" else "Payer")[0]
    assert f'href="/pagar?parcela={world.parcel_ids[0]}"' in receipt.text


@pytest.mark.parametrize(("lang", "processing", "paid"), [
    ("es", ("Cómo se está aplicando el pago", "Total en proceso"), "Total pagado"),
    ("en", ("How the payment is being applied", "Total in process"), "Total paid"),
])
def test_a_processing_bank_payment_is_not_called_paid(app, world, lang, processing,  # noqa: F811
                                                      paid):
    client = app.test_client()
    tok = sign_in_to_pay(client, lang=lang)
    url, receipt = pay_in_sandbox(client, tok, {f"choice-{world.key(1)}": "due_now"},
                                  outcome="bank_processing")
    shown = main_text(receipt.text)
    for w in processing:
        assert w in shown, w
    assert paid not in shown
    session_id = receipt.text.split("/pagos/prueba/", 1)[1].split("/banco", 1)[0]
    client.post(f"/pagos/prueba/{session_id}/banco", data={"csrf_token": tok,
                                                            "result": "settle"})
    assert paid in main_text(client.get(url).text)  # once the bank completes it
