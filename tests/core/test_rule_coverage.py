"""Every rule of RULES.md is implemented in a function (or class) whose docstring names its
rule id and its statute clause."""

import importlib
import inspect
import pkgutil
import re

import portal.core
from portal.core.rules import RULES

DOMAINS = ("accounts", "people", "jobs", "payments", "exemptions", "roll", "collections",
           "lenders")
CLAUSE = re.compile(r"(LPRA §|Exoneración residencial|\((?:[a-g])\))")


def _documented_objects():
    """The core's functions and classes, and the domains' services' (the rules of a procedure,
    such as R-B13's filing date or R-B21's forwarding, are kept where the procedure runs)."""
    domains = [importlib.import_module(f"portal.{d}") for d in DOMAINS]
    for info in [*pkgutil.iter_modules(portal.core.__path__, "portal.core."),
                 *(i for d in domains
                   for i in pkgutil.walk_packages(d.__path__, d.__name__ + "."))]:
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, lambda o: inspect.isfunction(o)
                                         or inspect.isclass(o)):
            if obj.__module__ != module.__name__:
                continue
            yield obj
            if inspect.isclass(obj):
                for _, meth in inspect.getmembers(obj, inspect.isfunction):
                    yield meth


def test_every_rule_has_a_documented_implementation():
    docs = [inspect.getdoc(o) or "" for o in _documented_objects()]
    missing = []
    for rule_id in RULES:
        pattern = re.compile(rf"{re.escape(rule_id)}(?!\d)")
        if not any(pattern.search(d) and CLAUSE.search(d) for d in docs):
            missing.append(rule_id)
    assert missing == [], f"rules without a function naming id and clause: {missing}"


def test_rule_table_matches_rules_md_ids():
    expected = ([f"R-A{i}" for i in range(1, 20)] + [f"R-B{i}" for i in range(1, 22)]
                + [f"R-C{i}" for i in range(1, 9)])
    assert sorted(RULES) == sorted(expected)
