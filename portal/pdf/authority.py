"""The issuing Authority's name, address and contact, as dated data (`authority.toml`)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path

FILE = Path(__file__).with_name("authority.toml")


@dataclass(frozen=True)
class Issuer:
    name: str
    address: tuple[str, ...]
    phone: str
    email: str
    web: str
    hours: str
    illustrative: bool
    start: date


@cache
def _load(path: Path = FILE) -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


def phone(on: date) -> str:
    """The Authority's telephone on `on`: the one number pages, emails and PDFs give
    (this file is the one place for the Authority's contact details)."""
    return issuer(on, "es").phone


def issuer(on: date, lang: str) -> Issuer:
    """The Authority as it is named on `on`, in `lang`; a day before the first issuer's
    start is an error (never a silent guess)."""
    data = _load()
    versions = sorted(data["issuer"], key=lambda v: v["start"])
    current = [v for v in versions if v["start"] <= on]
    if not current:
        raise LookupError(f"no issuing Authority in {FILE.name} on {on.isoformat()}")
    v = current[-1]
    lang = lang if lang in v["name"] else "es"
    return Issuer(name=v["name"][lang], address=tuple(v["address"]), phone=v["phone"],
                  email=v["email"], web=v["web"], hours=v["hours"][lang],
                  illustrative=bool(data.get("illustrative", True)), start=v["start"])
