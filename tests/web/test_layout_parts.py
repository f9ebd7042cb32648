"""The layout's parts kept once rendered (`layout_part` in templates/base.html: the head's
links, the header, the menu, the footer) are what the page would render without them, for
every role, language and page, whoever asked for them first; a form's CSRF token is never
kept (each page signs its own)."""

from __future__ import annotations

import re

from tests.support.pages import login

TOKEN = re.compile(r'(name="csrf_token"[^>]*value=")[^"]+"|(value=")[^"]+("[^>]*name="csrf_token")')
PAGES = ("/", "/?lang=en", "/mis-propiedades", "/mis-propiedades?lang=en", "/cuenta",
         "/ayuda/contacto", "/ayuda/contacto?lang=en", "/cuenta/entrar")
WHO = ("anonymous", "owner", "lessee", "lender", "staff")


def _without_tokens(html: str) -> str:
    return TOKEN.sub(lambda m: (m.group(1) or m.group(2)) + 'TOKEN"' + (m.group(3) or ""), html)


def _pages(app, clients, fresh: bool) -> dict[tuple[str, str], tuple[int, str]]:  # noqa: ANN001
    seen = {}
    for who in WHO:
        for path in PAGES:
            if fresh:
                app.extensions["layout_parts"].clear()
            r = clients[who].get(path)
            seen[who, path] = (r.status_code, _without_tokens(r.get_data(as_text=True)))
    return seen


def test_kept_parts_are_the_parts_rendered_afresh(demo_app):  # noqa: ANN001
    clients = {who: demo_app.test_client() if who == "anonymous" else login(demo_app, who)
               for who in WHO}
    fresh = _pages(demo_app, clients, fresh=True)
    kept = _pages(demo_app, clients, fresh=False)  # every role after every other
    assert len(demo_app.extensions["layout_parts"]) > 20  # kept: roles, languages, pages
    for key, (status, html) in fresh.items():
        assert kept[key] == (status, html), key
    # what tells them apart is there: the menu of each, the page it marks, the language
    assert 'href="/cuenta/entrar" class="portal-nav__link"' in fresh["anonymous", "/"][1]
    assert [p for p in WHO if '/arrendamientos/"' in fresh[p, "/"][1]] == ["lessee"]
    assert 'aria-current="page"' in fresh["owner", "/mis-propiedades"][1]
    assert 'aria-current="page"' not in fresh["owner", "/"][1]
    assert fresh["owner", "/?lang=en"][1] != fresh["owner", "/"][1]


def test_each_page_signs_its_own_csrf_token(demo_app):  # noqa: ANN001
    """The header's forms are outside the kept parts: each page's token is its own and
    Flask-WTF's, which the language switch takes."""
    client = login(demo_app, "owner")
    pages = [client.get("/").get_data(as_text=True) for _ in range(2)]
    tokens = [re.findall(r'name="csrf_token" value="([^"]+)"', page) for page in pages]
    assert all(len(set(t)) == 1 and t for t in tokens)  # one token a page, in each form
    r = client.post("/idioma", data={"lang": "en", "next": "/", "csrf_token": tokens[1][0]})
    assert r.status_code in (302, 303)
    r = client.post("/idioma", data={"lang": "en", "next": "/", "csrf_token": "x" + tokens[1][0]})
    assert r.status_code == 400
