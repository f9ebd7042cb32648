"""Explanations: every computed amount can say which rule produced it and from what numbers.

Texts are English msgids marked with the no-op `N_` so `pybabel extract` puts them in the
catalogs under translations/; they are rendered with the standard library's `gettext` from the
same compiled catalogs the web pages use (DESIGN.md 5). A step keeps its raw numbers, so a
renderer with richer formatting (Babel, in the web layer) can present them its own way.
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

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


#: A compiled line: the line's text with the step's numbers (texts by name) written in.
Line = Callable[[dict[str, str]], str]
#: The texts of the messages already seen, in every language of LANGUAGES (each message is
#: looked up in the catalogs once per process, not once per statement). Bounded: a text
#: parameter may be typed by people (a cost's description).
_TEXTS: dict[str, tuple[str, ...]] = {}
#: "RULE: " + the message's text, in every language: the step's line, a format string.
_LINES: dict[tuple[str, str], tuple[Line, ...]] = {}
#: The same with a step's words written in, by (rule, message, its words' items).
_WORDED: dict[tuple[Any, ...], tuple[Line, ...]] = {}
#: The lines of a step whose numbers are only days and whole numbers, by (rule, message,
#: its parameters' items): the same in every account of a district (Trace.to_json).
_RECURRING: dict[tuple[Any, ...], tuple[str, ...]] = {}
_RATES: dict[Decimal, str] = {}  # a Rate's value: its text ("5%")
_DAYS: dict[date, str] = {}  # a date: its text (isoformat; the same few days recur)
_MAX_TEXTS = 4096


def texts(message: str) -> tuple[str, ...]:
    """The message in every language of LANGUAGES, from the catalogs, remembered."""
    found = _TEXTS.get(message)
    if found is None:
        if len(_TEXTS) >= _MAX_TEXTS:
            _TEXTS.clear()
        found = _TEXTS[message] = tuple(translator(lang).gettext(message)
                                        for lang in LANGUAGES)
    return found


class _FormatLine:
    """A line `str.format` must render (a placeholder with a format spec, say): called with
    the numbers as the compiled ones are."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __call__(self, params: dict[str, str]) -> str:
        return self.text.format_map(params)


@lru_cache(maxsize=64)
def _joiner(count: int) -> Callable[..., Line]:
    """A maker of lines with `count` placeholders: given the count + 1 literal texts and the
    count names, a function that writes the numbers between the texts in one f-string (one
    BUILD_STRING: about a quarter of the cost of %-formatting the line). Its source holds
    only indexes (`_t0`, `_n0`...); the texts and names are the maker's arguments, never
    code."""
    texts = [f"_t{k}" for k in range(count + 1)]
    names = [f"_n{k}" for k in range(count)]
    body = "".join(f"{{_t{k}}}{{numbers[_n{k}]}}" for k in range(count)) + f"{{_t{count}}}"
    source = f"lambda {', '.join(texts + names)}: lambda numbers: f'{body}'"
    return eval(source, {"__builtins__": {}})  # noqa: S307 - indexes only, see above


def compile_line(text: str, words: dict[str, str] | None = None) -> Line:
    """A `str.format` template with plain {name} placeholders as a function of the numbers
    that writes them in (`_joiner`); any other kind through `str.format_map`. `words`:
    placeholders whose text is already known, written in (a step's translated words)."""
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError:
        return _FormatLine(text)
    literals = [""]
    names = []
    for literal, name, spec, conversion in parts:
        literals[-1] += literal
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            return _FormatLine(text)
        if words is not None and name in words:
            literals[-1] += words[name]
        else:
            names.append(name)
            literals.append("")
    return _joiner(len(names))(*literals, *names)


def _lines(rule: str, message: str) -> tuple[Line, ...]:
    """"RULE: " + the message's text in every language, compiled (`compile_line`)."""
    found = _LINES.get((rule, message))
    if found is None:
        if len(_LINES) >= _MAX_TEXTS:
            _LINES.clear()
        prefix = rule.replace("{", "{{").replace("}", "}}") + ": "
        found = _LINES[rule, message] = tuple(compile_line(prefix + text)
                                              for text in texts(message))
    return found


def _worded_lines(rule: str, message: str, words: dict[str, Any]
                  ) -> tuple[Line, ...] | None:
    """The step's lines with its words (text parameters: a marked message, translated, or
    a Localized text) written in for each language, remembered by the words; None when a
    line is not compiled (`_FormatLine`: the words are then given with the numbers)."""
    key = (rule, message, *words.items())
    found = _WORDED.get(key)
    if found is None:
        if any(isinstance(line, _FormatLine) for line in _lines(rule, message)):
            return None
        if len(_WORDED) >= _MAX_TEXTS:
            _WORDED.clear()
        prefix = rule.replace("{", "{{").replace("}", "}}") + ": "
        found = _WORDED[key] = tuple(
            compile_line(prefix + text, {k: texts(v)[n] if isinstance(v, str)
                                         else v.text(LANGUAGES[n]) for k, v in words.items()})
            for n, text in enumerate(texts(message)))
    return found


