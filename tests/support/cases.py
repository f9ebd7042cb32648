"""The law cases of tests/cases/*.yaml (RULES.md D), read as `portal calc` reads its input."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

CASES_DIR = Path(__file__).resolve().parents[1] / "cases"


class _CaseLoader(yaml.SafeLoader):
    """YAML read as JSON would be: dates stay ISO strings and only true/false are booleans
    (YAML 1.1 would read `2026-07-01` as a date and a key `on:` as True)."""


_CaseLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers
            if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_CaseLoader.add_implicit_resolver("tag:yaml.org,2002:bool",
                                  re.compile(r"^(?:true|false)$"), list("tf"))


def load_cases() -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        with path.open(encoding="utf-8") as fh:
            data = yaml.load(fh, Loader=_CaseLoader)  # noqa: S506 - a SafeLoader subclass
        assert isinstance(data, list), f"{path.name}: a list of cases"
        for case in data:
            cases.append((path.stem, case))
    return cases


CASES = load_cases()


def input_text(case: dict[str, Any]) -> str:
    if "input_json" in case:
        return case["input_json"]
    return json.dumps(case["input"])
