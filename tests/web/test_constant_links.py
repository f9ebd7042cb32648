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


def test_links_with_ids_are_flasks(app):  # noqa: ANN001
    """A link whose values are all ids is built from a pattern made once: the link Flask
    builds, for any ids, each script root its own; any other value is Flask's own."""
    ours = app.jinja_env.globals["url_for"]
    calls = [("accounts.parcel", {"parcel_id": 7}), ("accounts.parcel", {"parcel_id": 123456}),
             ("payments.choose", {"parcela": 42}),
             ("roll.issued_notice_pdf", {"parcel_id": 3, "notice_id": 91}),
             ("roll.issued_notice_pdf", {"notice_id": 5, "parcel_id": 8}),
             ("accounts.statement_pdf", {"parcel_id": 9, "lang": "en"}),
             ("accounts.parcel", {"parcel_id": True})]
    for script_root in ("", "/portal"):
        with app.test_request_context("/", environ_overrides={"SCRIPT_NAME": script_root}):
            for endpoint, values in calls:
                for _ in range(2):  # made, then from the pattern
                    assert ours(endpoint, **values) == url_for(endpoint, **values)
    with app.test_request_context("/", environ_overrides={"SCRIPT_NAME": "/portal"}):
        assert ours("accounts.parcel", parcel_id=7) == "/portal/propiedad/7"
