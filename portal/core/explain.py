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


#: The texts of the messages already seen, in every language of LANGUAGES (each message is
#: looked up in the catalogs once per process, not once per statement). Bounded: a text
#: parameter may be typed by people (a cost's description).
_TEXTS: dict[str, tuple[str, ...]] = {}
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


def _day(day: date) -> str:
    """date.isoformat, remembered (a dictionary look-up costs a fifth of the call)."""
    text = _DAYS.get(day)
    if text is None:
        if len(_DAYS) >= _MAX_TEXTS:
            _DAYS.clear()
        text = _DAYS[day] = day.isoformat()
    return text


def _money(value: Decimal) -> str:
    """fmt_display's usual case inline: cents below $1,000 printed as they are."""
    text = str(value)
    if len(text) <= 6 and text[-3:-2] == "." and text[0] != "-":
        return "$" + text
    return fmt_display(value)


def _rate(value: Rate) -> str:
    return _RATES.get(value.value) or _number(value)


def _localized(value: Localized) -> tuple[str, ...]:
    return tuple(value.text(lang) for lang in LANGUAGES)


#: How a step's parameter of each kind is written: a number the same in every language; a
#: word (a marked message, "the whole installment", or a Localized text) in each language.
_WRITERS: dict[type, Callable[[Any], Any]] = {Decimal: _money, date: _day,
                                              int: str, Rate: _rate, str: texts,
                                              Localized: _localized}
_WORDS = (str, Localized)
Render = Callable[[dict[str, Any]], "tuple[str, ...] | None"]
#: A step's lines in every language as one function of its parameters, by (rule, message).
_RENDERERS: dict[tuple[str, str], Render] = {}


def _no_render(params: dict[str, Any]) -> None:
    """The renderer of a message `_renderer` cannot compile: its steps are rendered by
    `Step.render`."""
    return None


def _renderer(rule: str, message: str, params: dict[str, Any]) -> Render:
    """The step's lines in every language as one function of its parameters (remembered
    in `_RENDERERS`): it reads each parameter once, checks its kind is the one compiled
    for (else it answers None), writes it once (`_WRITERS`) and puts it between each
    language's texts in one f-string per language ("RULE: " + the message's text from the
    catalogs). Its source holds only indexes: the texts, names and writers are the maker's
    arguments, never code. A parameter of another kind (None, say) is not remembered: the
    next step of the message may compile. A message without parameters or with a
    placeholder `str.format` must read (a format spec) gets `_no_render`."""
    names = list(params)
    kinds = [v.__class__ for v in params.values()]
    if any(kind not in _WRITERS for kind in kinds):
        return _no_render
    layouts = []  # for each language: its literal texts and the indexes of its parameters
    prefix = rule.replace("{", "{{").replace("}", "}}") + ": "
    for text in texts(message):
        literals, order = [""], []
        try:
            parts = list(string.Formatter().parse(prefix + text))
        except ValueError:
            parts = [("", "", "!", None)]  # (not compiled: str.format names the error)
        for literal, name, spec, conversion in parts:
            literals[-1] += literal
            if name is None:
                continue
            if name not in names or spec or conversion:
                names = []
                break
            order.append(names.index(name))
            literals.append("")
        layouts.append((literals, order))
    if not names:
        found = _no_render
    else:
        found = _compile(names, kinds, layouts)
    if len(_RENDERERS) >= _MAX_TEXTS:
        _RENDERERS.clear()
    _RENDERERS[rule, message] = found
    return found


def _compile(names: list[str], kinds: list[type], layouts: list[tuple[list[str], list[int]]]
             ) -> Render:
    """The renderer `_renderer` describes, from its parameters' names and kinds and, for
    each language, the literal texts and the index of the parameter after each."""
    count = len(names)

    def written(i: int, n: int) -> str:  # a word has a text in each language
        return f"_s{i}[{n}]" if kinds[i] in _WORDS else f"_s{i}"
    lines = "".join(
        "f'" + "".join(f"{{_t{n}_{k}}}{{{written(i, n)}}}" for k, i in enumerate(order))
        + f"{{_t{n}_{len(order)}}}', " for n, (_literals, order) in enumerate(layouts))
    source = "\n".join([
        "def make(_names, _kinds, _writers, _texts):",
        f"    {''.join(f'_n{i}, ' for i in range(count))}= _names",
        f"    {''.join(f'_k{i}, ' for i in range(count))}= _kinds",
        f"    {''.join(f'_w{i}, ' for i in range(count))}= _writers",
        *(f"    {''.join(f'_t{n}_{k}, ' for k in range(len(literals)))}= _texts[{n}]"
          for n, (literals, _order) in enumerate(layouts)),
        "    def render(p):",
        *(f"        _v{i} = p.get(_n{i})" for i in range(count)),
        "        if " + " or ".join(f"_v{i}.__class__ is not _k{i}" for i in range(count))
        + ":",
        "            return None",
        *(f"        _s{i} = _w{i}(_v{i})" for i in range(count)),
        f"        return ({lines})",
        "    return render"])
    scope: dict[str, Any] = {"__builtins__": {}}
    exec(source, scope)  # noqa: S102 - indexes only, see `_renderer`
    return scope["make"](names, kinds, [_WRITERS[kind] for kind in kinds],
                         [literals for literals, _order in layouts])


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
        each step's lines written by its message's renderer (`_renderer`: the message's
        texts looked up once per process, each number written once for all languages, the
        format being the same in both); a step it does not render, by `Step.render`."""
        lines = []  # each step's lines, a tuple (one line in each language)
        rules: dict[str, None] = {}
        renderers = _RENDERERS
        for step in self.steps:
            rule, message, params = step
            rules[rule] = None
            render = renderers.get((rule, message)) or _renderer(rule, message, params)
            found = render(params)
            if found is None:
                found = tuple(f"{rule}: {step.render(lang)}" for lang in LANGUAGES)
            lines.append(found)
        columns = list(zip(*lines)) or [()] * len(LANGUAGES)  # each language's lines
        explanation = {lang: list(column) for lang, column in zip(LANGUAGES, columns)}
        return {"rules": list(rules), "explanation": explanation}
