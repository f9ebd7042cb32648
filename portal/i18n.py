"""Languages: Spanish (Puerto Rico) first, English one click away.

The locale of a request is, in order: `?lang=es|en` (that request only), the signed-in user's
preference, the session (set by the language switch), the browser's Accept-Language best
match of es_PR / en_US, and Spanish by default. `<html lang>` follows it.

Money, dates, numbers and percentages are formatted with Babel for es_PR / en_US through the
Jinja filters registered here (`money`, `date_long`, `date_short`, `number`, `percent`,
`days_left`), and the core's explanation steps are rendered with the same formatting.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple
from urllib.parse import urlencode

from babel.dates import format_date as babel_format_date
from babel.numbers import format_decimal as babel_format_decimal
from babel.numbers import format_percent as babel_format_percent
from babel.numbers import (
    get_currency_symbol,
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
)
from flask import Flask, g, has_request_context, request, session
from flask_babel import (
    Babel,
    format_currency,
    format_date,
    format_decimal,
    format_percent,
    get_translations,
)
from flask_babel import get_locale as babel_locale
from jinja2 import pass_eval_context
from markupsafe import Markup

from portal.core.explain import Rate, Step, Trace, translator
from portal.core.rules import RULES

LANGUAGES = ("es", "en")
LOCALES = {"es": "es_PR", "en": "en_US"}
LANGUAGE_NAMES = {"es": "Español", "en": "English"}


def _user_language() -> str | None:
    try:
        from flask_login import current_user
    except ImportError:  # pragma: no cover
        return None
    if current_user and getattr(current_user, "is_authenticated", False):
        lang = getattr(current_user, "language", None)
        if lang in LANGUAGES:
            return lang
    return None


def select_language() -> str:
    """The two-letter language of this request (see the module's docstring)."""
    cached = g.get("_lang")
    if cached:
        return cached
    lang = request.args.get("lang")
    if lang not in LANGUAGES:
        lang = _user_language()
    if lang is None and session.get("lang") in LANGUAGES:
        lang = session["lang"]
    if lang is None:
        best = request.accept_languages.best_match(["es_PR", "en_US", "es", "en"])
        lang = best[:2] if best else "es"
    g._lang = lang
    return lang


def select_locale() -> str:
    return LOCALES[select_language()]


def current_language() -> str:
    """'es' or 'en' for the request being served ('es' outside a request)."""
    if has_request_context():
        return _request_cache()["language"]
    try:
        loc = babel_locale()
    except RuntimeError:
        return "es"
    return loc.language if loc is not None and loc.language in LANGUAGES else "es"


# --- formatting -------------------------------------------------------------------------------

def _request_cache() -> dict[str, Any]:
    """Per-request cache of the locale's translations and number pattern (a page formats
    hundreds of amounts; looking them up once is what keeps it fast). Keyed by the locale
    object, so `force_locale` (emails in the reader's language) gets its own entry."""
    store = g._get_current_object().__dict__  # one proxy lookup, not three (hot path)
    ctx = store.get("_flask_babel")
    loc = getattr(ctx, "babel_locale", None) if ctx is not None else None
    if loc is None:
        loc = babel_locale()
    caches = store.get("_i18n_cache")
    if caches is None:
        caches = store["_i18n_cache"] = {}
    cache = caches.get(id(loc))
    if cache is None or cache["locale"] is not loc:
        cache = caches[id(loc)] = {
            "locale": loc,
            "translations": get_translations(),
            "money": _money_formatter(loc),
            "decimal": loc.decimal_formats[None] if loc is not None else None,
            "language": loc.language if loc is not None and loc.language in LANGUAGES
            else "es",
        }
    return cache


_MONEY_FORMATTERS: dict[str, Any] = {}
_MONEY_SAMPLES = tuple(Decimal(x) for x in ("0", "0.05", "7", "1234.5", "999999.99",
                                              "-1234567.89", "12345678901.23"))


def _money_formatter(loc: Any) -> Any:
    """A formatter of USD amounts for `loc`: Babel's currency pattern, or an equivalent fast
    path built from the locale's Babel symbols when it gives the same text on every sample
    (es_PR and en_US: "$1,234.56"). Checked once per locale."""
    key = str(loc)
    if key not in _MONEY_FORMATTERS:
        pattern = loc.currency_formats["standard"]

        def babel(v: Decimal) -> str:
            return pattern.apply(v, loc, currency="USD")

        group, dec = get_group_symbol(loc), get_decimal_symbol(loc)
        minus, symbol = get_minus_sign_symbol(loc), get_currency_symbol("USD", loc)

        def fast(v: Decimal) -> str:
            text = f"{abs(v):,.2f}"
            if (group, dec) != (",", "."):
                text = text.replace(",", "\0").replace(".", dec).replace("\0", group)
            return f"{minus if v < 0 else ''}{symbol}{text}"

        ok = all(fast(x) == babel(x) for x in _MONEY_SAMPLES)
        _MONEY_FORMATTERS[key] = fast if ok else babel
    return _MONEY_FORMATTERS[key]


def money(value: Decimal | int | None) -> str:
    """An amount in dollars, formatted by Babel for the request's locale ($1,234.56)."""
    if value is None:
        return "—"
    if isinstance(value, float):  # pragma: no cover - a float is a bug upstream
        raise TypeError("money must be Decimal")
    if not has_request_context():
        return format_currency(Decimal(value), "USD")
    return _request_cache()["money"](Decimal(value))


@lru_cache(maxsize=4096)
def _babel_date(value: date, fmt: str, locale: str) -> str:
    return babel_format_date(value, fmt, locale=locale)


def _format_date(value: date, fmt: str) -> str:
    """Babel's date format for the request's locale, remembered (a parcel page shows dozens
    of dates, the same few across pages; a date has no time zone to convert)."""
    if not has_request_context() or isinstance(value, datetime):
        return format_date(value, fmt)
    return _babel_date(value, fmt, str(_request_cache()["locale"]))


def date_long(value: date | None) -> str:
    return "—" if value is None else _format_date(value, "long")


def date_short(value: date | None) -> str:
    return "—" if value is None else _format_date(value, "medium")


def number(value: Any) -> str:
    if not has_request_context():
        return format_decimal(value)
    cache = _request_cache()
    if cache["decimal"] is None:  # pragma: no cover - no locale
        return format_decimal(value)
    # Babel's format_decimal(value), remembered: explanations show the same few numbers
    # (days, units, counts) over and over.
    return _babel_number(value, str(cache["locale"]))


@lru_cache(maxsize=4096)
def _babel_number(value: Decimal | int, locale: str) -> str:
    return babel_format_decimal(value, locale=locale)


def percent(value: Decimal | Rate) -> str:
    v = value.value if isinstance(value, Rate) else value
    if not has_request_context():
        return format_percent(v, PERCENT)
    return _babel_percent(v, str(_request_cache()["locale"]))


PERCENT = "#,##0.####%"


@lru_cache(maxsize=1024)
def _babel_percent(value: Decimal, locale: str) -> str:
    return babel_format_percent(value, PERCENT, locale=locale)


def today() -> date:
    from portal import clock
    return clock.today()


def days_left(value: date, on: date | None = None) -> str:
    """"12 days left", "due today", "3 days ago" in the current language."""
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


class Formats:
    """`money`, `date_long`, `number` and `percent` bound to the request's locale, looked up
    once: for code that formats many values at a time (a parcel page shows about 30
    explanation steps with 120 numbers, and a schedule of 12 rows). Same output as the
    filters."""

    __slots__ = ("tr", "_money", "_locale", "_words")

    def __init__(self) -> None:
        if has_request_context():
            cache = _request_cache()
            self._money = cache["money"]
            self._locale = str(cache["locale"])
            self.tr = translator(cache["language"])
        else:
            self._money = self._locale = None
            self.tr = translator(current_language())
        self._words: dict[str, str] = {}

    def money(self, value: Decimal | None) -> str:
        if type(value) is Decimal and self._money is not None:
            return self._money(value)
        return money(value)

    def date_long(self, value: date | None) -> str:
        if type(value) is date and self._locale is not None:
            return _babel_date(value, "long", self._locale)
        return date_long(value)

    def number(self, value: Decimal | int | None) -> str:
        if value is not None and self._locale is not None:
            return _babel_number(value, self._locale)
        return number(value)

    def percent(self, value: Decimal | Rate) -> str:
        v = value.value if isinstance(value, Rate) else value
        if self._locale is not None:
            return _babel_percent(v, self._locale)
        return percent(value)

    def value(self, name: str, value: Any) -> str:
        """One parameter of an explanation step (`name`: its placeholder, which tells money
        from units)."""
        cls = type(value)
        if self._locale is not None:
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
            return self.tr.gettext(value)
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
        """A message of the catalogs, remembered for the request (steps repeat theirs)."""
        text = self._words.get(message)
        if text is None:
            text = self._words[message] = self.tr.gettext(message)
        return text

    def step(self, step: Step) -> ShownStep:
        """As Step.render, with Babel formatting that knows money from units by placeholder
        name."""
        value = self.value
        text = self.words(step.message).format(
            **{k: value(k, v) for k, v in step.params.items()})
        rule = RULES.get(step.rule)
        if rule is None:
            return ShownStep(step.rule, "", "", text)
        return ShownStep(step.rule, rule.source, self.words(rule.title), text)

    def trace(self, trace: Trace | None, rules: tuple[str, ...] | None = None
              ) -> list[ShownStep]:
        if trace is None:
            return []
        return [self.step(s) for s in trace.steps if rules is None or s.rule in rules]


def formats() -> Formats:
    """The request's `Formats` (a new one outside a request)."""
    if not has_request_context():
        return Formats()
    cache = _request_cache()
    f = cache.get("formats")
    if f is None:
        f = cache["formats"] = Formats()
    return f


def render_trace(trace: Trace | None, rules: tuple[str, ...] | None = None
                 ) -> list[ShownStep]:
    """The steps of a trace (optionally only those of some rules) ready for a template."""
    return formats().trace(trace, rules)


def _gettext(message: str) -> str:
    if not has_request_context():
        return get_translations().ugettext(message)
    return _request_cache()["translations"].ugettext(message)


translate = _gettext  # for Python code that renders many labels (same catalogs, cached)


def fast_gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's `gettext`, with the request's catalog looked up once per request (the
    views word dozens of labels per page). Import it as `_` so `pybabel extract` finds the
    messages."""
    text = _gettext(string)
    return text % variables if variables else text


def _ngettext(singular: str, plural: str, n: int) -> str:
    if not has_request_context():
        return get_translations().ungettext(singular, plural, n)
    return _request_cache()["translations"].ungettext(singular, plural, n)


def path_without_lang() -> str:
    """This page's path and query, less `lang` (where the language switch comes back to)."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    return request.path + ("?" + urlencode(args) if args else "")


@pass_eval_context
def _template_gettext(eval_ctx: Any, string: str, **variables: Any) -> str:
    """Jinja's newstyle `gettext` / `_` (jinja2.ext._make_new_gettext) in one call instead
    of three nested `Context.call`s: the page calls it dozens of times. It takes the eval
    context, not the context: a context function called in a loop costs a derived context
    per call."""
    rv = _gettext(string)
    if eval_ctx.autoescape:
        rv = Markup(rv)
    if not variables and "%" not in rv:  # nothing to substitute or unescape ("%%")
        return rv
    return rv % variables


def _bound_template_gettext() -> dict[str, Any]:
    """A context processor: the templates' `_` / `gettext` bound to the catalog of the
    locale in force when the template is rendered (the page's, or an email's under
    `force_locale`), so each of a page's fifty messages is one dictionary lookup. Macros
    imported without context use the global `_template_gettext`: same words."""
    if not has_request_context():
        return {}
    ugettext = _request_cache()["translations"].ugettext

    @pass_eval_context
    def gettext_(eval_ctx: Any, string: str, **variables: Any) -> str:
        rv = ugettext(string)
        if eval_ctx.autoescape:
            rv = Markup(rv)
        if not variables and "%" not in rv:
            return rv
        return rv % variables

    return {"_": gettext_, "gettext": gettext_}


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale,
          timezone_selector=lambda: "America/Puerto_Rico")
    # The same catalogs as Flask-Babel's own callables, looked up once per request.
    app.jinja_env.install_gettext_callables(gettext=_gettext, ngettext=_ngettext,
                                            newstyle=True)
    app.jinja_env.filters.update(money=money, date_long=date_long, date_short=date_short,
                                 number=number, percent=percent, days_left=days_left)
    app.jinja_env.globals.update(current_language=current_language,
                                 render_trace=render_trace, LANGUAGE_NAMES=LANGUAGE_NAMES,
                                 path_without_lang=path_without_lang,
                                 LANGUAGES=LANGUAGES)
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext)
    app.context_processor(_bound_template_gettext)
