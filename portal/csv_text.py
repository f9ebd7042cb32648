"""An uploaded CSV's bytes as text, the way Puerto Rico's spreadsheets write them (the
standard library only; no database, no Flask).

- UTF-8, with or without a BOM, tried strictly first; a file that is not UTF-8 is read as
  Windows-1252 (Excel's "CSV" rather than "CSV UTF-8"). A NUL byte, or a byte Windows-1252
  leaves undefined, means the file is no text (an .xlsx, a PDF): `ValueError("not_text")`.
- The delimiter: a semicolon when the header line has more of them than commas (Excel in a
  Spanish locale), else a comma. CRLF and LF alike (`csv` reads both).

The roll's import (`portal.roll.roll_csv`) decides a file's encoding the same way, streamed
over a file on disk; this is the same rule for an upload held in memory.

And the CSV the portal writes (every export and report): `csv_lines`, every cell through
`safe_cell` so that a spreadsheet never runs it as a formula.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any


def decode(data: bytes) -> str:
    """The text of `data` (see the module's docstring); ValueError("empty"|"not_text")."""
    if not data.strip():
        raise ValueError("empty")
    if b"\x00" in data:
        raise ValueError("not_text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise ValueError("not_text") from None
    if text.startswith(codecs.BOM_UTF8.decode("utf-8")):
        text = text[1:]
    if not text.strip():
        raise ValueError("empty")
    return text


def delimiter(first_line: str) -> str:
    """";" when the header line has more semicolons than commas, else ","."""
    return ";" if first_line.count(";") > first_line.count(",") else ","


def records(data: bytes) -> Iterator[tuple[int, list[str]]]:
    """(row number, cells) of each row of the upload, the header first as row 1 (as a
    spreadsheet counts); blank lines skipped. ValueError as `decode`."""
    text = decode(data)
    first = text.lstrip("\r\n").splitlines()[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(first))
    for number, cells in enumerate(reader, start=1):
        if any(c.strip() for c in cells):
            yield number, cells


# --- the CSV the portal writes ------------------------------------------------------------

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> str:
    """A CSV cell that a spreadsheet will not run: text beginning with =, +, -, @, a tab or
    a carriage return is prefixed with an apostrophe (OWASP's CSV injection advice)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA) else text


def csv_lines(header: Sequence[str], records: Iterable[Sequence[Any]]) -> Iterator[str]:
    """The CSV's text line by line (CRLF, as RFC 4180), every cell through `safe_cell`; a
    UTF-8 BOM first so that spreadsheets read the accents."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow([safe_cell(h) for h in header])
    yield "\ufeff" + buf.getvalue()
    for rec in records:
        buf.seek(0)
        buf.truncate()
        w.writerow([safe_cell(v) for v in rec])
        yield buf.getvalue()
