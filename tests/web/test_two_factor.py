"""Two-factor sign-in: staff reach no staff page without the second step; the code, the
recovery codes, the enrolment with the QR code, the throttle and the audit records."""

from __future__ import annotations

import re
from datetime import timedelta

import pyotp
import pytest
from flask import Flask
from sqlalchemy import func, select

from portal import clock
from portal.demo.district import STAFF_TOTP_SECRET
from portal.people import two_factor as service
from tests.support.demo import parcel_ids
from tests.support.pages import (
    PASSWORD,
    csrf_token,
    login,
    password_only,
    second_step,
    totp_code,
)
from tests.support.routes import STAFF


def _uow(app: Flask):  # noqa: ANN202
    from portal.db import UnitOfWork
    from portal.web.data import database
    return UnitOfWork(database())


def _user(app: Flask, email: str):  # noqa: ANN202
    from portal.models import User
    with app.app_context(), _uow(app) as w:
        user = w.session.scalar(select(User).where(User.email == email))
        w.session.expunge(user)
        return user


def _update_user(app: Flask, email: str, **values) -> None:  # noqa: ANN003
    from portal.models import User
    with app.app_context(), _uow(app) as w:
        user = w.session.scalar(select(User).where(User.email == email))
        for k, v in values.items():
            setattr(user, k, v)


def _audit(app: Flask, action: str, email: str) -> list[dict]:
    from portal.models import AuditRecord
    uid = _user(app, email).id
    with app.app_context(), _uow(app) as w:
        return [r.after or {} for r in w.session.scalars(
            select(AuditRecord).where(AuditRecord.action == action,
                                      AuditRecord.actor_id == uid).order_by(AuditRecord.id))]


def _post_code(client, code: str, path: str = "/cuenta/verificar"):  # noqa: ANN001, ANN202
    page = client.get(path).get_data(as_text=True)
    return client.post(path, data={"csrf_token": csrf_token(page), "code": code})


def _wrong(secret: str) -> str:
    right = {pyotp.TOTP(secret).at(clock.now() + timedelta(seconds=30 * k))
             for k in (-1, 0, 1)}
    return next(c for c in ("000000", "111111", "222222", "333333") if c not in right)


def _staff_paths(app: Flask) -> list[str]:
    """Every staff route (test_access.STAFF) with a real parcel or person in it."""
    pid = parcel_ids(app)["owner"][0]
    paths = []
    gets = [r for r in app.url_map.iter_rules()
            if r.endpoint in STAFF and "GET" in (r.methods or ())]
    from portal.models import (
        CooperativeElection,
        ExemptionCertification,
        Job,
        Notice,
        NoticePrintFile,
        RollImport,
    )
    with app.app_context(), _uow(app) as w:  # a job the demo's roll recorded, if any
        job_id = w.session.scalar(select(func.min(Job.id)))
        # a filed residential-exemption certification, if any (the demo has none:
        # tests/web/test_exemption.py walks the review page with one)
        cert_id = w.session.scalar(select(func.min(ExemptionCertification.id)))
        # an uploaded roll file, if any (the demo has none: tests/web/test_roll_import.py
        # walks those pages with one)
        import_id = w.session.scalar(select(func.min(RollImport.id)))
        # a demand the demo queued or mailed (the collections pages open demands only)
        demand_id = w.session.scalar(select(func.min(Notice.id)).where(Notice.kind == "demand"))
        # a roll's print file of notices, if any (the demo has none: tests/web/
        # test_roll_notices_web.py opens one)
        file_id = w.session.scalar(select(func.min(NoticePrintFile.id)))
        # a cooperative's election, if any (the demo has none:
        # tests/web/test_coop_election_corrections.py opens one)
        election_id = w.session.scalar(select(func.min(CooperativeElection.id)))
    skipped = 0
    for rule in gets:
        if ("<id:job_id>" in rule.rule and job_id is None) or (
                "<id:import_id>" in rule.rule and import_id is None) or (
                "<id:cert_id>" in rule.rule and cert_id is None) or (
                "<id:file_id>" in rule.rule and file_id is None) or (
                "<id:election_id>" in rule.rule and election_id is None) or (
                "/diferencias" in rule.rule) or (  # an amendment's: test_roll_review.py
                rule.endpoint == "collections.print_file"):  # a day's copies: test_collections
            skipped += 1
            continue
        path = re.sub(r"<id:parcel_id>", str(pid), rule.rule)
        path = re.sub(r"<id:job_id>", str(job_id), path)
        path = re.sub(r"<id:import_id>", str(import_id), path)
        path = re.sub(r"<id:notice_id>", str(demand_id), path)
        name = "morosidad" if rule.rule.startswith("/personal/informes/") else "interest_rate"
        path = path.replace("<fy>", "2026-2027").replace("<name>", name)
        paths.append(re.sub(r"<id:[a-z_]+>", "1", path))
    assert len(paths) == len(gets) - skipped
    # and what staff open from there: another person's parcel, the lookup with a query
    return [*paths, "/personal/buscar?q=Calle", f"/propiedad/{pid}", "/mis-propiedades"]


