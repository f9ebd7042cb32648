"""docs/rules/ defines every rule id the code cites, each once, and the links, paths and core
functions it names exist. Reads only files in this repository."""

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "docs" / "rules"
RULE_ID = re.compile(r"R-[ABC]\d+[a-z]?")
HEADING = re.compile(r"^#{1,6}\s+(R-[ABC]\d+[a-z]?)\b", re.MULTILINE)
LINK = re.compile(r"\]\(([^)\s]+)\)")
PATH = re.compile(r"(?:docs/rules|portal/core|tests/cases)/[\w./-]*\w")
# `portal/core/statement.py: evaluate`, `Payment`: the module, then the names in backticks.
CORE_NAMES = re.compile(r"(portal/core/[\w/]+\.py): ([\w.]+)`((?:, `[\w.]+`)*)")


def _pages() -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in sorted(RULES_DIR.glob("*.md"))}


def _defined() -> Counter:
    return Counter(i for text in _pages().values() for i in HEADING.findall(text))


def _cited_in_portal() -> dict[str, set[str]]:
    cited: dict[str, set[str]] = {}
    for path in (ROOT / "portal").rglob("*"):
        if not path.is_file() or {"vendor", "__pycache__"} & set(path.parts):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # fonts, images
        for rule_id in RULE_ID.findall(text):
            cited.setdefault(rule_id, set()).add(str(path.relative_to(ROOT)))
    return cited


def test_every_rule_id_cited_in_portal_is_defined():
    defined = _defined()
    missing = {i: sorted(files)[:3] for i, files in _cited_in_portal().items()
               if i not in defined}
    assert not missing, f"rule ids cited in portal/ without a heading in docs/rules: {missing}"


def test_no_rule_id_is_defined_twice():
    twice = sorted(i for i, n in _defined().items() if n > 1)
    assert not twice, f"rule ids defined by more than one heading in docs/rules: {twice}"


def test_links_and_paths_in_rule_pages_resolve():
    broken = []
    for page, text in _pages().items():
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:|#", target):
                continue
            if not (page.parent / target.split("#")[0]).exists():
                broken.append(f"{page.name}: ({target})")
        for path in PATH.findall(text):
            if not (ROOT / path).exists():
                broken.append(f"{page.name}: {path}")
    assert not broken, f"links or paths in docs/rules that do not exist: {broken}"


def test_core_functions_named_in_rule_pages_exist():
    unknown = []
    for page, text in _pages().items():
        for module, first, rest in CORE_NAMES.findall(" ".join(text.split())):
            source = ROOT / module
            if not source.exists():
                continue  # reported by the paths test
            code = source.read_text(encoding="utf-8")
            for name in [first, *re.findall(r"[\w.]+", rest)]:
                last = name.split(".")[-1]
                if not re.search(rf"^\s*(?:def|class)\s+{last}\b|^{last}\b\s*[:=]", code,
                                 re.MULTILINE):
                    unknown.append(f"{page.name}: {module}: {name}")
    assert not unknown, f"core names in docs/rules not defined in their module: {unknown}"
