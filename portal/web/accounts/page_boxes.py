"""The parcel page's boxes beside the account, read in one statement (the parcel page's view,
`portal.web.accounts.views.parcel_page`): the notices issued, the paperless choice, what a
lender said it will pay, the CRIM's facts with the exemption certification in force, the
loans' servicers and the parcel's property-tax debts. Each box is asked only for
the relations that see it, and each is its own service's query (`issued_json`,
`for_parcel_json`, `servicers_json`, ...) as a column of the one statement: a statement
costs the page more in SQLAlchemy's own work than the database spends on it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.sql.lambdas import StatementLambdaElement

from portal.collections import attachments
from portal.db import UnitOfWork, prepared
from portal.exemptions import status as exemption_status
from portal.lenders import intents, loan_changes
from portal.models import PaperlessChoice, Parcel
from portal.roll import notices


@dataclass
class Boxes:
    """What `read` found, as the services' own functions give it (empty when not asked)."""

    issued: list = field(default_factory=list)  # notices.issued_for
    paperless: bool | None = None  # paperless.choice_for
    intents: list = field(default_factory=list)  # intents.for_parcel
    facts: Any = None  # exemption_status.with_facts: the CRIM's row,
    cert: Any = None  # the certification in force
    continued: date | None = None  # and the year it continues from
    servicers: list = field(default_factory=list)  # loan_changes.servicers
    debts: str | None = None  # the property-tax debts (attachments.debts_json)


_PID = bindparam("pid")
_STATEMENTS: dict[tuple[bool, ...], StatementLambdaElement] = {}


def _statement(wants: tuple[bool, ...]) -> StatementLambdaElement:
    """The statement for these boxes (issued, paperless, intents, exemption, servicers,
    debts), built once per combination and `prepared` (executed on every parcel page)."""
    found = _STATEMENTS.get(wants)
    if found is not None:
        return found
    issued, choice, marks, exemption, servicers, debts = wants
    columns: list[Any] = []
    if issued:
        columns.append(notices.issued_json(_PID).label("issued"))
    if choice:
        columns.append(select(PaperlessChoice.paperless).where(
            PaperlessChoice.user_id == bindparam("uid"), PaperlessChoice.parcel_id == _PID)
            .scalar_subquery().label("paperless"))
    if marks:
        columns.append(intents.for_parcel_json(_PID, bindparam("fy_id")).label("intents"))
    if servicers:
        columns.append(loan_changes.servicers_json(_PID, bindparam("today"))
                       .label("servicers"))
    if debts:
        columns.append(attachments.debts_json(_PID).label("debts"))
    if exemption:  # the CRIM's row and the certification in force, as read-only records
        stmt = exemption_status.with_facts_records_statement().add_columns(*columns)
    else:
        stmt = select(Parcel.id, *columns).where(Parcel.id == _PID)
    found = _STATEMENTS[wants] = prepared(stmt, f"parcel-page-boxes:{wants}")
    return found


def read(uow: UnitOfWork, user: Any, parcel_id: int, *, today: date, fy_id: int | None,
         fy_start: date, issued: bool, choice: bool, marks: bool, exemption: bool,
         servicers: bool, debts: bool) -> Boxes:
    """The boxes asked for a parcel the caller has read through `accounts.access` (one
    statement; none when nothing is asked). `fy_id`: the account's fiscal year (the
    lender's marks), `fy_start`: the year in course's start (the exemption)."""
    wants = (issued, choice, marks and fy_id is not None, exemption, servicers, debts)
    b = Boxes()
    if not any(wants):
        return b
    # Plain columns only (the rows as records), run on the unit of work's connection: through
    # the ORM, its plugin's own work on the statement was a third of the read.
    row = uow.connection().execute(_statement(wants), {
        "pid": parcel_id, "uid": user.id, "fy_id": fy_id, "today": today,
        "fy": fy_start}).first()
    if row is None:
        return b
    m = row._mapping
    if exemption:
        b.facts, b.cert = exemption_status.facts_records(row)
        b.continued = exemption_status.continued_from(b.cert, fy_start)
    if wants[0]:
        b.issued = notices.issued_from_json(m["issued"])
    if wants[1]:
        b.paperless = bool(m["paperless"])
    if wants[2]:
        b.intents = intents.for_parcel_from_json(m["intents"])
    if wants[4]:
        b.servicers = loan_changes.servicers_from_json(m["servicers"])
    if wants[5]:
        b.debts = m["debts"]
    return b


__all__ = ["Boxes", "read"]