def _signed_out_of_staff_pages(client, paths: list[str], to: str) -> None:  # noqa: ANN001
    for path in paths:
        r = client.get(path)
        assert r.status_code == 302 and to in r.headers["Location"], (path, r.status_code)


def test_no_staff_page_opens_with_the_password_only(demo_app):
    from portal.models import LedgerEntry
    client, went = password_only(demo_app)
    assert went.endswith("/cuenta/verificar")
    paths = _staff_paths(demo_app)
    _signed_out_of_staff_pages(client, paths, "/cuenta/entrar")  # not signed in at all
    token = csrf_token(client.get("/cuenta/verificar").get_data(as_text=True))
    with demo_app.app_context(), _uow(demo_app) as w:
        entries = w.session.scalar(select(func.count()).select_from(LedgerEntry))
    pid = parcel_ids(demo_app)["owner"][0]
    for path in (f"/personal/pagos/oficina/{pid}", f"/personal/pagos/reembolso/{pid}",
                 "/personal/persona/1/dos-pasos/restablecer"):
        r = client.post(path, data={"csrf_token": token, "amount": "10.00", "method": "cash",
                                    "reference": "x", "reason": "x", "checked": "y"})
        assert r.status_code == 302 and "/cuenta/entrar" in r.headers["Location"]
    with demo_app.app_context(), _uow(demo_app) as w:
        assert w.session.scalar(select(func.count()).select_from(LedgerEntry)) == entries
    assert second_step(client, STAFF_TOTP_SECRET).endswith("/mis-propiedades")
    for path in paths:
        assert client.get(path).status_code == 200, path


def test_a_signed_in_staff_session_without_the_second_step_is_sent_to_it(demo_app):
    """An owner made staff while signed in (a session without the second step): sent to
    enrol first, then (enrolled) to the second step, and only then the staff pages open."""
    client = login(demo_app, "owner")
    assert client.get("/mis-propiedades").status_code == 200
    _update_user(demo_app, "owner@demo.pr", is_staff=True)
    paths = _staff_paths(demo_app)
    _signed_out_of_staff_pages(client, paths, "/cuenta/dos-pasos/activar")
    secret = pyotp.random_base32()
    with demo_app.app_context(), _uow(demo_app) as w:
        from portal.models import User
        user = w.session.scalar(select(User).where(User.email == "owner@demo.pr"))
        service.enrol_with_secret(w, user, secret)
    _signed_out_of_staff_pages(client, paths, "/cuenta/verificar")
    r = client.get("/personal/buscar?q=Calle")
    assert r.headers["Location"].endswith("/cuenta/verificar?next=/personal/buscar?q%3DCalle")
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    r = client.post(r.headers["Location"], data={"csrf_token": csrf_token(page),
                                                 "code": totp_code(secret)})
    assert r.status_code == 303 and r.headers["Location"] == "/personal/buscar?q=Calle"
    for path in paths:
        assert client.get(path).status_code == 200, path


def test_the_right_code_signs_in_and_is_recorded(demo_app):
    client, _ = password_only(demo_app)
    assert client.get("/mis-propiedades").status_code == 302
    r = _post_code(client, totp_code(STAFF_TOTP_SECRET))
    assert r.status_code == 303 and r.headers["Location"].endswith("/mis-propiedades")
    assert client.get("/personal/buscar").status_code == 200
    (used,) = _audit(demo_app, service.USED, "staff@demo.pr")
    assert used["step"] == pyotp.TOTP(STAFF_TOTP_SECRET).timecode(clock.now())


