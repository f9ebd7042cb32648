"""The layers hold by themselves: emails, PDFs and the words work from plain Python (a command,
a worker) with no web framework loaded and no request; web code fetches by id only through
the access policy."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from decimal import Decimal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PLAIN = textwrap.dedent("""
    import json, sys
    from decimal import Decimal
    from email import message_from_bytes, policy
    from pathlib import Path

    from portal import i18n, mail, pdf

    out = {}
    for lang in ("es", "en"):
        subject, body = mail.render("confirm", lang, name="Ana", link="http://x/c")
        msg = mail.build("ana@example.pr", subject, body, lang,
                         {"MAIL_FROM": "Portal <no-reply@example.pr>"})
        folder = Path(sys.argv[1]) / lang
        mail.write_outbox(msg, folder)
        [eml] = folder.glob("*.eml")
        sent = message_from_bytes(eml.read_bytes(), policy=policy.default)
        with i18n.use_language(lang):
            doc = pdf.Document(
                title=i18n.gettext("District Assessments Portal"), subtitle="",
                facts=[(i18n.gettext("Parcel %(catastro)s", catastro="123"),
                        i18n.money(Decimal("1234.5")))],
                rows=[pdf.Row("Total", i18n.money(Decimal("1234.5")), strong=True)],
                table_head=(), table=[])
            footer = i18n.gettext("Page %(num)d of %(total)s", num=1, total=2)
        data = pdf.render(doc, lang)
        out[lang] = {"subject": sent["Subject"], "language": sent["Content-Language"],
                     "body": sent.get_content(), "pdf": data[:5].decode(),
                     "pdf_lang": ("/Lang (es-PR)" if b"(es-PR)" in data
                                  else "/Lang (en-US)" if b"(en-US)" in data else ""),
                     "footer": footer, "title": doc.title, "amount": doc.rows[0].amount}
    out["loaded"] = sorted({m.split(".")[0] for m in sys.modules})
    print(json.dumps(out))
""")

WEB_STACK = ("flask", "flask_babel", "flask_login", "flask_wtf", "werkzeug", "wtforms")


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("outbox")
    proc = subprocess.run([sys.executable, "-c", PLAIN, str(folder)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_an_email_is_rendered_and_written_in_each_language_without_flask(plain: dict):
    es, en = plain["es"], plain["en"]
    assert es["subject"] == "Confirme su correo electrónico para el Portal de Derramas del Distrito"
    assert en["subject"] == "Confirm your email for the District Assessments Portal"
    assert es["language"] == "es-PR" and en["language"] == "en-US"
    assert "Saludos, Ana:" in es["body"] and "Hello Ana," in en["body"]
    assert "http://x/c" in es["body"] and "http://x/c" in en["body"]


def test_a_pdf_is_rendered_in_each_language_without_flask(plain: dict):
    es, en = plain["es"], plain["en"]
    assert es["pdf"] == en["pdf"] == "%PDF-"
    assert es["pdf_lang"] == "/Lang (es-PR)" and en["pdf_lang"] == "/Lang (en-US)"
    assert es["footer"] == "Página 1 de 2" and en["footer"] == "Page 1 of 2"
    assert es["title"] == "Portal de Derramas del Distrito"
    assert en["title"] == "District Assessments Portal"
    assert es["amount"] == en["amount"] == "$1,234.50"


def test_no_web_framework_is_loaded_for_mail_pdf_and_words(plain: dict):
    assert not set(WEB_STACK) & set(plain["loaded"]), plain["loaded"]


def test_the_language_is_chosen_by_a_block_of_code_and_restored():
    from portal import i18n
    assert i18n.current_language() == "es"
    with i18n.use_language("en"):
        assert i18n.current_language() == "en"
        assert i18n.money(Decimal("-1234567.89")) == "-$1,234,567.89"
        with i18n.use_language("xx"):  # an unknown language is Spanish
            assert i18n.current_language() == "es"
        assert i18n.gettext("today") == "today"
    assert i18n.current_language() == "es"
    assert i18n.gettext("today") == "hoy"


# --- one door to data ---------------------------------------------------------------------

#: Ways of loading a row by its id alone: Session.get, or a query filtered on a model's id.
BY_ID = re.compile(r"\.session\.get\(|\bselect\([A-Z]\w*\)\.where\([A-Z]\w*\.id ==|"
                   r"\.filter_by\(id=")


def test_web_code_fetches_by_id_only_through_the_access_policy():
    found = []
    for path in sorted((ROOT / "portal" / "web").rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if BY_ID.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == [], "use portal.accounts.access: " + "; ".join(found)


# --- passwords without the web stack --------------------------------------------------------

def test_password_hashes_are_werkzeugs_format_both_ways():
    from werkzeug.security import check_password_hash, generate_password_hash

    from portal import passwords
    ours = passwords.hash_password("Distrito2026!")
    assert ours.startswith("scrypt:32768:8:1$")
    assert check_password_hash(ours, "Distrito2026!")
    theirs = generate_password_hash("Distrito2026!")
    assert passwords.check_password(theirs, "Distrito2026!")
    assert not passwords.check_password(theirs, "distrito2026!")
    assert passwords.check_password(generate_password_hash("x", method="pbkdf2:sha256:1000"),
                                    "x")
    assert not passwords.check_password("not a hash", "x")
