"""Languages: Spanish (Puerto Rico) first, English one click away; no web framework here.

The language in force is, in order: the one a block of code chose with `use_language(lang)`
(an email or a PDF in its reader's language, a command), the one the web layer resolves for the
request being served (`portal.web.locale`: `?lang=`, the user's preference, the session, the
browser), and Spanish. Commands, emails and PDFs therefore work from plain Python, without
a request.

Messages come from the compiled catalogs in `translations/` through the core's `translator`
(the same words the core's explanations use); money, dates, numbers and percentages are
formatted with Babel for es_PR / en_US (`money`, `date_long`, `date_short`, `number`,
`percent`, `days_left`), and the core's explanation steps with the same formatting.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_date as babel_format_date
from babel.numbers import format_decimal as babel_format_decimal
from babel.numbers import format_percent as babel_format_percent
from babel.numbers import (
    get_currency_symbol,
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
)
from num2words import num2words

from portal.core.explain import Localized, Rate, Step, Trace, translator
from portal.core.rules import RULES

LANGUAGES = ("es", "en")
LOCALES = {"es": "es_PR", "en": "en_US"}
LANGUAGE_NAMES = {"es": "Español", "en": "English"}
DEFAULT = "es"
LEGAL_TZ = ZoneInfo("America/Puerto_Rico")

_chosen: ContextVar[str | None] = ContextVar("portal_language", default=None)
_resolver: Callable[[], str | None] | None = None


def set_language_resolver(resolver: Callable[[], str | None] | None) -> None:
    """Where the language comes from when no block chose one (the web layer: the request's)."""
    global _resolver
    _resolver = resolver


@contextmanager
def use_language(lang: str | None) -> Iterator[str]:
    """Everything inside speaks `lang` ('es' or 'en'; anything else is Spanish)."""
    lang = lang if lang in LANGUAGES else DEFAULT
    token = _chosen.set(lang)
    try:
        yield lang
    finally:
        _chosen.reset(token)


def current_language() -> str:
    """'es' or 'en': the language in force (see the module's docstring)."""
    lang = _chosen.get()
    if lang is not None:
        return lang
    if _resolver is not None:
        lang = _resolver()
        if lang in LANGUAGES:
            return lang
    return DEFAULT


def current_locale() -> str:
    return LOCALES[current_language()]


# --- messages -----------------------------------------------------------------------------

def gettext(string: str, **variables: Any) -> str:
    """The catalog's text of `string` in the language in force, `%`-formatted with
    `variables` when given (Flask-Babel's `gettext`). Import it as `_`."""
    text = translator(current_language()).gettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """The singular or plural text for `num`, formatted with `num` and `variables`."""
    text = translator(current_language()).ngettext(singular, plural, num)
    return text % {"num": num, **variables}


def pgettext(context: str, string: str, **variables: Any) -> str:
    """`gettext` of `string` in `context` (the catalogs' msgctxt): one English word that
    reads differently in Spanish by what it names ("Revoked": a certification is
    *revocada*, a token *revocado*)."""
    text = translator(current_language()).pgettext(context, string)
    return text % variables if variables else text


def translate(message: str) -> str:
    """The catalog's text of `message`, nothing substituted (for labels rendered in bulk)."""
    return translator(current_language()).gettext(message)


fast_gettext = gettext


def template_gettext(string: str) -> str:
    """`gettext` for Jinja's i18n extension (it substitutes the variables itself)."""
    return translator(current_language()).gettext(string)


def template_ngettext(singular: str, plural: str, n: int) -> str:
    return translator(current_language()).ngettext(singular, plural, n)


def template_pgettext(context: str, string: str) -> str:
    return translator(current_language()).pgettext(context, string)


# --- formatting -------------------------------------------------------------------------------

@lru_cache(maxsize=8)
def _locale(name: str) -> Locale:
    return Locale.parse(name)


_MONEY_SAMPLES = tuple(Decimal(x) for x in ("0", "0.05", "7", "1234.5", "999999.99",
                                              "-1234567.89", "12345678901.23"))


@lru_cache(maxsize=8)
def _money_formatter(name: str) -> Callable[[Decimal], str]:
    """A formatter of USD amounts for the locale `name`: Babel's currency pattern, or an
    equivalent fast path built from the locale's Babel symbols when it gives the same text on
    every sample (es_PR and en_US: "$1,234.56"). Checked once per locale."""
    loc = _locale(name)
    pattern = loc.currency_formats["standard"]

    def babel(v: Decimal) -> str:
        return pattern.apply(v, loc, currency="USD")

    group, dec = get_group_symbol(loc), get_decimal_symbol(loc)
    minus, symbol = get_minus_sign_symbol(loc), get_currency_symbol("USD", loc)

    if (group, dec) == (",", "."):  # es_PR and en_US: Python's own grouping and point
        negative = minus + symbol

        def fast(v: Decimal) -> str:
            text = f"{v:,.2f}"
            if text[0] != "-":
                return symbol + text
            return (negative if v else symbol) + text[1:]  # -0 is "$0.00", as 0
    else:
        def fast(v: Decimal) -> str:
            text = f"{abs(v):,.2f}".replace(",", "\0").replace(".", dec).replace("\0", group)
            return f"{minus if v < 0 else ''}{symbol}{text}"

    return fast if all(fast(x) == babel(x) for x in _MONEY_SAMPLES) else babel


def money(value: Decimal | int | None) -> str:
    """An amount in dollars, formatted by Babel for the language in force ($1,234.56)."""
    if value is None:
        return "—"
    if isinstance(value, float):  # pragma: no cover - a float is a bug upstream
        raise TypeError("money must be Decimal")
    return _money_formatter(current_locale())(Decimal(value))


#: num2words' clause for no cents, dropped: "un dólar", not "un dólar con cero centavos".
_NO_CENTS = {"es": " con cero centavos", "en": ", zero cents"}


@lru_cache(maxsize=4096)
def _spoken(value: Decimal, lang: str) -> str:
    words = num2words(abs(value), lang=lang, to="currency", currency="USD")
    words = words.removesuffix(_NO_CENTS[lang])
    if value < 0:
        return translator(lang).gettext("minus %(amount)s") % {"amount": words}
    return words


def spoken_money(value: Decimal, lang: str | None = None) -> str:
    """An amount in words for a screen reader, in the language in force ("mil doscientos
    dólares con cincuenta centavos"): a voice reading "$1,200.50" in Spanish may say the
    comma. num2words spells it: Babel's CLDR data has no spelled-out rules."""
    lang = lang if lang in LANGUAGES else current_language()
    if isinstance(value, float):  # pragma: no cover - a float is a bug upstream
        raise TypeError("money must be Decimal")
    return _spoken(Decimal(value).quantize(Decimal("0.01")), lang)


@lru_cache(maxsize=4096)
def _babel_date(value: date, fmt: str, locale: str) -> str:
    return babel_format_date(value, fmt, locale=locale)


def _format_date(value: date, fmt: str) -> str:
    """Babel's date format for the language in force; an instant is shown on its Puerto Rico
    date (a naive one is taken as UTC)."""
    if isinstance(value, datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        value = aware.astimezone(LEGAL_TZ).date()
    return _babel_date(value, fmt, current_locale())


def date_long(value: date | None) -> str:
    return "—" if value is None else _format_date(value, "long")


def date_short(value: date | None) -> str:
    return "—" if value is None else _format_date(value, "medium")


def number(value: Any) -> str:
    return _babel_number(value, current_locale())


@lru_cache(maxsize=4096)
def _babel_number(value: Decimal | int, locale: str) -> str:
    return babel_format_decimal(value, locale=locale)


PERCENT = "#,##0.####%"


def percent(value: Decimal | Rate) -> str:
    v = value.value if isinstance(value, Rate) else value
    return _babel_percent(v, current_locale())


@lru_cache(maxsize=1024)
def _babel_percent(value: Decimal, locale: str) -> str:
    return babel_format_percent(value, PERCENT, locale=locale)


_ZIP = re.compile(r",?\s*\bPR\s+\d{5}(?:-\d{4})?\s*$", re.IGNORECASE)


def format_address(address: str | None, municipality: str | None) -> str:
    """A parcel's address as every page and document shows it, with its municipality once:
    "Calle Tanca 254, San Juan, PR 00901". The municipality is left out when the address
    already names it, goes before a trailing "PR 00901" when the address ends with one, and
    otherwise after the address. (The one place an address is put together.)"""
    address = (address or "").strip()
    municipality = (municipality or "").strip()
    if not municipality:
        return address
    if not address:
        return municipality
    named = municipality.casefold()
    if any(part.strip().casefold() == named or _ZIP.sub("", part).strip().casefold() == named
           for part in address.split(",")):
        return address  # one of its comma-separated parts is the municipality
    zip_code = _ZIP.search(address)
    if zip_code:
        head = address[:zip_code.start()].rstrip(", ")
        return f"{head}, {municipality}, {zip_code.group().lstrip(', ').strip()}"
    return f"{address}, {municipality}"


def today() -> date:
    from portal import clock
    return clock.today()


def days_left(value: date, on: date | None = None) -> str:
    """"12 days left", "due today", "3 days ago" in the language in force."""
    return formats().days_left(value, on or today())


#: Parameters of the core's explanation steps that are Decimal but not money.
NOT_MONEY = frozenset({"units", "total_units", "benefit_units", "share", "count", "n",
                       "number", "assessable", "exempt", "nfixed"})


def fmt_value(value: Any, name: str = "") -> str:
    """Babel formatting of one number of an explanation step (`name`: its placeholder)."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, Decimal):
        return number(value) if name in NOT_MONEY else money(value)
    if isinstance(value, Rate):
        return percent(value)
    if isinstance(value, date):
        return date_long(value)
    if isinstance(value, int):
        return number(value)
    return str(value)


class ShownStep(NamedTuple):
    """One explanation step as a page shows it: rule id, statute clause, the rule's title
    and the step's text in the reader's language with its numbers formatted."""

    rule: str
    source: str
    title: str
    text: str


_new_tuple = tuple.__new__  # a ShownStep without a Python frame (a page shows ~40)


def message_writer(text: str) -> Callable[[dict[str, Any], Callable[[str, Any], str]], str]:
    """A function of a step's parameters and a formatter (`Formats.value`) that writes
    `text` (a catalog's text with {placeholders}) as `text.format(**{name: value(name, v)})`
    does, made once per text: its literal parts and its placeholders' formatted values
    joined by code compiled for the text (`str.format` parses the text on every call: half
    a step's cost, and a parcel page writes ~40 steps). A text with anything but plain
    named placeholders (a format spec, a conversion, an index) is written by `str.format`
    itself; a placeholder without its parameter is a KeyError either way."""
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError:
        parts = [("", "", "!", None)]  # (not compiled: str.format names the error)
    if any(name is not None and (not name.isidentifier() or spec or conversion)
           for _literal, name, spec, conversion in parts):
        return lambda params, value: text.format(
            **{k: value(k, v) for k, v in params.items()})
    code = []
    for literal, name, _spec, _conversion in parts:
        if literal:
            code.append(repr(literal))
        if name is not None:
            code.append(f"value({name!r}, params[{name!r}])")
    source = "lambda params, value: " + (" + ".join(code) or "''")
    return eval(source, {"__builtins__": {}})  # noqa: S307 - literals and names only, above


class Formats:
    """`money`, `date_long`, `number` and `percent` bound to one language, looked up once: for
    code that formats many values at a time (a parcel page shows about 30 explanation steps
    with 120 numbers, and a schedule of 12 rows). Same output as the functions above."""

    __slots__ = ("tr", "lang", "_money", "_locale", "_words", "_writers")

    def __init__(self, lang: str | None = None) -> None:
        self.lang = lang if lang in LANGUAGES else current_language()
        self._locale = LOCALES[self.lang]
        self._money = _money_formatter(self._locale)
        self.tr = translator(self.lang)
        self._words: dict[str, str] = {}
        self._writers: dict[str, Callable[[dict[str, Any], Callable[[str, Any], str]], str]] = {}

    def money(self, value: Decimal | None) -> str:
        if type(value) is Decimal:
            return self._money(value)
        if value is None:
            return "—"
        return self._money(Decimal(value))

    def spoken(self, value: Decimal) -> str:
        return spoken_money(value, self.lang)

    def date_long(self, value: date | None) -> str:
        if type(value) is date:
            return _babel_date(value, "long", self._locale)
        with use_language(self.lang):
            return date_long(value)

    def number(self, value: Decimal | int | None) -> str:
        if value is None:
            with use_language(self.lang):
                return number(value)
        return _babel_number(value, self._locale)

    def percent(self, value: Decimal | Rate) -> str:
        v = value.value if isinstance(value, Rate) else value
        return _babel_percent(v, self._locale)

    def value(self, name: str, value: Any) -> str:
        """One parameter of an explanation step (`name`: its placeholder, which tells money
        from units)."""
        cls = type(value)
        if cls is Decimal:
            if name in NOT_MONEY:
                return _babel_number(value, self._locale)
            return self._money(value)
        if cls is date:
            return _babel_date(value, "long", self._locale)
        if cls is int:
            return _babel_number(value, self._locale)
        if cls is Rate:
            return _babel_percent(value.value, self._locale)
        if cls is str:  # a marked message (e.g. "the whole installment")
            return self.words(value)
        if cls is Localized:  # people's words in both languages
            return value.text(self.lang)
        with use_language(self.lang):
            return fmt_value(value, name)

    def days_left(self, value: date, on: date) -> str:
        """"12 days left", "due today", "3 days ago" (`days_left`)."""
        n = (value - on).days
        if n == 0:
            return self.tr.gettext("today")
        if n > 0:
            return self.tr.ngettext("%(num)d day left", "%(num)d days left", n) % {"num": n}
        return self.tr.ngettext("%(num)d day ago", "%(num)d days ago", -n) % {"num": -n}

    def words(self, message: str) -> str:
        """A message of the catalogs, remembered (steps repeat theirs)."""
        text = self._words.get(message)
        if text is None:
            text = self._words[message] = self.tr.gettext(message)
        return text

    def step(self, step: Step) -> ShownStep:
        """As Step.render, with Babel formatting that knows money from units by placeholder
        name: the message's text in this language written by its `message_writer`, made
        once per message."""
        write = self._writers.get(step.message)
        if write is None:
            write = self._writers[step.message] = message_writer(self.words(step.message))
        text = write(step.params, self.value)
        rule = RULES.get(step.rule)
        if rule is None:
            return _new_tuple(ShownStep, (step.rule, "", "", text))
        return _new_tuple(ShownStep, (step.rule, rule.source, self.words(rule.title), text))

    def trace(self, trace: Trace | None, rules: tuple[str, ...] | None = None
              ) -> list[ShownStep]:
        if trace is None:
            return []
        return [self.step(s) for s in trace.steps if rules is None or s.rule in rules]


_FORMATS: dict[str, Formats] = {}


def formats(lang: str | None = None) -> Formats:
    """The `Formats` of `lang` (default: the language in force), one per language."""
    lang = lang if lang in LANGUAGES else current_language()
    f = _FORMATS.get(lang)
    if f is None:
        f = _FORMATS[lang] = Formats(lang)
    return f


def render_trace(trace: Trace | None, rules: tuple[str, ...] | None = None
                 ) -> list[ShownStep]:
    """The steps of a trace (optionally only those of some rules) ready for a template."""
    return formats().trace(trace, rules)


#: The Jinja filters and globals of the pages, the emails and the PDFs.
FILTERS: dict[str, Callable[..., str]] = {
    "money": money, "date_long": date_long, "date_short": date_short, "number": number,
    "percent": percent, "days_left": days_left}
