"""Hostile input, sent by a `Probe`: odd values for fields, ids and tokens, the app's error
log read for the cause of a 500, the guarded tables' fingerprint to see that refused input
changed nothing. The fixture `error_log` (tests/web/conftest.py) holds an ErrorLog."""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import traceback
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from .pages import csrf_token, login

#: Odd values for any text field or query parameter.
VALUES = [
    "", " ", "x" * 100_000, "\x00", "a\x00b", "\u202e\u200b\ufeff", "😀👩‍👩‍👧", "\r\nX-Evil: 1",
    "/a\r\nX-Evil: 1", "/a\nb",
    "sNaN", "NaN", "-nan", "Infinity", "-Infinity", "-0", "0", "-1", "1e999999", "1E-999999",
    "0x10", " 12.345 ", "1,234.56", "1.234,56", "1,2,3", "12.", ".5", "$5", "5$", "1_000",
    "٣٤", "²", "１２", "1" * 30, "9" * 27 + ".999", "1" * 5000, "99999999999999999999",
    "9223372036854775808", "18446744073709551616", "<script>alert(1)</script>",
    "' OR 1=1 --", "%", "_", "%s%n{0}", "../../etc/passwd", "//[", "http://[::1",
    "//evil.example/", "/\\evil", "javascript:alert(1)",
]
#: A few of them, for the pages that are slow to show (a portfolio of many parcels).
QUICK = ["", "x" * 100_000, "\x00", "😀", "sNaN", "Infinity", "-1", "0", "0x10", "1,2",
         "٣", "1" * 30, "1" * 5000, "9223372036854775808", "//["]
#: Odd path segments for ids.
IDS = ["0", "-1", "2147483648", "9223372036854775807", "9223372036854775808",
       "99999999999999999999", "1" * 5000, "abc", "1.5", "1e3", "0x10", "%00", "٣", "１"]
#: Odd path segments for tokens and session ids.
TOKENS = ["x", "%00", "a" * 5000, "..%2F..", "😀", "%ff%fe", "eyJ1IjoxfQ.AAAA.BBBB",
          "cs_sandbox_%00", "null", "0"]
#: Odd money, for amount fields and the reviewed total.
AMOUNTS = [v for v in VALUES if len(v) < 6000] + [
    "1" * 27, "1" * 26 + ".5", "1" * 26 + ".001", "0.001", "1.000", "1.005", "-0.00",
    "0.00", "1e3", "1E+2", "+5", "--5", "5-", "- 5", "\u00a05", "5\u00a0000"]

#: The tables bad input must never change (claim attempts are recorded on purpose).
GUARDED = ("users", "parcel_links", "checkouts", "checkout_payments", "payments",
           "payment_allocations", "ledger_entries", "payment_refunds", "sandbox_sessions",
           "access_codes", "attachment_accruals")


#: Amounts that are odd but mean one amount, and are taken as such (a "$" or a no-break
#: space is dropped, "12." is 12.00, "1.000" is 1.00): not refused.
LEGIT_AMOUNTS = {"1,234.56", "12.", ".5", "$5", "5$", "1.000", "\u00a05", "5\u00a0000"}


# --- the harness ---------------------------------------------------------------------------

class ErrorLog(logging.Handler):
    """The exceptions the app's error handler logs (portal.web.errors, `log.exception`)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def cause(records: list[logging.LogRecord]) -> str:
    """The exception and the last frames of the portal's code that raised it."""
    for rec in reversed(records):
        if rec.exc_info and rec.exc_info[1] is not None:
            exc = rec.exc_info[1]
            frames = traceback.extract_tb(exc.__traceback__)
            ours = [f for f in frames if "/portal/" in f.filename] or frames
            where = " < ".join(f"{f.filename.rsplit('/main/', 1)[-1]}:{f.lineno} ({f.name})"
                               for f in reversed(ours[-3:]))
            return f"{type(exc).__name__}: {str(exc)[:100]!r} at {where}"
    return "(no exception logged)"


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 60 else f"{text[:45]}...({len(text)} chars)"


