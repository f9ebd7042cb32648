"""A screenshot of each main page, in Spanish and English, at 375 and 1,280 px, for review.

    .venv/bin/python scripts/screenshots.py [--out DIR]   (or `make screenshots`)

Builds a throwaway demo District (a migrated SQLite file in a temporary folder, the clock on
the demo's day, 30 November 2026), serves it on a free port and opens each page in
Debian's Chromium (Playwright; `CHROMIUM_PATH` to use another), signed in as the demo's
owner, lessee and lender. Writes `<out>/<lang>-<width>-<page>.png` (whole pages; `<out>`
is `instance/screenshots/` by default, not committed) and prints each file's name. The
pages: home, sign-in, the sign-in form with its errors, the dashboard, each of the owner's
parcels, the pay page, its review, a payment's receipt, the payment history, the leases and
a leased parcel, the lender's loans and a loan, the staff's demands and a demand (the lender
and staff through the second step, with the demo's authenticator secret).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import threading
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WIDTHS = (375, 1280)
LANGS = ("es", "en")
PASSWORD = "Distrito2026!"
DAY = date(2026, 11, 30)


def build_app(folder: Path):  # noqa: ANN201
    """The demo District in `folder`, and the app serving it."""
    from portal import (
        clock,
        domains,  # noqa: F401 - the demo queues demands: their letters' renderer
    )
    from portal.app import create_app
    from portal.db import Database, upgrade
    from portal.demo import district
    clock.set_fixed(DAY)
    url = f"sqlite:///{folder / 'portal.db'}"
    upgrade(url, "head")
    database = Database(url)
    district.load(database)
    database.dispose()
    return create_app({"SECRET_KEY": "screenshots", "DATABASE_URL": url,
                       "INSTANCE_PATH": str(folder / "instance"),
                       "OUTBOX_DIR": str(folder / "outbox"), "MAIL_SERVER": None,
                       "RATELIMIT_ENABLED": False})


def totp_code() -> str:
    """The demo's authenticator code on the portal's fixed clock, moved on 30 seconds first:
    a code is accepted once, and the clock is the script's (the codes follow it)."""
    from datetime import timedelta

    import pyotp

    from portal import clock
    from portal.demo.district import STAFF_TOTP_SECRET
    clock.set_fixed(clock.now() + timedelta(seconds=30))
    return pyotp.TOTP(STAFF_TOTP_SECRET).at(clock.now())


class Server:
    def __init__(self, app):  # noqa: ANN001
        from werkzeug.serving import WSGIRequestHandler, make_server

        class Quiet(WSGIRequestHandler):
            def log_request(self, *args) -> None:  # noqa: ANN002
                pass

        self.httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        app.config["PORTAL_BASE_URL"] = self.url
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:  # noqa: ANN002
        self.httpd.shutdown()
        self.thread.join(5)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "home"


class Shooter:
    def __init__(self, browser, url: str, out: Path, lang: str, width: int):  # noqa: ANN001
        self.url, self.out, self.lang, self.width = url, out, lang, width
        self.context = browser.new_context(viewport={"width": width, "height": 900},
                                           locale="es-PR" if lang == "es" else "en-US")
        self.page = self.context.new_page()
        self.page.set_default_timeout(15000)

    def shot(self, name: str, path: str | None = None) -> None:
        if path is not None:
            sep = "&" if "?" in path else "?"
            self.page.goto(f"{self.url}{path}{sep}lang={self.lang}")
        file = self.out / f"{self.lang}-{self.width}-{slug(name)}.png"
        self.page.screenshot(path=str(file), full_page=True)
        print(file.relative_to(self.out.parent) if self.out.is_relative_to(ROOT) else file)

    def sign_in(self, email: str) -> None:
        p = self.page
        p.context.clear_cookies()
        p.goto(f"{self.url}/cuenta/entrar?lang={self.lang}")
        p.locator("#email").fill(email)
        p.locator("#password").fill(PASSWORD)
        p.locator("main form [type=submit]").first.click()
        p.wait_for_url(lambda url: "/cuenta/entrar" not in url)  # where each role starts
        if "/cuenta/verificar" in p.url:  # the second step (the demo's staff and lender)
            p.locator("#code").fill(totp_code())
            p.locator("#code").press("Enter")
            p.wait_for_url(lambda url: "/cuenta/verificar" not in url)

    def links(self, prefix: str) -> list[str]:
        hrefs = self.page.eval_on_selector_all(
            "main a[href]", "els => els.map(e => e.getAttribute('href'))")
        seen: list[str] = []
        for h in hrefs:
            h = h.split("?")[0]
            if re.fullmatch(prefix, h) and h not in seen:
                seen.append(h)
        return seen

    def run(self) -> None:
        p = self.page
        self.shot("home", "/")
        self.shot("sign-in", "/cuenta/entrar")
        p.locator("#email").fill("no-such-address")
        p.locator("main form [type=submit]").first.click()
        p.wait_for_load_state()
        self.shot("sign-in-errors")
        self.sign_in("owner@demo.pr")
        self.shot("dashboard", "/mis-propiedades")
        parcels = self.links(r"/propiedad/\d+")
        for k, path in enumerate(parcels, 1):
            self.shot(f"parcel-{k}", path)
        if parcels:  # the first one again with its long details (schedule, budget) open
            p.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
            self.shot(f"parcel-{len(parcels)}-open")
        self.shot("pay", "/pagar")
        p.locator("main form.usa-form [type=submit]").last.click()
        p.wait_for_load_state()
        self.shot("pay-review")
        if parcels:
            self.shot("history", parcels[0] + "/pagos")
            self.first("receipt", r"/pagos/(pago/)?\d+/recibo")
        for email, (name, path), first in (
                ("lessee@demo.pr", ("leases", "/arrendamientos/"),
                 ("leased-parcel", r"/propiedad/\d+")),
                ("lender@demo.pr", ("loans", "/prestamista/prestamos"),
                 ("loan", r"/prestamista/prestamos/\d+")),
                ("staff@demo.pr", ("collections", "/personal/cobros"),
                 ("demand", r"/personal/cobros/\d+"))):
            self.sign_in(email)
            self.shot(name, path)
            self.first(*first)

    def first(self, name: str, prefix: str) -> None:
        """The page of the first link of the page shown that `prefix` matches, if any."""
        found = self.links(prefix)
        if found:
            self.shot(name, found[0])

    def close(self) -> None:
        self.context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "instance" / "screenshots"),
                        help="folder for the PNG files (default: instance/screenshots/)")
    parser.add_argument("--width", type=int, action="append",
                        help="only these widths (repeat; default 375 and 1280)")
    parser.add_argument("--lang", action="append", choices=LANGS,
                        help="only these languages (repeat; default both)")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    from portal.db import reset_databases
    folder = Path(tempfile.mkdtemp(prefix="portal-shots-"))
    try:
        app = build_app(folder)
        with Server(app) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            for lang in args.lang or LANGS:
                for width in args.width or WIDTHS:
                    shooter = Shooter(browser, server.url, out, lang, width)
                    try:
                        shooter.run()
                    finally:
                        shooter.close()
            browser.close()
    finally:
        reset_databases()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
