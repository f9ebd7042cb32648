"""one parser per kind of input. Every form's date field reads the date
through `portal.date_input` (`portal.web.date_field.TypedDateField`): the ISO form in either
language and the reader's own (30/11/2026 in Spanish, 11/30/2026 in English); the other
order is refused with the reader's example and its order in words, and nothing is kept."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import func, select

from portal.models import DebtCertificate
from tests.support.demo import app_uow, parcel_ids
from tests.support.pages import csrf_token, error_messages, login

#: (language, the reader's own form of 10 December 2026, the other order, the refusal).
FORMS = [
    ("es", "10/12/2026", "12/10/2026",
     "Escriba la fecha como 30/11/2026 (día, mes y año), o como AAAA-MM-DD."),
    ("en", "12/10/2026", "10/12/2026",
     "Write the date as 11/30/2026 (month, day and year), or as YYYY-MM-DD."),
]


def _certificates(app) -> list[date]:  # noqa: ANN001
    with app_uow(app) as w:
        return list(w.session.scalars(select(DebtCertificate.good_through)
                                      .order_by(DebtCertificate.id)))


@pytest.mark.parametrize(("lang", "own", "other", "refusal"), FORMS)
def test_a_certificate_date_in_the_readers_own_form(demo_app, lang, own, other, refusal):
    client = login(demo_app, "owner")
    pid = parcel_ids(demo_app)["owner"][0]
    url = f"/propiedad/{pid}/certificados?lang={lang}"
    token = csrf_token(client.get(url).get_data(as_text=True))
    before = _certificates(demo_app)
    # The other order is another day (12 October), read as the reader writes: before today.
    r = client.post(url, data={"csrf_token": token, "good_through": other})
    assert r.status_code == 400
    assert _certificates(demo_app) == before
    r = client.post(url, data={"csrf_token": token, "good_through": own})
    assert r.status_code == 303, error_messages(r.get_data(as_text=True))
    assert _certificates(demo_app)[len(before):] == [date(2026, 12, 10)]
    day_first = "31/12/2026" if lang == "en" else "12/31/2026"
    r = client.post(url, data={"csrf_token": token, "good_through": day_first})
    assert r.status_code == 400
    assert refusal in error_messages(r.get_data(as_text=True))


@pytest.mark.parametrize(("lang", "own", "other", "refusal"), FORMS)
def test_the_audit_log_filter_reads_the_readers_own_form(demo_app, lang, own, other, refusal):
    staff = login(demo_app, "staff")
    ok = staff.get(f"/personal/auditoria?lang={lang}&since={own}")
    assert ok.status_code == 200
    assert 'id="error-summary"' not in ok.get_data(as_text=True)
    day_first = "31/12/2026" if lang == "en" else "12/31/2026"
    bad = staff.get(f"/personal/auditoria?lang={lang}&since={day_first}")
    assert bad.status_code == 400
    assert refusal in error_messages(bad.get_data(as_text=True))


def test_no_certificate_is_kept_for_a_refused_date(demo_app):
    client = login(demo_app, "owner")
    pid = parcel_ids(demo_app)["owner"][0]
    url = f"/propiedad/{pid}/certificados"
    token = csrf_token(client.get(url).get_data(as_text=True))
    with app_uow(demo_app) as w:
        before = w.session.scalar(select(func.count()).select_from(DebtCertificate))
    for typed in ("31/12/2026x", "２０２６-１２-１０", "2026-12-10\x00", "10/12/26"):
        r = client.post(url, data={"csrf_token": token, "good_through": typed})
        assert r.status_code == 400, typed
    with app_uow(demo_app) as w:
        assert w.session.scalar(select(func.count()).select_from(DebtCertificate)) == before