def fingerprint(app: Flask) -> dict[str, str]:
    """{table: a hash of its rows}, for the guarded tables (SQLite; {} on PostgreSQL)."""
    if not app.config["DATABASE_URL"].startswith("sqlite:///"):
        return dict.fromkeys(GUARDED, "")
    path = app.config["DATABASE_URL"].removeprefix("sqlite:///")
    out = {}
    con = sqlite3.connect(path)
    try:
        for table in GUARDED:
            h = hashlib.sha256()
            for row in con.execute(f"SELECT * FROM {table} ORDER BY 1"):  # noqa: S608
                h.update(repr(row).encode())
            out[table] = h.hexdigest()
    finally:
        con.close()
    return out


class Probe:
    """One client (a role) sending requests. Every problem is kept (not raised at once, so
    one run names them all): a 500 with its cause, odd input accepted, data changed."""

    def __init__(self, app: Flask, role: str, log: ErrorLog) -> None:
        self.app, self.role, self.log = app, role, log
        self.client: FlaskClient = app.test_client() if role == "anonymous" \
            else login(app, role)
        self.problems: list[str] = []
        self.token = csrf_token(self.client.get("/cuenta/olvide" if role == "anonymous"
                                                else "/").get_data(as_text=True))
        self._before = fingerprint(app)

    def send(self, method: str, path: str, note: str = "", **kw: Any):  # noqa: ANN201
        self.log.records.clear()
        r = self.client.open(path, method=method, **kw)
        if r.status_code >= 500 and r.status_code != 503:  # (503: the provider is down)
            self.problems.append(f"{self.role} {method} {short(path)} {note} -> "
                                 f"{r.status_code}: {cause(self.log.records)}")
        return r

    def get(self, path: str, note: str = "", **kw: Any):  # noqa: ANN201
        return self.send("GET", path, note, **kw)

    def post(self, path: str, data: Any, note: str = "", **kw: Any):  # noqa: ANN201
        return self.send("POST", path, note, data=data, **kw)

    def expect(self, ok: bool, what: str) -> None:
        if not ok:
            self.problems.append(f"{self.role}: {what}")

    def form(self, path: str, base: dict[str, str], values: list[str] = VALUES,  # noqa: B006
             fields: list[str] | None = None, refused: Any = None) -> None:
        """POST `base` with each field in turn set to each odd value, left out, sent twice
        and as an array. `refused(response)` says whether an answer refused the input; odd
        values must be refused (unless in LEGIT_AMOUNTS), one with a NUL byte with a 400."""
        for name in fields or list(base):
            for value in values:
                r = self.post(path, {"csrf_token": self.token, **base, name: value},
                              f"{name}={short(value)}")
                if refused is not None and value not in LEGIT_AMOUNTS \
                        and r.status_code < 500:
                    # (a NUL byte anywhere in a request is the portal's plain 400, before
                    # any view)
                    ok = r.status_code == 400 if "\x00" in value else refused(r)
                    self.expect(ok, f"POST {path} {name}={short(value)} accepted "
                                    f"({r.status_code} {r.headers.get('Location')})")
            rest = {k: v for k, v in base.items() if k != name}
            self.post(path, {"csrf_token": self.token, **rest}, f"{name} missing")
            for pair in (["", base[name]], ["sNaN", base[name]], [base[name], "\x00"]):
                data = MultiDict([("csrf_token", self.token), *rest.items(),
                                  *((name, v) for v in pair)])
                self.post(path, data, f"{name} twice {pair!r}")
            self.post(path, {"csrf_token": self.token, **rest, f"{name}[]": "1"},
                      f"{name}[] array")

    def csrf(self, path: str, base: dict[str, str]) -> None:
        """Without a token, with odd tokens, with two: refused, never a 500."""
        for tok in (None, "", "\x00", "x" * 100_000, "😀", self.token + "x"):
            data = dict(base) if tok is None else {"csrf_token": tok, **base}
            r = self.post(path, data, f"csrf_token={short(tok)}")
            self.expect(r.status_code == 400,  # no valid token: refused
                        f"POST {path} csrf_token={short(tok)} -> {r.status_code}")
        self.post(path, MultiDict([("csrf_token", "bad"), ("csrf_token", self.token),
                                   *base.items()]), "csrf_token twice")

    def unchanged(self, what: str = "") -> None:
        """The guarded tables are as they were when the probe started (or last checked)."""
        now = fingerprint(self.app)
        changed = [t for t in GUARDED if now[t] != self._before[t]]
        self.expect(not changed, f"bad input changed {changed} {what}")
        self._before = now

    def report(self, *others: Probe) -> None:
        problems = list(dict.fromkeys(self.problems + [x for o in others for x in o.problems]))
        assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
