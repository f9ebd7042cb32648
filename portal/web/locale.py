"""The request's language, for `portal.i18n`: Flask, Flask-Babel and the Jinja templates.

The language of a request is, in order: `?lang=es|en` (that request only), the signed-in
user's preference, the session (set by the language switch), and Spanish, the portal's
language, otherwise: the browser's Accept-Language is not a choice (a visitor gets Spanish
until they choose English with the switch every page offers). The last explicit choice
wins: a switch (or a `?lang=` sign-in form) before signing in becomes the preference at
sign-in (`people.sign_in.finish_sign_in`). `<html lang>` follows it. Inside
`i18n.use_language(lang)` (an email rendered during a page) that language wins.
"""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import urlencode

from flask import Flask, g, request, session
from flask.globals import _cv_app, _cv_request
from flask_babel import Babel
from jinja2 import pass_eval_context
from markupsafe import Markup

from portal import i18n
from portal.core.explain import N_, translator
from portal.i18n import LANGUAGE_NAMES, LANGUAGES, LOCALES
from portal.web import citations, spoken


def _user_language() -> str | None:
    from flask_login import current_user
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
        lang = "es"
    g._lang = lang
    return lang


#: The offer of English to a visitor whose browser asks for it (base.html), in English
#: whatever the page's language: the words are for someone who may not read Spanish.
ENGLISH_OFFER = N_("This portal is in Spanish first. It is also in English:")
ENGLISH_OFFER_BUTTON = N_("Read it in English")


def english_offer() -> dict[str, str] | None:
    """For a visitor who has not chosen a language (nothing in the query, the session or a
    signed-in user's preference) on a Spanish page, whose browser prefers English: the words
    of the offer, in English (the page itself stays Spanish until they choose). Else None."""
    if select_language() != "es" or request.args.get("lang") or session.get("lang"):
        return None
    if _user_language() is not None:
        return None
    best = request.accept_languages.best_match(["es", "en"], default="es")
    if not best.startswith("en"):
        return None
    words = translator("en").gettext
    return {"text": words(ENGLISH_OFFER), "button": words(ENGLISH_OFFER_BUTTON)}


def request_language() -> str | None:
    """The request's language, or None outside a request (i18n's resolver). Asked dozens
    of times a page (each message, date and amount a view words): once the request's
    language is chosen it is read from `g` directly, not through the `g` and `request`
    proxies (about a third of the cost)."""
    if _cv_request.get(None) is None:
        return None
    return _cv_app.get().g.get("_lang") or select_language()


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
    rv = i18n.template_gettext(string)
    if eval_ctx.autoescape:
        rv = Markup(rv)
    if not variables and "%" not in rv:  # nothing to substitute or unescape ("%%")
        return rv
    return rv % variables


def _bound_template_gettext() -> dict[str, Any]:
    """A context processor: the templates' `_` / `gettext` bound to the catalog of the
    language in force when the template is rendered, so each of a page's fifty messages is
    one dictionary lookup. Macros imported without context use the global
    `_template_gettext`: same words. Made once per language (`_gettext_for`)."""
    return _gettext_for(i18n.current_language())


@functools.lru_cache(maxsize=8)
def _gettext_for(lang: str) -> dict[str, Any]:
    ugettext = translator(lang).gettext

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
    i18n.set_language_resolver(request_language)
    Babel(app, locale_selector=lambda: LOCALES[i18n.current_language()],
          timezone_selector=lambda: "America/Puerto_Rico")
    app.jinja_env.install_gettext_callables(gettext=i18n.template_gettext,
                                            ngettext=i18n.template_ngettext,
                                            pgettext=i18n.template_pgettext, newstyle=True)
    app.jinja_env.filters.update(i18n.FILTERS, cited=citations.cited,
                                 money_aloud=spoken.money_aloud)
    app.jinja_env.globals.update(current_language=i18n.current_language,
                                 render_trace=i18n.render_trace,
                                 LANGUAGE_NAMES=LANGUAGE_NAMES,
                                 path_without_lang=path_without_lang, LANGUAGES=LANGUAGES,
                                 english_offer=english_offer)
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext)
    app.context_processor(_bound_template_gettext)
