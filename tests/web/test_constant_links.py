"""The layout's constant links (pages and static files named with no other value) are built
once per script root by the templates' `url_for`, and are the links Flask builds."""

from __future__ import annotations

import re

from flask import url_for

LINKS = re.compile(r'(?:href|src|action)="([^"]+)"')


def _links(client, **environ) -> list[str]:  # noqa: ANN001
    r = client.get("/", environ_overrides=environ)
    assert r.status_code == 200
    return LINKS.findall(r.get_data(as_text=True))


def test_constant_links_are_flasks(app, client):  # noqa: ANN001
    links = _links(client)
    with app.test_request_context("/"):
        expected = {url_for("accounts.home"), url_for("people.sign_in"),
                    url_for("accounts.help_privacy"),
                    url_for("static", filename="portal.css")}
    assert expected <= set(links)
    assert _links(client) == links  # the second page, from what was built: the same


def test_each_script_root_has_its_own_links(client):  # noqa: ANN001
    plain = _links(client)
    mounted = _links(client, SCRIPT_NAME="/portal")
    assert "/static/portal.css" in plain and "/portal/static/portal.css" in mounted
    assert "/portal/static/portal.css" not in _links(client)
    assert all(link.startswith(("/portal/", "#")) for link in mounted), mounted
