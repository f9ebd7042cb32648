"""A step of a lender's bulk certifications filed at once (J7, R-B9, R-B21).

`filings.file_for_lender` files one certification in about twenty statements (the draft,
its owners, the one-dwelling check, the state's event and audit records, a flush each).
`Step` files a step of a lender's batch with the same rules in a constant number of
statements, whatever the number of rows:

- it reads what the step needs at once: the parcels' certifications of the year (the last
  one not withdrawn per parcel, as `filings.current`), the spouses of the parcels' owners
  and every approved or pending certification naming one of them (R-B5, R-B6, R-B20:
  `filings.spouse_pairs`, `filings.exemptions_held`);
- each filing is checked in Python by the single filing's own functions
  (`filings.missing_steps_of`, `filings.dwelling_conflicts`, `filings.lender_checks`: the
  core's figures and the eligibility), and what it files counts for the rows after it (a
  certification filed earlier in the step is on file, its owners hold the year's exemption);
- `write` inserts the new certifications (filing numbers from ids reserved first), their
  owners, their events and audit records, a statement each (`accounts.bulk`: COPY on
  PostgreSQL).

A parcel whose certification of the year is a draft (the owner started the wizard) or was
returned is completed by the single path itself (`OneByOne`), after what the step holds is
written. `OneByOne` is the single path behind the same interface: the filings a row at a
time, each in its savepoint (what the batched path is checked against).

Both raise what `file_for_lender` raises (`Conflict("exemption_not_editable")`,
`"exemption_incomplete"`, `"one_dwelling"`, `"exemption_not_eligible"`,
`InvalidInput("calc")`), so a row gets the same refusal reason on either path. The caller
owns the transaction (a step of the job: all or nothing).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import func, select, text

from portal import clock
from portal.accounts import audit, bulk
from portal.accounts.errors import Conflict, InvalidInput
from portal.core import property_tax
from portal.core.errors import CalcError, ParameterNotFound
from portal.db import UnitOfWork
from portal.exemptions import filings
from portal.models import ExemptionCertification, ExemptionEvent, ExemptionOwner

OBJECT_TYPE = ExemptionCertification.__tablename__


@dataclass
class OnFile:
    """A parcel's certification of the year (`filings.current`): on file, or filed in this
    step (its `id` is known once `Step.write` has run)."""

    parcel_id: int
    status: str
    loan_id: int | None
    answers: dict[str, Any]
    id: int | None = None
    delivered_on: date | None = None


@dataclass(frozen=True)
class LenderFiling:
    """What a lender files for a parcel of its loan (`filings.file_for_lender`'s inputs):
    the answers (owners as party ids), the officer's name and the day the owner delivered
    the certification to the lender, its filing date (R-B13, R-B21)."""

    parcel_id: int
    loan_id: int
    answers: dict[str, Any]
    attested_name: str
    delivered_on: date
    coop_election_id: int | None = None  # a cooperative's unit: the cooperative's election


@dataclass
class _New:
    on_file: OnFile
    filing: LenderFiling
    owners: list[int] = field(default_factory=list)


class OneByOne:
    """The single filing's path: `filings.current` and `filings.file_for_lender`, a filing
    at a time in its savepoint."""

    def __init__(self, uow: UnitOfWork, fy: date, *, actor_id: int, created_by_id: int):
        self.uow, self.fy = uow, fy
        self.actor_id, self.created_by_id = actor_id, created_by_id

    def on_file(self, parcel_id: int) -> OnFile | None:
        cert = filings.current(self.uow, parcel_id, self.fy)
        return None if cert is None else _on_file(cert)

    def file(self, f: LenderFiling, facts: Any = None,
             comparison: property_tax.BillComparison | None = None
             ) -> tuple[OnFile, filings.Figures]:
        with self.uow.session.begin_nested():
            cert, fig = filings.file_for_lender(
                self.uow, self.actor_id, parcel_id=f.parcel_id, fy=self.fy,
                loan_id=f.loan_id, answers=f.answers, attested_name=f.attested_name,
                created_by_id=self.created_by_id, delivered_on=f.delivered_on,
                coop_election_id=f.coop_election_id)
        return _on_file(cert), fig

    def write(self) -> None:
        """Nothing waits: each filing was written when filed."""


def _on_file(cert: ExemptionCertification) -> OnFile:
    return OnFile(cert.parcel_id, cert.status, cert.loan_id, dict(cert.answers or {}), cert.id,
                  cert.delivered_on)


class Step:
    """The filings of one step of a lender's batch for the fiscal year `fy` (module
    docstring). `catastros`: parcel id -> catastro of the step's parcels; `owners`: parcel id
    -> (party id, name, share kind) of its owners on record who are people."""

    def __init__(self, uow: UnitOfWork, fy: date, *, actor_id: int, created_by_id: int,
                 catastros: dict[int, str], owners: dict[int, list[tuple[int, str, str]]]):
        self.uow, self.fy = uow, fy
        self.actor_id, self.created_by_id = actor_id, created_by_id
        self.catastros = catastros
        self.names = {pid: name for rows in owners.values() for pid, name, _k in rows}
        self.single = OneByOne(uow, fy, actor_id=actor_id, created_by_id=created_by_id)
        self.current = self._current(sorted(catastros))
        parties = set(self.names)
        self.pairs = filings.spouse_pairs(uow, parties)
        self.held: dict[int, list[filings.Held]] = {}
        for h in filings.exemptions_held(uow, sorted(filings.claimants(parties, self.pairs)),
                                         fy):
            self.held.setdefault(h.party_id, []).append(h)
        self.pending: list[_New] = []

    def _current(self, parcel_ids: list[int]) -> dict[int, OnFile]:
        """parcel -> its certification of the year, as `filings.current` (the last one not
        withdrawn), in one statement."""
        c = ExemptionCertification
        out: dict[int, OnFile] = {}
        if not parcel_ids:
            return out
        # only the parcels' index narrows it, as `filings.exemptions_held`
        for cid, pid, status, loan_id, answers, fy, delivered in self.uow.session.execute(
                select(c.id, c.parcel_id, c.status, c.loan_id, c.answers, c.fiscal_year_start,
                       c.delivered_on)
                .where(c.parcel_id.in_(parcel_ids)).order_by(c.id)):
            if fy != self.fy or status == "withdrawn":
                continue
            out[pid] = OnFile(pid, status, loan_id, dict(answers or {}), cid, delivered)
        return out

    def on_file(self, parcel_id: int) -> OnFile | None:
        return self.current.get(parcel_id)

    def file(self, f: LenderFiling, facts: Any,
             comparison: property_tax.BillComparison | None = None
             ) -> tuple[OnFile, filings.Figures]:
        """File `f` (the parcel's CRIM facts of the year `facts`; `comparison`, the core's
        figures when the caller computed them from the same answers): the checks of
        `file_for_lender`, the certification written by `write`. A draft or a returned
        certification on file is completed by the single path."""
        existing = self.current.get(f.parcel_id)
        if existing is not None:
            if existing.status not in filings.EDITABLE:
                raise Conflict("exemption_not_editable")
            self.write()  # the single path reads what this step filed before it
            done, fig = self.single.file(f)
            self._filed(done, f.answers.get("owners", []))
            return done, fig
        owners = sorted({int(x) for x in f.answers.get("owners", [])})
        answers = {**f.answers, "owners": owners}
        missing = filings.missing_steps_of(answers, facts)
        if missing:
            raise Conflict("exemption_incomplete", steps=missing)
        claim = filings.claimants(owners, self.pairs)
        held = [h for pid in sorted(claim) for h in self.held.get(pid, ())]
        conflicts = filings.dwelling_conflicts(f.parcel_id, owners, self.pairs, held)
        try:
            fig = filings.lender_checks(answers, facts, self.fy, conflicts=conflicts,
                                        approved=False, filed_on=f.delivered_on,
                                        closed_days=lambda: filings._closed(self.uow),
                                        comparison=comparison)
        except (CalcError, ParameterNotFound) as e:
            raise InvalidInput("calc", field=getattr(e, "field", None),
                               message=str(e)) from None
        new = OnFile(f.parcel_id, "filed", f.loan_id, answers, delivered_on=f.delivered_on)
        self.pending.append(_New(new, f, owners))
        self._filed(new, owners)
        return new, fig

    def _filed(self, done: OnFile, owners: list[Any]) -> None:
        """What a filing changes for the rows after it: the parcel's certification, and its
        owners hold the year's exemption (R-B6)."""
        self.current[done.parcel_id] = done
        catastro = self.catastros.get(done.parcel_id, "")
        for pid in sorted({int(x) for x in owners}):
            self.held.setdefault(pid, []).append(filings.Held(
                pid, self.names.get(pid, ""), done.parcel_id, catastro, done.status))

    def write(self) -> None:
        """Insert what the step filed since the last write: the certifications (filed, their
        filing numbers), their owners, the draft-to-filed events and the audit records
        (`exemption.draft_started`, `exemption.filed`), a statement each."""
        if not self.pending:
            return
        pending, self.pending = self.pending, []
        ids = _new_ids(self.uow, ExemptionCertification, len(pending))
        now = clock.now()
        # PostgreSQL's COPY (`bulk.insert_rows`) takes the JSON's text; SQLite's path encodes it
        js: Any = (json.dumps if self.uow.session.get_bind().dialect.name == "postgresql"
                   else (lambda v: v))
        certs, owners, events = [], [], []
        for new, cid in zip(pending, ids):
            new.on_file.id = cid
            f = new.filing
            certs.append({
                "id": cid, "parcel_id": f.parcel_id, "fiscal_year_start": self.fy,
                "status": "filed", "created_by_id": self.created_by_id, "language": "es",
                "answers": js(new.on_file.answers), "step": "attest",
                "filing_number": filings.filing_number(self.fy, cid), "filed_at": now,
                "filed_on": f.delivered_on, "delivered_on": f.delivered_on,
                "coop_election_id": f.coop_election_id,
                "loan_id": f.loan_id, "attested_name": f.attested_name,
                "attested_at": now, "plan_payments": None, "plan_first_due": None,
                "returned_steps": js([]), "decided_by_id": None, "decided_at": None,
                "created_at": now, "updated_at": now})
            owners.extend({"certification_id": cid, "party_id": pid, "created_at": now}
                          for pid in new.owners)
            events.append({"certification_id": cid, "from_status": "draft",
                           "to_status": "filed", "actor_id": filings.actor_id(self.actor_id),
                           "reasons": js([]), "note": "", "created_at": now})
        bulk.insert_rows(self.uow, ExemptionCertification, certs)
        bulk.insert_rows(self.uow, ExemptionOwner, owners)
        bulk.insert_rows(self.uow, ExemptionEvent, events)
        audit.bulk(self.uow, self.actor_id, "exemption.draft_started", OBJECT_TYPE,
                   [(n.on_file.id, filings.draft_started_after(n.filing.parcel_id, self.fy,
                                                               n.filing.loan_id))
                    for n in pending])
        before, after = filings.moved_audit("draft", "filed")
        audit.bulk(self.uow, self.actor_id, "exemption.filed", OBJECT_TYPE,
                   [(n.on_file.id, after) for n in pending], before=before)


def _new_ids(uow: UnitOfWork, model: Any, n: int) -> list[int]:
    """`n` new ids for the model's table: from its sequence on PostgreSQL (concurrent
    writers never clash); on SQLite the next ones after the largest (a writing transaction
    has the database to itself)."""
    conn = uow.connection()
    table = model.__table__
    if conn.dialect.name == "postgresql":
        seq = conn.execute(text("SELECT pg_get_serial_sequence(:t, 'id')"),
                           {"t": table.name}).scalar()
        return list(conn.execute(text("SELECT nextval(:s) FROM generate_series(1, :n)"),
                                 {"s": seq, "n": n}).scalars())
    last = conn.execute(select(func.max(table.c.id))).scalar() or 0
    return list(range(last + 1, last + n + 1))