def test_a_wrong_code_is_refused_and_counted(demo_app):
    client, _ = password_only(demo_app)
    r = _post_code(client, _wrong(STAFF_TOTP_SECRET))
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert "Ese código no es correcto. Le quedan 4 intentos antes de una pausa." in html
    assert 'aria-invalid="true"' in html
    assert client.get("/mis-propiedades").status_code == 302  # still not signed in
    assert _audit(demo_app, service.FAILED, "staff@demo.pr") == [{"kind": "totp"}]
    from portal.accounts import throttle
    uid = _user(demo_app, "staff@demo.pr").id
    with demo_app.app_context(), _uow(demo_app) as w:
        assert throttle.count(w, f"two_factor:user:{uid}", 900) == 1
    r = _post_code(client, "12ab")  # not even six digits: refused and counted too
    assert "Le quedan 3 intentos" in r.get_data(as_text=True)


def test_a_code_works_once(demo_app):
    client, _ = password_only(demo_app)
    code = totp_code(STAFF_TOTP_SECRET)
    assert _post_code(client, code).status_code == 303
    client.post("/cuenta/salir", data={"csrf_token": csrf_token(
        client.get("/mis-propiedades").get_data(as_text=True))})
    again, _ = password_only(demo_app)
    r = _post_code(again, code)  # the same step's code, seen again
    assert r.status_code == 200 and "no es correcto" in r.get_data(as_text=True)


def test_throttled_after_five_wrong_codes(demo_app):
    client, _ = password_only(demo_app)
    wrong = _wrong(STAFF_TOTP_SECRET)
    for left in (4, 3, 2, 1):
        r = _post_code(client, wrong, "/cuenta/verificar?lang=en")
        assert f"You have {left} more tr" in r.get_data(as_text=True)
    r = _post_code(client, wrong, "/cuenta/verificar?lang=en")
    assert r.status_code == 429
    assert re.search(r"Too many wrong codes\. Try again in (1[5-9]|2[0-9]|30) minutes\.",
                     r.get_data(as_text=True))  # a sliding window: 15 to 30 minutes
    right = totp_code(STAFF_TOTP_SECRET)
    r = _post_code(client, right)  # even the right code waits
    assert r.status_code == 429
    assert len(_audit(demo_app, service.FAILED, "staff@demo.pr")) == 5
    recovery = client.get("/cuenta/verificar").get_data(as_text=True)
    r = client.post("/cuenta/verificar", data={"csrf_token": csrf_token(recovery),
                                               "recovery_code": "abcde-23456"})
    assert r.status_code == 429
    # The count is a sliding window: one window on, the five failures still weigh enough.
    clock.set_fixed(clock.now() + service.FAILURE_WINDOW)
    client, _ = password_only(demo_app)
    assert _post_code(client, totp_code(STAFF_TOTP_SECRET)).status_code == 429
    clock.set_fixed(clock.now() + service.FAILURE_WINDOW)
    client, _ = password_only(demo_app)
    assert _post_code(client, totp_code(STAFF_TOTP_SECRET)).status_code == 303


def _enrol(client, email: str, lang: str = "es"):  # noqa: ANN001, ANN202
    """Enrol through the pages: (secret read from the page, the recovery codes shown)."""
    page = client.get(f"/cuenta/dos-pasos/activar?lang={lang}").get_data(as_text=True)
    secret = re.search(r'<code class="portal-secret" id="secret">([A-Z2-7 ]+)</code>',
                       page).group(1).replace(" ", "")
    from portal.web.people.two_factor import qr_svg
    uri = service.provisioning_uri(secret, email)
    assert f"secret={secret}" in uri and "otpauth://totp/" in uri
    assert str(qr_svg(uri)) in page  # the QR code carries that very secret
    assert 'role="img"' in page and 'aria-labelledby="qr-caption"' in page
    assert 'autocomplete="one-time-code"' in page and 'inputmode="numeric"' in page
    r = client.post("/cuenta/dos-pasos/activar", data={"csrf_token": csrf_token(page),
                                                       "code": totp_code(secret)})
    assert r.status_code == 200
    codes = re.findall(r"<li><code>([a-z0-9]{5}-[a-z0-9]{5})</code></li>", r.get_data(
        as_text=True))
    return secret, codes, r


