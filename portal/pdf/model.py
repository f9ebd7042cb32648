"""What a document says, already worded and formatted by its caller (the document layer
never computes or formats an amount: the caller passes the core's figures as text)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date


@dataclass(frozen=True)
class Ref:
    """The rule behind a figure: the portal's rule id, the statute's clause and the rule's
    title in the reader's words. Printed as a numbered footnote, never as a bare id."""

    rule: str
    source: str
    title: str


@dataclass(frozen=True)
class Why:
    """One line of explanation in plain words, with the rule it applies (a footnote)."""

    text: str
    ref: Ref | None = None


@dataclass
class Row:
    """A label, its formatted amount, and the explanation lines behind it."""

    label: str
    amount: str
    why: list[Why] = field(default_factory=list)
    strong: bool = False


@dataclass
class Table:
    """A table whose header repeats on every page it runs onto. A cell is text, or a `Why`
    (its rule becomes a footnote). `widths` are relative; `align` is "L" or "R" a column."""

    head: Sequence[str]
    rows: list[Sequence[str | Why]]
    widths: Sequence[float] = ()
    align: str = ""
    heading: str = ""


@dataclass
class Document:
    """Everything a PDF prints, already translated and formatted by the caller.

    `reference` names the document on every page's footer ("Parcel 123-456-789",
    "Receipt R-2026-000123"); `on` is the document's date (it picks the Authority's
    address in force); `body` the paragraphs of a letter or notice, after the facts; `rows`
    the amounts (label, amount, why); `tables`; `notes` paragraphs at the end; `code` a QR
    code with its caption, after the body; `closing` a letter's signature block, last."""

    title: str
    subtitle: str
    facts: list[tuple[str, str]]
    rows: list[Row] = field(default_factory=list)
    body: list[str | Why] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[str | Why] = field(default_factory=list)
    reference: str = ""
    on: date | None = None
    rows_heading: str = ""
    table_head: Sequence[str] = ()  # one table, the older form of `tables`
    table: list[Sequence[str]] = field(default_factory=list)
    #: A QR code (`qr.Code`) drawn after the body (the notice's and statement's pay link).
    code: object | None = None
    #: The code in a column beside the first table instead of across the page, when that
    #: takes less room (the assessment notice: one sheet with its schedule and its code).
    code_beside_table: bool = False
    #: A letter's closing and signature block, last, at the body's size (lines by "\n").
    closing: list[str] = field(default_factory=list)
    #: The answer first (the statement: what is owed now and by which day), in large text.
    answer: list[str] = field(default_factory=list)
    answer_heading: str = ""

    def all_tables(self) -> list[Table]:
        if self.table:
            return [Table(self.table_head, self.table), *self.tables]
        return list(self.tables)
