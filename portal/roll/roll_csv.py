"""The parcel roll's CSV file, read and checked row by row (R-A2, R-A3,
R-A16). Pure: the standard library, the one parser of a typed yes or no
(`portal.yes_no_input`) and of an amount (`portal.money_input`), no database, no Flask.

The dollar columns are read as every amount is (`money_input.parse`: "1.500,00" or "1e9" is
refused with its reason, never read as $1.50); the file's other numbers use a period for
decimals and its dates are ISO (YYYY-MM-DD): a fixed machine format, not the typed dates of
the forms (`portal.date_input` reads 1/5/2026 by the reader's language; a file means the same
whoever uploads it).

- `sniff(path)`: the file's encoding (UTF-8 with or without BOM, else Windows-1252: a strict
  UTF-8 decode of the whole file, streamed, decides), its delimiter (comma or semicolon, from
  the header line), its SHA-256, its size and about how many rows it has; `FileProblem` for
  a file that is not a CSV of the roll (binary, empty, columns missing or unknown).
- `read(path, fmt)`: an iterator of `Row` (row number, the parsed `ParcelRow` or None, its
  `RowError`s), one record at a time: a file of any size is never a list in memory.

Each error names the row (the header is row 1, as a spreadsheet counts), the column (as the
file's header spells it), the value and a reason: a message id (`CODES`) with its figures,
worded in the reader's language by the web layer. The columns: `COLUMNS`, docs/ROLL_IMPORT.md.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from portal import money_input, yes_no_input

#: Bytes read at a time while sniffing.
CHUNK = 1 << 20
#: A value longer than this is cut in the report (the report is for reading, not a copy).
VALUE_SHOWN = 120


@dataclass(frozen=True)
class Column:
    key: str  # the field
    es: str  # the header in Spanish (the template's, by default)
    en: str  # the header in English
    required: bool = False


#: The file's columns, in the template's order. A header may use either language's names
#: (case and accents as typed are forgiven: `normal`); every column must be there, in any order.
COLUMNS: tuple[Column, ...] = (
    Column("catastro", "catastro", "catastro", True),
    Column("address", "direccion", "address", True),
    Column("municipality", "municipio", "municipality", True),
    Column("zone", "zona", "zone", True),
    Column("land_area_cuerdas", "cuerdas", "area_cuerdas", True),
    Column("land_valuation", "valor_terreno", "land_valuation", True),
    Column("structure_valuation", "valor_estructuras", "structure_valuation", True),
    Column("owner_kind", "tipo_dueno", "owner_kind", True),
    Column("transferred", "transferida", "transferred"),
    Column("tax_incentive_exempt", "exenta_por_incentivos", "incentive_exempt"),
    Column("benefit_units", "unidades_beneficio", "benefit_units", True),
    Column("owner_names", "duenos", "owner_names"),
    Column("owner_emails", "correos_duenos", "owner_emails"),
    Column("owner_shares", "participaciones", "owner_shares"),
    Column("lessee_name", "arrendatario", "lessee_name"),
    Column("lessee_email", "correo_arrendatario", "lessee_email"),
    Column("lessee_pays", "arrendatario_paga", "lessee_pays"),
    Column("lease_contract", "contrato", "lease_contract"),
    Column("lease_starts", "arrendamiento_desde", "lease_starts"),
    Column("lease_ends", "arrendamiento_hasta", "lease_ends"),
)
BY_KEY = {c.key: c for c in COLUMNS}

ZONES = {"urbana": "urban", "urban": "urban", "suburbana": "suburban", "suburban": "suburban",
         "rural": "rural"}
OWNER_KINDS = {"privado": "private", "privada": "private", "private": "private",
               "autoridad": "authority", "authority": "authority",
               "publico": "public", "publica": "public", "public": "public"}
#: Puerto Rico's 78 municipalities, as the roll stores them; a row's is matched without
#: regard to case or accents ("mayaguez" is Mayagüez).
MUNICIPALITIES = (
    "Adjuntas", "Aguada", "Aguadilla", "Aguas Buenas", "Aibonito", "Añasco", "Arecibo",
    "Arroyo", "Barceloneta", "Barranquitas", "Bayamón", "Cabo Rojo", "Caguas", "Camuy",
    "Canóvanas", "Carolina", "Cataño", "Cayey", "Ceiba", "Ciales", "Cidra", "Coamo", "Comerío",
    "Corozal", "Culebra", "Dorado", "Fajardo", "Florida", "Guánica", "Guayama", "Guayanilla",
    "Guaynabo", "Gurabo", "Hatillo", "Hormigueros", "Humacao", "Isabela", "Jayuya",
    "Juana Díaz", "Juncos", "Lajas", "Lares", "Las Marías", "Las Piedras", "Loíza", "Luquillo",
    "Manatí", "Maricao", "Maunabo", "Mayagüez", "Moca", "Morovis", "Naguabo", "Naranjito",
    "Orocovis", "Patillas", "Peñuelas", "Ponce", "Quebradillas", "Rincón", "Río Grande",
    "Sabana Grande", "Salinas", "San Germán", "San Juan", "San Lorenzo", "San Sebastián",
    "Santa Isabel", "Toa Alta", "Toa Baja", "Trujillo Alto", "Utuado", "Vega Alta",
    "Vega Baja", "Vieques", "Villalba", "Yabucoa", "Yauco",
)
#: Several owners in one cell are separated by this (names, emails and shares alike).
SEPARATOR = "|"

#: Limits of the stored columns (portal/models/parcels.py, parties.py).
MAX_TEXT = {"address": 300, "municipality": 60, "owner_names": 200, "lessee_name": 200,
            "lease_contract": 40, "owner_emails": 254, "lessee_email": 254}
#: (digits before the point, decimals) of each number column.
NUMBERS = {"land_area_cuerdas": (6, 6), "land_valuation": (12, 2),
           "structure_valuation": (12, 2), "benefit_units": (10, 4)}
#: The columns of dollars, read by the one parser of an amount (`portal.money_input`).
MONEY = frozenset({"land_valuation", "structure_valuation"})

#: Every reason a row or a file is refused (message ids; portal/web/staff/roll_import.py
#: words them in both languages).
CODES = (
    "required", "too_long", "not_a_number", "negative", "too_many_decimals", "too_large",
    "not_a_municipality", "not_a_zone", "not_an_owner_kind", "not_yes_no", "bad_catastro",
    "bad_email", "exponent", "other_separators",
    "bad_date", "dates_reversed", "owners_mismatch", "bad_share", "shares_sum",
    "lease_without_lessee", "lessee_without_start", "wrong_column_count", "duplicate",
)
FILE_CODES = ("empty", "not_text", "missing_columns", "unknown_columns", "repeated_columns",
              "file_changed")

_CATASTRO = re.compile(r"^\d{3}-\d{3}-\d{3}-\d{2}$")
_EMAIL = re.compile(r"^[^@\s|;,]+@[^@\s|;,]+\.[^@\s|;,]+$")
_NUMBER = re.compile(r"^[+-]?(\d+|\d{1,3}(,\d{3})+)?(\.\d+)?$")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_SPACES = re.compile(r"[\s\-]+")
_GROUPS = re.compile(r"[\s\-\u2010-\u2015.]+")
_ACCENTS = str.maketrans("áéíóúüñ", "aeiouun")
#: Distinct cell values remembered by the reader's pure helpers (most cells of a roll repeat:
#: zones, kinds, yes/no, valuations): a row is checked without redoing their work.
REMEMBERED = 65536


@lru_cache(maxsize=REMEMBERED)
def normal(text: str) -> str:
    """A header or a choice as compared: lower case, no accents, spaces and dashes as `_`."""
    t = (text or "").strip().lower()
    t = t.translate(_ACCENTS)
    return _SPACES.sub("_", t)


def normalise_catastro(text: str) -> str:
    """Groups joined by dashes ("040 012 345 67" and "04001234567" are "040-012-345-67"), as
    `accounts.parcels.normalise_catastro` stores it (the same rule, kept pure here)."""
    groups = [g for g in _GROUPS.split((text or "").strip()) if g]
    if len(groups) == 1 and groups[0].isdigit() and len(groups[0]) == 11:
        d = groups[0]
        groups = [d[:3], d[3:6], d[6:9], d[9:]]
    return "-".join(groups).upper()


class FileProblem(Exception):
    """The file as a whole cannot be read as the roll: `code` (FILE_CODES) and figures."""

    def __init__(self, code: str, **params: Any):
        super().__init__(code)
        self.code, self.params = code, params


@dataclass(frozen=True)
class FileFormat:
    encoding: str  # "utf-8-sig" (with or without a BOM) or "cp1252"
    delimiter: str  # "," or ";"
    bom: bool
    sha256: str
    size: int
    rows: int  # data rows, about (lines less the header; a quoted line break counts twice)


@dataclass(frozen=True)
class RowError:
    row: int
    column: str
    value: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)


class Owner(NamedTuple):
    name: str
    email: str | None
    share: str  # a decimal as text, 0 < share <= 1


class LeaseRow(NamedTuple):
    lessee_name: str
    lessee_email: str | None
    lessee_pays: bool
    contract: str | None
    starts_on: str  # ISO date
    ends_on: str | None


class ParcelRow(NamedTuple):
    """One parcel as the file gives it, checked and normalised (numbers as text, quantized
    to the stored scale, so two reads of the same file give equal rows). A named tuple, as
    are its owners and lease: one is built per row of the file, and again per staged row by
    the import (a tenth of the cost of a frozen dataclass's `__init__`)."""

    catastro: str
    address: str
    municipality: str
    zone: str
    land_area_cuerdas: str
    land_valuation: str
    structure_valuation: str
    owner_kind: str
    transferred: bool
    tax_incentive_exempt: bool
    benefit_units: str
    owners: tuple[Owner, ...] = ()
    lease: LeaseRow | None = None

    #: The parcel's own columns (what a re-import compares and updates).
    FACTS = ("address", "municipality", "zone", "land_area_cuerdas", "land_valuation",
             "structure_valuation", "owner_kind", "transferred", "tax_incentive_exempt",
             "benefit_units")

    def facts(self) -> dict[str, Any]:
        """The parcel's columns as stored (Decimals for numbers)."""
        (_, address, municipality, zone, area, land, structure, kind, transferred,
         incentive, units) = self[:11]
        return {"address": address, "municipality": municipality, "zone": zone,
                "land_area_cuerdas": Decimal(area), "land_valuation": Decimal(land),
                "structure_valuation": Decimal(structure), "owner_kind": kind,
                "transferred": transferred, "tax_incentive_exempt": incentive,
                "benefit_units": Decimal(units)}

    def to_json(self) -> str:
        """The row as compact JSON (staged for pass 2): a list in field order, the owners a
        list of [name, email, share], the lease a list or null (named tuples are JSON
        arrays)."""
        return _dumps(self)

    @classmethod
    def from_json(cls, text: str) -> ParcelRow:
        *facts, owners, lease = json.loads(text)
        return cls(*facts, tuple([Owner(*o) for o in owners]),
                   LeaseRow(*lease) if lease is not None else None)


_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


class Row(NamedTuple):
    number: int
    parcel: ParcelRow | None
    errors: tuple[RowError, ...] = ()


def sniff(path: str | Path) -> FileFormat:
    """Read the whole file once, in chunks: its encoding, delimiter, checksum and size.
    UTF-8 is tried strictly first (a BOM is allowed); a file that is not UTF-8 is read as
    Windows-1252, what Excel writes in Puerto Rico ("CSV" rather than "CSV UTF-8"). A NUL
    byte, or a byte Windows-1252 leaves undefined, means the file is no text (a
    spreadsheet's .xlsx, a PDF, ...)."""
    digest = hashlib.sha256()
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    utf8 = True
    size = lines = 0
    head = b""
    last = b""
    with open(path, "rb") as fh:
        while chunk := fh.read(CHUNK):
            if not size:
                head = chunk[:65536]
            size += len(chunk)
            digest.update(chunk)
            lines += chunk.count(b"\n")
            last = chunk[-1:]
            if b"\x00" in chunk:
                raise FileProblem("not_text")
            if utf8:
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError:
                    utf8 = False
        if utf8:
            try:
                decoder.decode(b"", final=True)
            except UnicodeDecodeError:
                utf8 = False
    if size == 0:
        raise FileProblem("empty")
    if last != b"\n":
        lines += 1
    bom = head.startswith(codecs.BOM_UTF8)
    encoding = "utf-8-sig" if utf8 else "cp1252"
    if not utf8:
        try:  # cp1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined
            with open(path, encoding="cp1252", newline="") as fh:
                while fh.read(CHUNK):
                    pass
        except UnicodeDecodeError:
            raise FileProblem("not_text") from None
    first = head.decode(encoding, errors="replace").splitlines()[0] if head.strip() else ""
    if not first.strip():
        raise FileProblem("empty")
    delimiter = ";" if first.count(";") > first.count(",") else ","
    header(next(csv.reader([first], delimiter=delimiter)))  # FileProblem if not the roll's
    return FileFormat(encoding, delimiter, bom, digest.hexdigest(), size, max(lines - 1, 0))


def sniff_head(data: bytes) -> None:
    """A quick look at an upload's first bytes (the page answers at once; the job reads the
    whole file): FileProblem when it is empty, not text, or its header is not the roll's."""
    if not data.strip():
        raise FileProblem("empty")
    if b"\x00" in data:
        raise FileProblem("not_text")
    try:
        text = codecs.getincrementaldecoder("utf-8-sig")("strict").decode(data)
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise FileProblem("not_text") from None
    lines = text.splitlines()
    if len(lines) < 2 and len(data) >= 65536:  # a header longer than what was read
        raise FileProblem("not_text")
    first = lines[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    header(next(csv.reader([first], delimiter=delimiter)))


_MUNICIPALITIES = {normal(m): m for m in MUNICIPALITIES}
_NAMES = {**{normal(c.es): c.key for c in COLUMNS}, **{normal(c.en): c.key for c in COLUMNS}}


def header(cells: list[str]) -> list[tuple[str, str]]:
    """(field, header as written) per column of the file; FileProblem when a column is
    missing, unknown or repeated."""
    out, seen, unknown, repeated = [], set(), [], []
    for cell in cells:
        key = _NAMES.get(normal(cell))
        if key is None:
            if cell.strip():
                unknown.append(cell.strip())
            out.append(("", cell))
            continue
        if key in seen:
            repeated.append(cell.strip())
        seen.add(key)
        out.append((key, cell.strip()))
    if unknown:
        raise FileProblem("unknown_columns", columns=", ".join(unknown))
    if repeated:
        raise FileProblem("repeated_columns", columns=", ".join(repeated))
    missing = [c.es for c in COLUMNS if c.key not in seen]
    if missing:
        raise FileProblem("missing_columns", columns=", ".join(missing))
    return out


def read(path: str | Path, fmt: FileFormat) -> Iterator[Row]:
    """Each data row of the file, parsed and checked, one at a time."""
    with open(path, encoding=fmt.encoding, newline="") as fh:
        reader = csv.reader(fh, delimiter=fmt.delimiter)
        try:
            cols = header(next(reader))
        except StopIteration:
            raise FileProblem("empty") from None
        names = {k: h for k, h in cols if k}
        keys = [k for k, _ in cols]
        for number, cells in enumerate(reader, start=2):
            if not (cells and cells[0].strip()) and not any(c.strip() for c in cells):
                continue  # a blank line (Excel leaves some at the end)
            yield parse_row(number, cols, cells, names, keys)


def _cut(value: str) -> str:
    return value if len(value) <= VALUE_SHOWN else value[:VALUE_SHOWN - 1] + "…"


class _Checker:
    def __init__(self, number: int, names: dict[str, str], values: dict[str, str]):
        self.row, self.names, self.values = number, names, values
        self.errors: list[RowError] = []

    def fail(self, key: str, code: str, value: str | None = None, **params: Any) -> None:
        v = self.values.get(key, "") if value is None else value
        self.errors.append(RowError(self.row, self.names.get(key, key), _cut(v), code,
                                    params))

    def text(self, key: str, required: bool = False) -> str:
        v = " ".join(self.values.get(key, "").split())
        if required and not v:
            self.fail(key, "required")
        elif key in MAX_TEXT and len(v) > MAX_TEXT[key]:
            self.fail(key, "too_long", max=MAX_TEXT[key])
        return v

    def number(self, key: str) -> str:
        digits, places = NUMBERS[key]
        reader = _money if key in MONEY else _number
        value, code = reader(self.values.get(key, ""), digits, places)
        if code is not None:
            self.fail(key, code, **({"places": places} if code == "too_many_decimals" else
                                    {"digits": digits} if code == "too_large" else {}))
        return value

    def choice(self, key: str, choices: dict[str, str], code: str) -> str:
        v = normal(self.values.get(key, ""))
        if not v:
            self.fail(key, "required")
            return ""
        if v not in choices:
            self.fail(key, code)
            return ""
        return choices[v]

    def yes_no(self, key: str, default: bool = False) -> bool:
        try:  # the one parser of a typed yes or no: "X" or "Y" is not an answer
            return yes_no_input.parse(self.values.get(key, ""), default=default)
        except yes_no_input.YesNoInputError:
            self.fail(key, "not_yes_no")
            return default

    def email(self, key: str, value: str) -> str | None:
        v = value.strip().lower()
        if not v:
            return None
        if not _EMAIL.match(v) or len(v) > 254:
            self.fail(key, "bad_email", value=value)
            return None
        return v

    def day(self, key: str) -> str | None:
        v = self.values.get(key, "").strip()
        if not v:
            return None
        try:
            if _ISO_DAY.fullmatch(v):
                return date.fromisoformat(v).isoformat()
        except ValueError:
            pass
        self.fail(key, "bad_date")
        return None


def _most(digits: int, places: int) -> Decimal:
    """The largest value with `digits` before the point and `places` after it."""
    return Decimal(10) ** digits - Decimal(1).scaleb(-places)


@lru_cache(maxsize=REMEMBERED)
def _money(cell: str, digits: int, places: int) -> tuple[str, str | None]:
    """A dollar cell read by the one parser of an amount (`money_input.parse`, as every form,
    CSV and API field reads one): "1.500,00", "1.500" and "12,5" (the other convention's
    separators, which would read as $1.50 or be refused without a reason) and "1e9" are
    refused with their own reason. (value at cents, None), or ("0", a message id)."""
    try:
        value = money_input.parse(cell, "en_US", maximum=_most(digits, places))
    except money_input.MoneyInputError as exc:
        return "0", exc.code
    return str(value.quantize(Decimal(1).scaleb(-places))), None


@lru_cache(maxsize=REMEMBERED)
def _number(cell: str, digits: int, places: int) -> tuple[str, str | None]:
    """A number cell read: (its value as text at `places` decimals, None), or ("0", why
    not: a message id)."""
    v = cell.strip().replace("$", "").replace(" ", "").replace("\u00a0", "")
    if not v:
        return "0", "required"
    if not _NUMBER.match(v) or v in ("+", "-", ".") or "." == v[-1:]:
        return "0", "not_a_number"
    try:
        d = Decimal(v.replace(",", ""))
    except InvalidOperation:
        return "0", "not_a_number"
    if d < 0:
        return "0", "negative"
    quantum = Decimal(1).scaleb(-places)
    if -d.as_tuple().exponent > places and d != d.quantize(quantum):
        return "0", "too_many_decimals"
    if d >= Decimal(10) ** digits:
        return "0", "too_large"
    return str(d.quantize(quantum)), None


@lru_cache(maxsize=16)
def _equal_shares(n: int) -> tuple[Decimal, ...]:
    """`n` equal shares at six decimals, the first owner taking what is left over."""
    each = (Decimal(1) / n).quantize(Decimal("0.000001"), rounding="ROUND_DOWN")
    return (each + (Decimal(1) - each * n), *([each] * (n - 1)))


@lru_cache(maxsize=16)
def _equal_share_texts(n: int) -> tuple[str, ...]:
    return tuple(map(str, _equal_shares(n)))


def _split(value: str) -> list[str]:
    return [p.strip() for p in value.split(SEPARATOR)] if value.strip() else []


def parse_row(number: int, cols: list[tuple[str, str]], cells: list[str],
              names: dict[str, str] | None = None, keys: list[str] | None = None) -> Row:
    """One record checked against every rule of its columns (all its errors, not the first).
    `names` ({field: header as written}) and `keys` (the field of each column, "" for a
    blank one) are the header's, worked out once by `read`."""
    if len(cells) != len(cols):
        return Row(number, None, (RowError(number, "", _cut((";" if len(cells) < 2 else ",")
                                                           .join(cells)), "wrong_column_count",
                                           {"expected": len(cols), "found": len(cells)}),))
    if names is None or keys is None:
        names, keys = {k: h for k, h in cols if k}, [k for k, _ in cols]
    values = dict(zip(keys, cells))  # (a blank column's "" is never looked up)
    c = _Checker(number, names, values)
    raw_catastro = values.get("catastro", "").strip()
    catastro = normalise_catastro(raw_catastro)
    if not raw_catastro:
        c.fail("catastro", "required")
    elif not _CATASTRO.match(catastro):
        c.fail("catastro", "bad_catastro")
    address = c.text("address", True)
    municipality = c.text("municipality", True)
    if municipality:
        known = _MUNICIPALITIES.get(normal(municipality))
        if known is None:
            c.fail("municipality", "not_a_municipality")
        municipality = known or municipality
    zone = c.choice("zone", ZONES, "not_a_zone")
    area = c.number("land_area_cuerdas")
    land = c.number("land_valuation")
    structure = c.number("structure_valuation")
    owner_kind = c.choice("owner_kind", OWNER_KINDS, "not_an_owner_kind")
    transferred = c.yes_no("transferred")
    incentive = c.yes_no("tax_incentive_exempt")
    units = c.number("benefit_units")
    owners = _owners(c)
    lease = _lease(c)
    if c.errors:
        return Row(number, None, tuple(c.errors))
    return Row(number, ParcelRow(catastro, address, municipality, zone, area, land, structure,
                                 owner_kind, transferred, incentive, units, owners, lease))


def _owners(c: _Checker) -> tuple[Owner, ...]:
    names = [" ".join(n.split()) for n in _split(c.values.get("owner_names", ""))]
    emails = _split(c.values.get("owner_emails", ""))
    shares = _split(c.values.get("owner_shares", ""))
    if not names:
        if any(emails) or any(shares):
            c.fail("owner_names", "required")
        return ()
    if any(not n for n in names):
        c.fail("owner_names", "required")
    for n in names:
        if len(n) > MAX_TEXT["owner_names"]:
            c.fail("owner_names", "too_long", value=n, max=MAX_TEXT["owner_names"])
    if emails and len(emails) != len(names):
        c.fail("owner_emails", "owners_mismatch", owners=len(names), found=len(emails))
        emails = []
    if shares and len(shares) != len(names):
        c.fail("owner_shares", "owners_mismatch", owners=len(names), found=len(shares))
        shares = []
    checked_emails = [c.email("owner_emails", e) for e in emails] or [None] * len(names)
    if shares:
        values = []
        for s in shares:
            try:
                d = Decimal(s)
                ok = d.is_finite() and 0 < d <= 1 and d == d.quantize(Decimal("0.000001"))
            except InvalidOperation:
                ok = False
            if not ok:
                c.fail("owner_shares", "bad_share", value=s)
                return ()
            values.append(d.quantize(Decimal("0.000001")))
        if sum(values) != 1:
            c.fail("owner_shares", "shares_sum", total=str(sum(values)))
            return ()
        texts: tuple[str, ...] = tuple(map(str, values))
    else:  # equal shares; the first owner takes what six decimals leave over
        texts = _equal_share_texts(len(names))
    return tuple([Owner(n, e, s) for n, e, s in zip(names, checked_emails, texts)])


_LEASE_KEYS = ("lessee_name", "lessee_email", "lessee_pays", "lease_contract", "lease_starts",
               "lease_ends")


def _lease(c: _Checker) -> LeaseRow | None:
    if not "".join([c.values.get(k, "") for k in _LEASE_KEYS]).strip():
        return None  # no lease (most rows): nothing to check
    name = c.text("lessee_name")
    email = c.email("lessee_email", c.values.get("lessee_email", ""))
    pays = c.yes_no("lessee_pays", default=True)
    contract = c.text("lease_contract") or None
    starts, ends = c.day("lease_starts"), c.day("lease_ends")
    others = (c.values.get("lessee_email", "").strip() or contract or starts or ends
              or c.values.get("lessee_pays", "").strip())
    if not name:
        if others:
            c.fail("lessee_name", "lease_without_lessee")
        return None
    if starts is None:
        if not c.values.get("lease_starts", "").strip():
            c.fail("lease_starts", "lessee_without_start")
        return None
    if ends is not None and ends < starts:
        c.fail("lease_ends", "dates_reversed")
        return None
    return LeaseRow(name, email, pays, contract, starts, ends)


def template_rows(lang: str) -> list[list[str]]:
    """The downloadable template: the header in `lang` and one example row."""
    es = lang == "es"
    head = [c.es if es else c.en for c in COLUMNS]
    example = ["040-012-345-67", "Calle Luna 12, Urb. Villa Nevárez", "San Juan",
               "urbana" if es else "urban", "0.250000", "60000.00", "85000.00",
               "privado" if es else "private", "no", "no", "12.5000",
               "Ana Rivera Colón|José Ortiz Vega", "ana@example.pr|jose@example.pr",
               "0.5|0.5", "", "", "", "", "", ""]
    return [head, example]