def test_enrolment_with_the_qr_code_then_recovery_codes_work_once(demo_app):
    from portal.models.security import RecoveryCode
    client = login(demo_app, "owner")
    account = client.get("/cuenta").get_data(as_text=True)  # the account page offers it
    assert 'href="/cuenta/dos-pasos/activar"' in account
    assert "Activar la verificación en dos pasos" in account
    page = client.get("/cuenta/dos-pasos/activar").get_data(as_text=True)
    r = client.post("/cuenta/dos-pasos/activar", data={"csrf_token": csrf_token(page),
                                                       "code": "000000x"})
    assert r.status_code == 200 and _user(demo_app, "owner@demo.pr").totp_enabled_at is None
    secret, codes, r = _enrol(client, "owner@demo.pr")
    assert len(codes) == 10 == len(set(codes))
    assert "esta es la única vez que el portal los muestra" in r.get_data(as_text=True)
    owner = _user(demo_app, "owner@demo.pr")
    assert owner.totp_enabled_at is not None and owner.totp_secret == secret
    with demo_app.app_context(), _uow(demo_app) as w:
        hashes = list(w.session.scalars(select(RecoveryCode.code_hash)
                                        .where(RecoveryCode.user_id == owner.id)))
    assert len(hashes) == 10 and all(h.startswith("scrypt:") for h in hashes)
    assert not any(c.replace("-", "") in h or c in h for c in codes for h in hashes)
    assert _audit(demo_app, service.ENROLLED, "owner@demo.pr")[0]["recovery_codes"] == 10
    assert "/cuenta/dos-pasos" in client.get("/cuenta").get_data(as_text=True)

    # Now signing in asks for the second step; a recovery code does instead of the app.
    client, went = password_only(demo_app, "owner@demo.pr")
    assert went.endswith("/cuenta/verificar")
    page = client.get("/cuenta/verificar").get_data(as_text=True)
    r = client.post("/cuenta/verificar", data={"csrf_token": csrf_token(page),
                                               "recovery_code": codes[3].upper()})
    assert r.status_code == 303 and client.get("/mis-propiedades").status_code == 200
    assert _audit(demo_app, service.RECOVERY_USED, "owner@demo.pr")[0]["left"] == 9
    client, _ = password_only(demo_app, "owner@demo.pr")
    page = client.get("/cuenta/verificar").get_data(as_text=True)
    r = client.post("/cuenta/verificar", data={"csrf_token": csrf_token(page),
                                               "recovery_code": codes[3]})
    assert r.status_code == 200 and "no es correcto" in r.get_data(as_text=True)
    r = client.post("/cuenta/verificar", data={"csrf_token": csrf_token(page),
                                               "recovery_code": codes[4].replace("-", " ")})
    assert r.status_code == 303
    manage = client.get("/cuenta/dos-pasos").get_data(as_text=True)
    assert "Tiene 8 códigos de recuperación sin usar." in manage


def test_new_recovery_codes_and_turning_it_off_need_a_current_code(demo_app):
    client = login(demo_app, "owner")
    secret, codes, _ = _enrol(client, "owner@demo.pr", "en")
    page = client.get("/cuenta/dos-pasos").get_data(as_text=True)
    r = client.post("/cuenta/dos-pasos/desactivar", data={"csrf_token": csrf_token(page),
                                                         "off-code": _wrong(secret)})
    assert r.status_code == 400 and "Ese código no es correcto" in r.get_data(as_text=True)
    assert _user(demo_app, "owner@demo.pr").totp_enabled_at is not None
    r = client.post("/cuenta/dos-pasos/codigos", data={"csrf_token": csrf_token(page),
                                                      "codes-code": totp_code(secret)})
    new = re.findall(r"<li><code>([a-z0-9]{5}-[a-z0-9]{5})</code></li>", r.get_data(
        as_text=True))
    assert r.status_code == 200 and len(new) == 10 and not set(new) & set(codes)
    assert _audit(demo_app, service.REGENERATED, "owner@demo.pr") == [{"recovery_codes": 10}]
    with demo_app.app_context(), _uow(demo_app) as w:  # the old codes are gone
        assert not service.verify(w, _user(demo_app, "owner@demo.pr").id,
                                  recovery_code=codes[0]).ok
    r = client.post("/cuenta/dos-pasos/desactivar", data={"csrf_token": csrf_token(page),
                                                         "off-code": new[0]})
    assert r.status_code == 303
    owner = _user(demo_app, "owner@demo.pr")
    assert owner.totp_enabled_at is None and owner.totp_secret is None
    assert len(_audit(demo_app, service.DISABLED, "owner@demo.pr")) == 1
    client, went = password_only(demo_app, "owner@demo.pr")
    assert went.endswith("/mis-propiedades")  # the password alone again (not staff)


