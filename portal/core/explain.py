"""Explanations: every computed amount can say which rule produced it and from what numbers.

Texts are English msgids marked with the no-op `N_` so `pybabel extract` puts them in the
catalogs under translations/; they are rendered with the standard library's `gettext` from the
same compiled catalogs the web pages use (DESIGN.md 5). A step keeps its raw numbers, so a
renderer with richer formatting (Babel, in the web layer) can present them its own way.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

from portal.core.money import fmt_display

TRANSLATIONS_DIR = Path(__file__).resolve().parents[2] / "translations"
LANGUAGES = ("es", "en")


def N_(message: str) -> str:
    """Mark a message for extraction; it is translated when rendered, not here."""
    return message


@lru_cache(maxsize=8)
def translator(lang: str) -> gettext.NullTranslations:
    return gettext.translation("messages", localedir=str(TRANSLATIONS_DIR), languages=[lang],
                               fallback=True)


@dataclass(frozen=True)
class Rate:
    """A rate to show as a percentage in explanations (0.05 -> "5%")."""

    value: Decimal

    def __str__(self) -> str:
        pct = (self.value * 100).normalize()
        return f"{pct:f}%"


@dataclass(frozen=True)
class Localized:
    """A text given in both languages by people (a closed day's reason staff typed): shown
    in the reader's language, never looked up in the catalogs."""

    es: str
    en: str

    def text(self, lang: str) -> str:
        return (self.es if lang == "es" else self.en) or self.es or self.en


def default_format(value: Any) -> str:
    if isinstance(value, Decimal):
        return fmt_display(value)
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


@dataclass(frozen=True)
class Step:
    """One explained figure: the rule id, a message with {placeholders}, and its numbers."""

    rule: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def render(self, lang: str, fmt: Callable[[Any], str] = default_format) -> str:
        tr = translator(lang)
        text = tr.gettext(self.message)
        # A text parameter is itself a marked message (e.g. "the whole installment").
        return text.format(**{k: tr.gettext(v) if isinstance(v, str)
                              else v.text(lang) if isinstance(v, Localized) else fmt(v)
                              for k, v in self.params.items()})


@dataclass
class Trace:
    """The explanation of a result: the rules applied, in order, with their steps."""

    steps: list[Step] = field(default_factory=list)

    def add(self, rule: str, message: str, **params: Any) -> None:
        self.steps.append(Step(rule, message, params))

    def extend(self, other: Trace) -> None:
        self.steps.extend(other.steps)

    @property
    def rules(self) -> list[str]:
        seen: list[str] = []
        for s in self.steps:
            if s.rule not in seen:
                seen.append(s.rule)
        return seen

    def render(self, lang: str) -> list[str]:
        return [f"{s.rule}: {s.render(lang)}" for s in self.steps]

    def to_json(self) -> dict[str, Any]:
        """The rule ids and the explanation in every language: the same texts as `render`,
        each number formatted once for all languages (the format is the same in both)."""
        tables = [(lang, translator(lang)) for lang in LANGUAGES]
        explanation: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}
        for s in self.steps:
            numbers = {k: default_format(v) for k, v in s.params.items()
                       if not isinstance(v, (str, Localized))}
            for lang, tr in tables:
                params = numbers if len(numbers) == len(s.params) else {
                    **numbers, **{k: tr.gettext(v) if isinstance(v, str) else v.text(lang)
                                  for k, v in s.params.items() if k not in numbers}}
                explanation[lang].append(f"{s.rule}: {tr.gettext(s.message).format(**params)}")
        return {"rules": self.rules, "explanation": explanation}
