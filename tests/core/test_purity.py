"""The core is pure (RULES.md section D): no web stack, no network, no float.

"The core is a pure Python package (no Flask, no SQLAlchemy, no network or database; it reads
only its own data files ...; its only third-party dependency may be `holidays`)."
"""

from __future__ import annotations

import decimal
import json
import subprocess
import sys
import textwrap
from datetime import date
from decimal import Decimal

import pytest

from portal.core import calc
from portal.core.allocation import ParcelFacts, allocate, assessment_roll
from portal.core.errors import CalcError
from portal.core.exemption import ExemptionInput, residential_exemption
from portal.core.installments import schedule
from portal.core.statement import Cost, Payment, StatementRules, evaluate
from tests.support.cases import CASES, input_text

WEB_STACK = ("flask", "sqlalchemy", "stripe", "werkzeug", "jinja2", "alembic", "psycopg",
             "flask_babel", "flask_login", "flask_wtf", "wtforms", "babel", "fpdf")

PROBE = textwrap.dedent("""
    import json, socket, sys

    class NoSocket(socket.socket):
        def __init__(self, *args, **kwargs):
            raise AssertionError("the calculation core opened a socket")

    socket.socket = NoSocket

    import portal, portal.core, portal.core.calc
    from portal.core.calc import run
    results = [
        run("allocate", {"total": "100.00", "weights": {"a": "1", "b": "2"}}),
        run("statement", {"as_of": "2026-07-31",
                          "installments": [{"number": 1, "due_date": "2026-07-01",
                                            "amount": "100.00"}],
                          "payments": [{"date": "2026-07-11", "amount": "100.00"}]}),
        run("residential_exemption", {"valuation": "40000.00", "tax_rate": "0.1033"}),
        run("deadline", {"kind": "court_claim", "date": "2026-09-26"}),
    ]
    if len(sys.argv) > 1:
        import importlib
        importlib.import_module(sys.argv[1])
    loaded = sorted({name.split(".")[0] for name in sys.modules})
    print(json.dumps({"modules": loaded, "payoff": results[1]["payoff"]}))
""")


def _probe(*extra: str) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *extra], capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_core_imports_no_web_stack_and_opens_no_socket() -> None:
    out = _probe()
    assert out["payoff"] == "5.30"  # the probe really computed something
    loaded = set(out["modules"])  # type: ignore[arg-type]
    assert loaded.isdisjoint(WEB_STACK), sorted(loaded & set(WEB_STACK))
    third_party = {m for m in loaded - set(sys.stdlib_module_names)
                   if not m.startswith("__editable__")}  # the editable install's finder
    # holidays and its own dependency (dateutil, six) are allowed; nothing else.
    allowed = {"portal", "holidays", "dateutil", "six", "__main__", "_distutils_hack"}
    assert third_party <= allowed, sorted(third_party - allowed)


def test_the_calc_command_module_imports_no_web_stack() -> None:
    """`portal calc` only needs the core: importing the command must not pull in Flask."""
    out = _probe("portal.cli")
    loaded = set(out["modules"])  # type: ignore[arg-type]
    assert loaded.isdisjoint(WEB_STACK), sorted(loaded & set(WEB_STACK))


# --- No float anywhere ---------------------------------------------------------------------

@pytest.fixture
def float_trap():
    """Any mixing of float and Decimal raises decimal.FloatOperation (and is flagged)."""
    with decimal.localcontext() as ctx:
        ctx.traps[decimal.FloatOperation] = True
        ctx.clear_flags()
        yield ctx
        assert not ctx.flags[decimal.FloatOperation], "a float was compared with a Decimal"


def test_decimal_trap_works(float_trap: decimal.Context) -> None:
    """The trap is really on: a float sneaking into a Decimal fails."""
    with pytest.raises(decimal.FloatOperation):
        Decimal(0.1)
    with pytest.raises(decimal.FloatOperation):
        assert Decimal("0.1") < 0.2
    float_trap.clear_flags()


def test_statement_allocation_exemption_without_floats(float_trap: decimal.Context) -> None:
    items = schedule(Decimal("1000.00"), date(2026, 7, 1), 12)
    st = evaluate(date(2026, 12, 31), items,
                  [Payment(date(2026, 7, 5), Decimal("83.34")),
                   Payment(date(2026, 9, 20), Decimal("100.00")),
                   Payment(date(2026, 6, 20), Decimal("980.00"), lump_sum=True)],
                  [Cost(date(2026, 10, 2), Decimal("12.50"), "certified mail")],
                  StatementRules(lump_sum_discount_rate=Decimal("0.02"),
                                 late_fee_base="unpaid"))
    assert st.payoff >= 0
    shares = allocate(Decimal("1000.00"), {"a": Decimal("1.5"), "b": Decimal("0.25"),
                                           "c": Decimal("0")})
    assert sum(shares.values()) == Decimal("1000.00")
    roll = assessment_roll(Decimal("500.00"), [
        ParcelFacts("p1", Decimal("1"), "private", fixed_amount=Decimal("100.00")),
        ParcelFacts("p2", Decimal("3"), "authority", transferred=True),
        ParcelFacts("p3", Decimal("3"), "public")])
    assert roll.exempt == ["p3"]
    res = residential_exemption(ExemptionInput(
        valuation=Decimal("14000.00"), tax_rate=Decimal("0.1058"),
        residential_fraction=Decimal("0.5"), veteran_exemption=Decimal("1000.00"),
        unit_share=Decimal("0.5"), zone="rural", land_valuation=Decimal("8000.00"),
        land_area_cuerdas=Decimal("3")))
    assert res.net_tax >= 0
    for trace in (st.trace(), roll.trace, res.trace):
        assert trace.to_json()["explanation"]["es"]


def test_every_law_case_without_floats(float_trap: decimal.Context) -> None:
    """All the YAML cases again, through the JSON interface, with the trap on."""
    ran = 0
    for _, case in CASES:
        try:
            calc.run_json(case["operation"], input_text(case))
            ran += 1
        except decimal.FloatOperation:  # pragma: no cover - the failure we look for
            pytest.fail(f"float mixed into Decimal in case {case['name']!r}")
        except CalcError:
            pass
    assert ran > 100