def test_staff_without_an_authenticator_enrol_while_signing_in(demo_app):
    _update_user(demo_app, "staff@demo.pr", totp_secret=None, totp_enabled_at=None)
    client, went = password_only(demo_app)
    assert went.endswith("/cuenta/dos-pasos/activar")
    assert client.get("/cuenta/verificar").headers["Location"].endswith(
        "/cuenta/dos-pasos/activar")
    _signed_out_of_staff_pages(client, _staff_paths(demo_app), "/cuenta/entrar")
    page = client.get("/cuenta/dos-pasos/activar").get_data(as_text=True)
    assert "Las cuentas del personal entran con verificación en dos pasos" in page
    _secret, codes, r = _enrol(client, "staff@demo.pr")
    assert len(codes) == 10
    assert 'href="/mis-propiedades"' in r.get_data(as_text=True)  # "continue"
    assert client.get("/personal/buscar").status_code == 200


def test_the_password_step_expires(demo_app):
    client, _ = password_only(demo_app)
    clock.set_fixed(clock.now() + timedelta(minutes=11))
    r = client.get("/cuenta/verificar")
    assert r.status_code == 302 and r.headers["Location"].endswith("/cuenta/entrar")


def test_a_new_password_ends_the_pending_step(demo_app):
    client, _ = password_only(demo_app)
    from portal.people import users
    with demo_app.app_context(), _uow(demo_app) as w:
        users.set_password(w, _user(demo_app, "staff@demo.pr").id, "otra frase bastante larga")
    r = client.get("/cuenta/verificar")
    assert r.status_code == 302 and r.headers["Location"].endswith("/cuenta/entrar")


def test_codes_one_step_either_side_are_accepted():
    secret = pyotp.random_base32()
    now = clock.now()
    totp = pyotp.TOTP(secret)
    step = totp.timecode(now)
    for k in (-1, 0, 1):
        assert service.matching_step(secret, totp.generate_otp(step + k), now) == step + k
    for k in (-2, 2):
        assert service.matching_step(secret, totp.generate_otp(step + k), now) is None
    assert service.matching_step(secret, "", now) is None
    assert service.matching_step(secret, "١٢٣٤٥٦", now) is None


def test_the_demo_staff_secret_is_documented(demo_app):
    from pathlib import Path
    assert demo_app.config["DEMO"].staff_totp_secret == STAFF_TOTP_SECRET
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert STAFF_TOTP_SECRET in readme


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_pages_are_valid_html(demo_app, tmp_path, lang):
    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing():
        pytest.skip(vnu_missing())
    pages = {}
    client, _ = password_only(demo_app, lang=lang)
    pages["verify"] = client.get(f"/cuenta/verificar?lang={lang}").get_data(as_text=True)
    r = _post_code(client, _wrong(STAFF_TOTP_SECRET), f"/cuenta/verificar?lang={lang}")
    pages["verify-error"] = r.get_data(as_text=True)
    owner = login(demo_app, "owner")
    mine = owner.get("/mis-propiedades").get_data(as_text=True)
    owner.post("/idioma", data={"csrf_token": csrf_token(mine), "lang": lang,
                                "next": "/"})
    pages["manage-off"] = owner.get("/cuenta/dos-pasos").get_data(as_text=True)
    pages["enrol"] = owner.get("/cuenta/dos-pasos/activar").get_data(as_text=True)
    _secret, _codes, r = _enrol(owner, "owner@demo.pr", lang)
    pages["codes"] = r.get_data(as_text=True)
    pages["manage-on"] = owner.get("/cuenta/dos-pasos").get_data(as_text=True)
    pages["dashboard"] = owner.get("/mis-propiedades").get_data(as_text=True)
    files = []
    for name, html in pages.items():
        assert f'<html lang="{lang}"' in html, name
        f = tmp_path / f"{name}-{lang}.html"
        f.write_text(html, encoding="utf-8")
        files.append(f)
    errors = vnu_errors(files)
    assert errors == [], "\n".join(errors)


