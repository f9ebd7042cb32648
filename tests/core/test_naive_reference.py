"""The naive reference of `statement` (bench/naive_statement.py, a direct reading of RULES.md
section D) stays honest: it agrees with the core on seeded accounts and with the law cases.

The benchmark that measures the core against it is bench/core_oracle_bench.py; nothing here is
timed.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.cases import CASES, input_text

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _load(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # the bench imports the reference by this name
    spec.loader.exec_module(module)
    return module


naive = _load("naive_statement")
bench = _load("core_oracle_bench")


def test_naive_reference_and_tight_loop_agree_with_the_core_on_seeded_accounts() -> None:
    accounts = bench.make_accounts(300, seed=30)
    naive_ok, tight_ok = bench.agreement(accounts)
    assert (naive_ok, tight_ok) == (300, 300)


def test_the_generated_accounts_exercise_every_figure() -> None:
    """The agreement means something only if the accounts reach every figure and status."""
    seen: set[str] = set()
    for data in bench.make_accounts(300, seed=30):
        result = naive.statement(data)
        seen |= {k for k in bench.FIGURES if result[k] != "0.00"}
        seen |= {i["status"] for i in result["installments"]}
    assert seen >= set(bench.FIGURES) | {"paid", "delinquent", "due", "upcoming"}


def test_naive_roll_agrees_with_the_core() -> None:
    import random

    rng = random.Random(30)
    assert all(bench.roll_agrees(bench.make_roll(400, rng)) for _ in range(3))


STATEMENT_CASES = [(area, c) for area, c in CASES
                   if c.get("operation") == "statement" and "expected" in c]


@pytest.mark.parametrize(("area", "case"), STATEMENT_CASES,
                         ids=[f"{a}: {c.get('name', '?')}" for a, c in STATEMENT_CASES])
def test_naive_reference_gives_the_law_cases_figures(area: str, case: dict[str, Any]) -> None:
    got = naive.statement(json.loads(input_text(case)))
    expected = case["expected"]
    for key, value in expected.items():
        if key == "installments":
            assert [{k: i[k] for k in value[n]} for n, i in enumerate(got[key])] == value
        elif key in got:
            assert got[key] == value, key


def test_trace_json_gives_the_rendered_texts_of_every_language() -> None:
    """`Trace.to_json` formats each number once for both languages: the same texts as
    `render`, whatever the kind of parameter."""
    from datetime import date
    from decimal import Decimal

    from portal.core.explain import LANGUAGES, Localized, Rate, Trace

    trace = Trace()
    trace.add("R-A7", "late fee {rate} x {base} ({what}) = {fee}", rate=Rate(Decimal("0.05")),
              base=Decimal("1234.5"), what="the whole installment", fee=Decimal("61.73"))
    trace.add("R-A6", "{day} is closed: {reason}", day=date(2026, 10, 12),
              reason=Localized("huracán", "hurricane"))
    trace.add("R-A8", "no numbers")
    assert trace.to_json() == {"rules": ["R-A7", "R-A6", "R-A8"],
                               "explanation": {lang: trace.render(lang) for lang in LANGUAGES}}
