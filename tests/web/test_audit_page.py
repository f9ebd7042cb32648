"""Staff read the audit log (portal/web/people/audit.py): filtered by who, what, when and
which object, exported as CSV with cells a spreadsheet will not run; nobody else sees it."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest

from portal.db import get_database
from portal.models.audit import AuditRecord
from tests.support.pages import login


@pytest.fixture
def records(demo_app):  # noqa: ANN001, ANN201
    with get_database(demo_app.config["DATABASE_URL"]).unit_of_work() as w:
        w.session.add_all([
            AuditRecord(at=datetime(2026, 11, 20, 15, tzinfo=UTC), actor_id=None,
                        action="payment.posted", object_type="parcels", object_id="4242",
                        after={"note": "=HYPERLINK(\"x\")"}, ip="203.0.113.7"),
            AuditRecord(at=datetime(2026, 11, 25, 15, tzinfo=UTC), actor_id=None,
                        action="staff.role_set", object_type="users", object_id="7"),
        ])
    return demo_app


def test_staff_filter_by_object_and_date(records):
    client = login(records, "staff")
    page = client.get("/personal/auditoria?object_type=parcels&object_id=4242"
                      "&since=2026-11-19&until=2026-11-20")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "payment.posted" in html and "203.0.113.7" in html
    assert "staff.role_set" not in html
    later = client.get("/personal/auditoria?action=payment.&since=2026-11-21")
    assert "payment.posted" not in later.get_data(as_text=True)


def test_a_bad_date_is_a_message_and_selects_nothing(records):
    client = login(records, "staff")
    r = client.get("/personal/auditoria?since=31/11/2026&action=payment.")
    assert r.status_code == 400
    assert "payment.posted" not in r.get_data(as_text=True)


def test_the_csv_export_has_the_filtered_rows_with_safe_cells(records):
    client = login(records, "staff")
    r = client.get("/personal/auditoria.csv?action=payment.posted&object_type=parcels"
                   "&object_id=4242")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0][2] == "Acción"  # the staff's language (Spanish first)
    [row] = rows[1:]
    assert row[2:6] == ["payment.posted", "parcels", "4242", "203.0.113.7"]
    assert row[6].startswith("{")  # the details, JSON (its formula inside is not a cell's start)


def test_the_csv_neutralises_a_formula_at_a_cell_start(records):
    with get_database(records.config["DATABASE_URL"]).unit_of_work() as w:
        w.session.add(AuditRecord(at=datetime(2026, 11, 26, tzinfo=UTC), action="x.y",
                                  object_type="parcels", object_id="=1+1"))
    client = login(records, "staff")
    body = client.get("/personal/auditoria.csv?action=x.y").get_data(as_text=True)
    assert "'=1+1" in body


@pytest.mark.parametrize("who", ["owner", "lender"])
def test_nobody_but_staff_sees_it(records, who):
    client = login(records, who)
    assert client.get("/personal/auditoria").status_code == 404
    assert client.get("/personal/auditoria.csv").status_code == 404