def test_odd_input_is_refused_without_an_error(demo_app):
    from tests.support.hostile import QUICK
    odd = [*QUICK, " 123 456 ", "１２３４５６", "٣٤٥٦٧٨", "abcde-2345%", "-" * 11]
    # Each value is refused in one of three ways, in this order: a NUL byte before any view
    # (400); a value the form refuses (empty, or longer than the field takes) with its
    # message, not a try (the second step: 200, the settings: 400); a wrong code, a try: the
    # first MAX_FAILURES - 1 answer with the tries left, then the pause (429).
    client, _ = password_only(demo_app)
    tries = 0

    def expected(value: str, longest: int, refused: int) -> int:
        nonlocal tries
        if "\x00" in value:
            return 400
        if not value or len(value) > longest:
            return refused
        tries += 1
        return refused if tries < service.MAX_FAILURES else 429

    for value in odd:
        for field, longest in (("code", 20), ("recovery_code", 40)):
            page = client.get("/cuenta/verificar").get_data(as_text=True)
            r = client.post("/cuenta/verificar", data={"csrf_token": csrf_token(page),
                                                       field: value})
            assert r.status_code == expected(value, longest, 200), (field, value, r.status_code)
    assert client.get("/mis-propiedades").status_code == 302  # none of them signed in
    owner = login(demo_app, "owner")
    _enrol(owner, "owner@demo.pr")
    page = owner.get("/cuenta/dos-pasos").get_data(as_text=True)
    tries = 0  # the owner's own count
    for value in odd:
        for path, field in (("/cuenta/dos-pasos/codigos", "codes-code"),
                            ("/cuenta/dos-pasos/desactivar", "off-code")):
            r = owner.post(path, data={"csrf_token": csrf_token(page), field: value})
            assert r.status_code == expected(value, 40, 400), (path, value, r.status_code)
    assert _user(demo_app, "owner@demo.pr").totp_enabled_at is not None
    # A `next` that leaves the site is not followed after the second step (after the pause
    # the wrong codes above earned: two windows of the sliding count).
    clock.set_fixed(clock.now() + 2 * service.FAILURE_WINDOW)
    with demo_app.test_client() as fresh:
        page = fresh.get("/cuenta/entrar").get_data(as_text=True)
        fresh.post("/cuenta/entrar?next=//evil.example/", data={
            "csrf_token": csrf_token(page), "email": "staff@demo.pr", "password": PASSWORD})
        assert second_step(fresh, STAFF_TOTP_SECRET) == "/mis-propiedades"


def test_staff_turn_off_a_persons_two_factor_after_checking_who_they_are(demo_app):
    """The owner lost the phone and the recovery codes: staff reset it from the person's
    page, with a reason; the owner's sessions end, an email tells them, the audit keeps it."""
    from tests.support.pages import outbox
    owner = login(demo_app, "owner")
    _enrol(owner, "owner@demo.pr")
    uid = _user(demo_app, "owner@demo.pr").id
    staff = login(demo_app, "staff")
    page = staff.get(f"/personal/persona/{uid}?lang=en").get_data(as_text=True)
    assert "On since" in page and "Turn off their two-step verification" in page
    path = f"/personal/persona/{uid}/dos-pasos/restablecer"
    # No reason, or the identity not confirmed: refused with the error, nothing changed.
    for data in ({"reason": "", "checked": "y"}, {"reason": "ID checked at the office"}):
        r = staff.post(path, data={"csrf_token": csrf_token(page), **data})
        assert r.status_code == 400
        assert 'aria-invalid="true"' in r.get_data(as_text=True)
        assert re.search(r"<title>Error:", r.get_data(as_text=True))
        assert _user(demo_app, "owner@demo.pr").totp_enabled_at is not None
    sent_before = len(outbox(demo_app))
    r = staff.post(path, data={"csrf_token": csrf_token(page), "checked": "y",
                               "reason": "Licencia de conducir vista en la oficina"})
    assert r.status_code == 303
    person = _user(demo_app, "owner@demo.pr")
    assert person.totp_enabled_at is None and person.totp_secret is None
    assert owner.get("/mis-propiedades").status_code == 302  # signed out everywhere
    [record] = _audit(demo_app, service.RESET, "staff@demo.pr")
    assert record["reason"] == "Licencia de conducir vista en la oficina"
    assert len(outbox(demo_app)) == sent_before + 1
    # The owner signs in with the password alone again.
    again = login(demo_app, "owner")
    assert again.get("/mis-propiedades").status_code == 200
    # Resetting one's own is not a staff action (404), and twice says it is already off.
    me = _user(demo_app, "staff@demo.pr").id
    r = staff.post(f"/personal/persona/{me}/dos-pasos/restablecer",
                   data={"csrf_token": csrf_token(page), "checked": "y", "reason": "x"})
    assert r.status_code == 404
    assert _user(demo_app, "staff@demo.pr").totp_enabled_at is not None
    r = staff.post(path, data={"csrf_token": csrf_token(page), "checked": "y", "reason": "x"})
    assert r.status_code == 303 and len(_audit(demo_app, service.RESET, "staff@demo.pr")) == 1
