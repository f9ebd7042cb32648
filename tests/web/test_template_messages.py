"""Templates compiled once per language with their constant messages translated
(`portal.web.template_messages`): the same output as the `_()` calls they replace, in both
languages, from the catalogs."""

from __future__ import annotations

import re

import pytest
from flask.templating import Environment as PlainEnvironment
from jinja2 import DictLoader

from portal.core.explain import translator
from portal.i18n import use_language
from portal.web import locale, template_messages
from tests.support.demo import parcel_ids
from tests.support.pages import login

#: Sources that exercise every case of the fold (and the ones it must leave as calls).
SOURCES = {
    "plain.html": '<p>{{ _("Your account today") }}</p><p>{{ _("Payment history") }}</p>',
    "quote.html": '{{ _("This year\'s assessment") }} '
                  '{{ gettext("Who else can see this parcel") }}',
    "args.html": '{{ _("Parcel %(catastro)s", catastro=c) }} '
                 '{{ _("Fiscal year %(label)s", label="<b>") }}',
    "percent.html": '{{ _("%(count)s installments", count=3) }} {{ _("100%% sure") }}',
    "joined.html": '{{ _("This year\'s assessment") ~ ": " ~ _("Pay-off amount") }}|'
                   '{{ _("This year\'s assessment") ~ x }}',
    "set.html": '{% set l_a, l_b = _("Date"), _("Amount") %}{{ l_a }} {{ l_b }} '
                '{{ why(_("Status")) }}',
    "filtered.html": '{{ _("Status")|upper }} {{ [_("Date"), x]|join("; ") }}',
    "bound.html": '{% set _ = [].append(1) %}{{ gettext("Status") }}',
    "words.txt": '{{ _("Your account today") }} {{ _("Parcel %(catastro)s", catastro=c) }} & <',
}
CSRF = re.compile(r'name="csrf_token" value="[^"]+"')
CONTEXT = {"c": "040-000-<1>-07", "x": "<x> & 'y'", "why": lambda m: f"[{m}]"}


def _environments(app):  # noqa: ANN001, ANN202
    """(folding, as written): each with the app's globals and filters."""
    made = []
    for cls in (template_messages.Environment, PlainEnvironment):
        env = cls(app, loader=DictLoader(SOURCES), autoescape=app.jinja_env.autoescape)
        env.globals.update(app.jinja_env.globals)
        env.filters.update(app.jinja_env.filters)
        made.append(env)
    return made


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("name", sorted(SOURCES))
def test_folded_templates_write_what_the_calls_write(app, name: str, lang: str):  # noqa: ANN001
    folding, plain = _environments(app)
    with app.test_request_context("/"), use_language(lang):
        context = {**CONTEXT, **locale._gettext_for(lang)}  # the context processor's `_`
        assert folding.get_template(name).render(context) == \
            plain.get_template(name).render(context)


def test_each_language_has_its_own_template_from_the_catalogs(app):  # noqa: ANN001
    """Compiled once a language (the constant in the compiled code: no call left), with the
    catalog's words; asked again, the same template."""
    folding, _plain = _environments(app)
    out, made = {}, {}
    with app.test_request_context("/"):
        for lang in ("es", "en", "es"):
            with use_language(lang):
                template = folding.get_template("plain.html")
                assert made.setdefault(lang, template) is template
                out[lang] = template.render(CONTEXT)
    es, en = (translator(x).gettext("Your account today") for x in ("es", "en"))
    assert es != en
    assert out["es"].startswith(f"<p>{es}</p>") and out["en"].startswith(f"<p>{en}</p>")
    assert made["es"] is not made["en"]


def test_a_template_that_binds_underscore_is_compiled_as_written(app):  # noqa: ANN001
    folding, _plain = _environments(app)
    with app.test_request_context("/"), use_language("en"):
        source = folding.loader.get_source(folding, "bound.html")[0]
        tree = folding.parse(source)
        template_messages.fold(tree, lambda m: "FOLDED")
        assert "FOLDED" not in str(tree)
        tree = folding.parse(SOURCES["plain.html"])
        template_messages.fold(tree, lambda m: "FOLDED")
        assert "FOLDED" in str(tree)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_pages_are_the_same_with_the_calls(demo_app, monkeypatch, lang: str):  # noqa: ANN001
    """The owner's and the lessee's parcel pages, the dashboard and the home page: the same
    bytes from templates compiled as written (the fold turned off, every template compiled
    again)."""
    owner, lessee = login(demo_app, "owner"), login(demo_app, "lessee")
    ids = parcel_ids(demo_app)
    pages = [(owner, "/"), (owner, "/mis-propiedades")] + \
        [(owner, f"/propiedad/{p}") for p in ids["owner"]] + \
        [(lessee, f"/propiedad/{p}") for p in ids["lessee"]]

    def render_all() -> list[str]:
        out = []
        for client, path in pages:
            r = client.get(f"{path}?lang={lang}")
            assert r.status_code == 200
            out.append(CSRF.sub("", r.get_data(as_text=True)))  # signed with the time
        return out

    folded = render_all()
    monkeypatch.setattr(template_messages, "fold", lambda tree, gettext: None)
    demo_app.jinja_env.cache.clear()
    assert render_all() == folded


def test_every_template_in_both_languages_fits_the_cache(app):  # noqa: ANN001
    """Compiled once a language, the templates are kept: the cache holds each of them twice
    (a full cache would compile a template again and again)."""
    assert app.jinja_env.cache.capacity >= 2 * len(app.jinja_env.list_templates())
