"""The parcel page reads a parcel's property-tax debts as a JSON column of its boxes'
statement (`attachments.debts_json`, `summary_from_json`), the staff's page with their own
statement (`summary_for`): both give the same records (types, amounts with their two
decimals, dates, instants in UTC), in the same order, on SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from flask import Flask
from sqlalchemy import select

from portal.collections import attachments
from portal.db import UnitOfWork
from portal.models import Auction, AuctionResult, TaxDebt
from portal.web.data import database
from tests.support.app import demo_on_postgresql


def _records(s: attachments.ParcelAttachments) -> list[str]:
    """Every record of the summary as its repr (a type or a scale that differs shows)."""
    out = [repr((s.parcel_id, s.relation, s.today))]
    for dv in s.debts:
        out.append(repr(dv.debt))
        if dv.notice is not None:
            n = dv.notice
            out += [repr(n.notice), repr(n.figures), repr(n.accruals),
                    repr(n.stop.on.amount if n.stop else None)]
        out += [repr((av.auction, av.result, av.minimum.minimum)) for av in dv.auctions]
    return out


def _compare(app: Flask) -> int:
    """Both reads of every parcel with debts; how many debts were compared."""
    n = 0
    with app.app_context(), UnitOfWork(database()) as w:
        pids = sorted(set(w.session.scalars(select(TaxDebt.parcel_id))))
        for pid in pids:
            text = w.session.connection().execute(
                select(attachments.debts_json(pid))).scalar()
            by_json = attachments.summary_from_json(pid, "staff", text)
            by_rows = attachments.summary_for(w, pid, "staff")
            assert _records(by_json) == _records(by_rows)
            n += len(by_rows.debts)
        text = w.session.connection().execute(select(attachments.debts_json(-1))).scalar()
        assert attachments.summary_from_json(-1, "staff", text).debts == []
    return n


def _second_auction_with_result(app: Flask) -> None:
    """A second auction on the first debt that has one, and a result of the first: a debt
    of two rows, one with every table's columns."""
    with app.app_context(), UnitOfWork(database()) as w:
        first = w.session.scalars(select(Auction).order_by(Auction.id)).first()
        assert first is not None
        second = Auction(debt_id=first.debt_id, parcel_id=first.parcel_id,
                         auction_number=first.auction_number + 1,
                         appraised_on=first.appraised_on, real_value=first.real_value,
                         mortgage_amount=first.mortgage_amount, equity=first.equity,
                         credit=first.credit, floor=first.floor,
                         minimum=Decimal("1234.5"), created_by_id=first.created_by_id)
        w.session.add(second)
        w.session.flush()
        w.session.add(AuctionResult(auction_id=first.id, held_on=date(2026, 11, 2),
                                    outcome="adjudicated_to_crim", bids=0, price=Decimal("10"),
                                    shortfall=Decimal("0.5"),
                                    created_by_id=first.created_by_id))


def test_the_same_records_on_sqlite(demo_app):
    assert _compare(demo_app) >= 1
    _second_auction_with_result(demo_app)
    assert _compare(demo_app) >= 1


@pytest.mark.postgres
def test_the_same_records_on_postgresql(tmp_path):
    with demo_on_postgresql(tmp_path) as (app, _result):
        assert _compare(app) >= 1
        _second_auction_with_result(app)
        assert _compare(app) >= 1