def _day(day: date) -> str:
    """date.isoformat, remembered (a dictionary look-up costs a fifth of the call)."""
    text = _DAYS.get(day)
    if text is None:
        if len(_DAYS) >= _MAX_TEXTS:
            _DAYS.clear()
        text = _DAYS[day] = day.isoformat()
    return text


def _number(value: Any) -> str:
    """default_format, with a Rate's text remembered by value."""
    cls = value.__class__
    if cls is Decimal:
        return fmt_display(value)
    if cls is date:
        return value.isoformat()
    if cls is Rate and value.value:  # (0 and -0 are equal keys but print "0%" and "-0%")
        text = _RATES.get(value.value)
        if text is None:
            if len(_RATES) >= _MAX_TEXTS:
                _RATES.clear()
            text = _RATES[value.value] = str(value)
        return text
    return default_format(value)


class Step(NamedTuple):
    """One explained figure: the rule id, a message with {placeholders}, and its numbers."""

    rule: str
    message: str
    params: dict[str, Any] = {}  # noqa: RUF012 - never changed: a step is immutable

    def render(self, lang: str, fmt: Callable[[Any], str] = default_format) -> str:
        tr = translator(lang)
        text = tr.gettext(self.message)
        # A text parameter is itself a marked message (e.g. "the whole installment").
        return text.format(**{k: tr.gettext(v) if isinstance(v, str)
                              else v.text(lang) if isinstance(v, Localized) else fmt(v)
                              for k, v in self.params.items()})


_new_tuple = tuple.__new__  # a Step without a Python frame (Trace.add is a hot path)


@dataclass
class Trace:
    """The explanation of a result: the rules applied, in order, with their steps."""

    steps: list[Step] = field(default_factory=list)

    def add(self, rule: str, message: str, **params: Any) -> None:
        self.steps.append(_new_tuple(Step, (rule, message, params)))

    def extend(self, other: Trace) -> None:
        self.steps.extend(other.steps)

    @property
    def rules(self) -> list[str]:
        return list(dict.fromkeys([s.rule for s in self.steps]))

    def render(self, lang: str) -> list[str]:
        return [f"{s.rule}: {s.render(lang)}" for s in self.steps]

    def to_json(self) -> dict[str, Any]:
        """The rule ids and the explanation in every language: the same texts as `render`,
        from each message's text looked up once per process (`texts`, `_lines`), each number
        formatted once for all languages (the format is the same in both)."""
        explanation: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}
        outs = tuple(explanation.values())
        indexes = range(len(LANGUAGES))
        line_cache, worded_cache, rates, days = _LINES, _WORDED, _RATES, _DAYS
        rules: dict[str, None] = {}
        recurring = _RECURRING
        for rule, message, params in self.steps:
            rules[rule] = None
            # A step whose numbers are only days and whole numbers (an installment's number,
            # due date and last timely day) recurs in every account of a district: its lines
            # are remembered whole. (Only int and date: 1 == Decimal(1) == True as keys.)
            for v in params.values():
                if v.__class__ is not int and v.__class__ is not date:
                    key = None
                    break
            else:
                key = (rule, message, *params.items())
                found = recurring.get(key)
                if found is not None:
                    for out, line in zip(outs, found):
                        out.append(line)
                    continue
            lines = line_cache.get((rule, message)) or _lines(rule, message)
            numbers: dict[str, str] = {}
            words: dict[str, Any] | None = None
            for k, v in params.items():
                cls = v.__class__
                if cls is Decimal:  # fmt_display's usual case inline: cents below $1,000
                    text = str(v)
                    numbers[k] = ("$" + text if len(text) <= 6 and text[-3:-2] == "."
                                  and text[0] != "-" else fmt_display(v))
                elif cls is date:
                    numbers[k] = days.get(v) or _day(v)
                elif cls is int:
                    numbers[k] = str(v)
                elif cls is Rate:
                    numbers[k] = rates.get(v.value) or _number(v)
                elif cls is str or cls is Localized or isinstance(v, (str, Localized)):
                    if words is None:
                        words = {}
                    words[k] = v
                else:
                    numbers[k] = _number(v)
            if words is not None:
                worded = (worded_cache.get((rule, message, *words.items()))
                          or _worded_lines(rule, message, words))
                if worded is not None:
                    lines, words = worded, None
            if words is None:
                if key is not None:  # (only days and whole numbers: see above)
                    found = tuple(line(numbers) for line in lines)
                    if len(recurring) >= _MAX_TEXTS:
                        recurring.clear()
                    recurring[key] = found
                    for out, line in zip(outs, found):
                        out.append(line)
                    continue
                for out, line in zip(outs, lines):
                    out.append(line(numbers))
                continue
            for n in indexes:
                lang = LANGUAGES[n]
                outs[n].append(lines[n]({
                    **numbers, **{k: texts(v)[n] if isinstance(v, str) else v.text(lang)
                                  for k, v in words.items()}}))
        return {"rules": list(rules), "explanation": explanation}
