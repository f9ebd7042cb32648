"""Templates compiled once per language, their constant messages already translated.

A template's `_("literal")` (or `gettext("literal")`) gives the same words on every render
in a language: the catalog's translation of the literal, as `Markup` when the template
escapes (the context processor's `_`, `portal.web.locale`). Each such call cost a
`Context.call`, a catalog lookup and an escape on every render (about 90 on the parcel
page). `Environment` compiles a template once per language, the language in force when it
is first asked for (`i18n.current_language()`, the one its render uses: `render_template`
asks for it and renders it in the same language), and folds each call whose message is a
literal into its translation, taken from the catalogs at that moment (`translator(lang)`,
the same catalogs the call reads: they stay the only source):
- `_("text")` becomes the translation, with "%%" turned into "%" as the call does;
- `_("text %(name)s", name=...)` becomes the translation `%` its variables (`Markup`'s `%`
  escapes them, as the call does).
A template that binds `_` or `gettext` itself (`{% set _ = ... %}` in a macro) is compiled
as written. A literal joined (`~`) only to other constants is left as a call: Jinja would
join the constants at compile time into a plain string and escape it, where the call's
`Markup` is written as it is. Templates made from a string (`from_string`) are compiled as
written. `tests/web/test_template_messages.py` compares every template's output with the
calls and without, in both languages.
"""

from __future__ import annotations

import weakref
from contextvars import ContextVar
from typing import Any

from flask.templating import Environment as FlaskEnvironment
from jinja2 import nodes

from portal import i18n
from portal.core.explain import translator

#: The names of the templates' gettext (the context processor's and Jinja's i18n globals).
_GETTEXT = frozenset(("_", "gettext"))
#: The language a template is being compiled for (None: compile it as written).
_COMPILING: ContextVar[str | None] = ContextVar("compiling_for", default=None)


class Environment(FlaskEnvironment):
    """Flask's Jinja environment, keeping one compiled template per (name, language): its
    cache holds Jinja's 400 templates for each language."""

    def __init__(self, app: Any, **options: Any) -> None:
        options.setdefault("cache_size", 400 * len(i18n.LANGUAGES))
        super().__init__(app, **options)

    def _load_template(self, name: str, globals: Any) -> Any:  # noqa: A002 - Jinja's name
        # Jinja's own (environment.py, 3.1), with the language in the cache's key.
        if self.loader is None:
            raise TypeError("no loader for this environment specified")
        lang = i18n.current_language()
        cache_key = (weakref.ref(self.loader), name, lang)
        if self.cache is not None:
            template = self.cache.get(cache_key)
            if template is not None and (not self.auto_reload or template.is_up_to_date):
                if globals:
                    template.globals.update(globals)
                return template
        token = _COMPILING.set(lang)
        try:
            template = self.loader.load(self, name, self.make_globals(globals))
        finally:
            _COMPILING.reset(token)
        if self.cache is not None:
            self.cache[cache_key] = template
        return template

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        lang = _COMPILING.get()
        if lang is not None:
            fold(tree, translator(lang).gettext)
        return tree


def fold(tree: nodes.Template, gettext: Any) -> None:
    """Replace, in place, each `_("literal", ...)` of the template with its translation by
    `gettext` (see the module's docstring); nothing when the template binds `_` itself."""
    if any(n.name in _GETTEXT and n.ctx != "load" for n in tree.find_all(nodes.Name)):
        return
    _fold_children(tree, gettext)


def _fold_children(node: nodes.Node, gettext: Any) -> None:
    for field in node.fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            for k, child in enumerate(value):
                if isinstance(child, nodes.Node):
                    value[k] = _folded(child, node, gettext)
        elif isinstance(value, nodes.Node):
            setattr(node, field, _folded(value, node, gettext))


def _folded(node: nodes.Node, parent: nodes.Node, gettext: Any) -> nodes.Node:
    _fold_children(node, gettext)
    message = _literal_message(node)
    if message is None:
        return node
    if isinstance(parent, nodes.Concat) and all(
            isinstance(n, nodes.Const) or _literal_message(n) is not None
            for n in parent.nodes):
        return node  # joined only to constants: see the module's docstring
    text = gettext(message)
    if not node.kwargs:  # the call's `rv % variables` only when "%" is in it
        text = text % {} if "%" in text else text
        return nodes.MarkSafeIfAutoescape(nodes.Const(text, lineno=node.lineno),
                                          lineno=node.lineno)
    variables = nodes.Dict([nodes.Pair(nodes.Const(k.key, lineno=k.lineno), k.value,
                                       lineno=k.lineno) for k in node.kwargs],
                           lineno=node.lineno)
    return nodes.Mod(nodes.MarkSafeIfAutoescape(nodes.Const(text, lineno=node.lineno),
                                                lineno=node.lineno),
                     variables, lineno=node.lineno)


def _literal_message(node: nodes.Node) -> str | None:
    """The message of `_("literal", name=value...)`, None for any other node."""
    if not (isinstance(node, nodes.Call) and isinstance(node.node, nodes.Name)
            and node.node.name in _GETTEXT and len(node.args) == 1
            and isinstance(node.args[0], nodes.Const) and isinstance(node.args[0].value, str)
            and node.dyn_args is None and node.dyn_kwargs is None):
        return None
    return node.args[0].value
