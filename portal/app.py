"""The Flask application factory: `create_app(test_config=None)`.

Configuration comes from `portal.config.settings()` (the environment, with safe defaults;
the same function every command, the migrations and the mail read): see `portal/config.py`
for the variables (`SECRET_KEY`, `DATABASE_URL`, `MAIL_*`, `OUTBOX_DIR`, `PORTAL_INSTANCE`,
`SESSION_COOKIE_SECURE`, `REDIS_URL`, `PORTAL_BASE_URL`).

Every absolute URL the app builds (`url_for(..., _external=True)`, a redirect's) is on
PORTAL_BASE_URL, whatever Host the request named; a request for a host that is not
PORTAL_BASE_URL's, `localhost` or `127.0.0.1` is refused with a 400 (TRUSTED_HOSTS).
Sessions are kept in the database (`portal.web.session_store`).
"""

from __future__ import annotations

import functools
import logging
from collections import ChainMap
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
from flask import Flask, Request, has_request_context, request
from jinja2.runtime import Context, new_context
from markupsafe import Markup
from werkzeug.datastructures import Headers
from werkzeug.routing import MapAdapter
from werkzeug.serving import WSGIRequestHandler

from portal import config, i18n
from portal.config import TEMPLATES
from portal.operations import settings as operations_settings
from portal.web import template_messages

log = logging.getLogger(__name__)


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
       "form-action 'self'; frame-ancestors 'none'")


#: The headers every response carries unless its view set its own (a PDF's, a sandboxed
#: upload's Content-Security-Policy).
SECURITY_HEADERS = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
)
HSTS = ("Strict-Transport-Security", "max-age=31536000; includeSubDomains")


_SECURITY_NAMES = tuple((k.lower(), (k, v)) for k, v in SECURITY_HEADERS)
_SECURITY_LOWER = frozenset(name for name, _ in _SECURITY_NAMES)
_ALL_SECURITY = [kv for _, kv in _SECURITY_NAMES]
Headers(_ALL_SECURITY)  # checked once here (no newline in a value): added as they are below


def _security_headers(app: Flask) -> None:
    @app.after_request
    def headers(response):  # noqa: ANN001 - Flask response
        """The security headers the response has not set, in one pass over its headers.
        They are constants checked at import, so they join the response's header list as
        they are (`Headers.extend` checks each value again, per response: ~20 µs)."""
        h = response.headers
        present = {k.lower() for k, _ in h.items()}
        if "server" in present:
            h.pop("Server", None)  # no server name or version from the app (QuietHandler)
        add = _ALL_SECURITY if present.isdisjoint(_SECURITY_LOWER) else [
            kv for name, kv in _SECURITY_NAMES if name not in present]
        if request.is_secure and HSTS[0].lower() not in present:
            add = [*add, HSTS]  # a browser ignores it over plain http; only HTTPS sends it
        if "cache-control" not in present and h.get("Content-Type", "").startswith(
                "text/html"):
            add = [*add, ("Cache-Control", "no-store")]  # personal figures: no shared cache
        items = getattr(h, "_list", None)
        if isinstance(items, list):
            items.extend(add)
        else:  # a Headers without its list (another Werkzeug): its own checks
            h.extend(add)
        return response


def _constant_links(app: Flask) -> None:
    """The templates' `url_for`, with the links that are the same on every page (the header's
    and footer's, the static files': an endpoint with no values but a file's name) built once
    per script root rather than on every render, and the links whose values are all ids
    (`parcel_id=...`: the parcel page has about fifteen) built from a pattern made once per
    script root, endpoint and names (`_id_pattern`); any other call is Flask's own."""
    built: dict[tuple[str, str, str | None], str] = {}
    patterns: dict[tuple[str, str, tuple[str, ...]], str | None] = {}
    flask_url_for = app.url_for

    def url_for(endpoint: str, **values: Any) -> str:
        if endpoint.startswith(".") or not has_request_context():
            return flask_url_for(endpoint, **values)
        if values and values.keys() != {"filename"}:
            if not all(type(v) is int and v > 0 for v in values.values()):
                return flask_url_for(endpoint, **values)
            names = tuple(values)
            found = (request.script_root, endpoint, names)
            pattern = patterns.get(found, "")
            if pattern == "":
                pattern = _id_pattern(flask_url_for, endpoint, names)
                if len(patterns) < 1000:
                    patterns[found] = pattern
            if pattern is None:
                return flask_url_for(endpoint, **values)
            return pattern.format(*values.values())
        key = (request.script_root, endpoint, values.get("filename"))
        url = built.get(key)
        if url is None:
            url = flask_url_for(endpoint, **values)
            if len(built) < 1000:  # bounded whatever a proxy sends as the script root
                built[key] = url
        return url

    app.jinja_env.globals["url_for"] = url_for


def _id_pattern(flask_url_for: Any, endpoint: str, names: tuple[str, ...]) -> str | None:
    """The link of `endpoint` with these id values as a `str.format` pattern ("/propiedad/{0}"):
    built by Flask with stand-in ids, each found once in the link; kept only when it gives
    what Flask builds for other ids (None: Flask builds each such link itself)."""
    stand_in = {k: 900_000_001 + i for i, k in enumerate(names)}
    pattern = flask_url_for(endpoint, **stand_in).replace("{", "{{").replace("}", "}}")
    for i, k in enumerate(names):
        if pattern.count(str(stand_in[k])) != 1:
            return None
        pattern = pattern.replace(str(stand_in[k]), f"{{{i}}}")
    other = {k: 7_000_003 + 10 * i for i, k in enumerate(names)}
    return pattern if pattern.format(*other.values()) == flask_url_for(endpoint, **other) \
        else None


def _layout_parts(app: Flask) -> None:
    """`{% call layout_part(name, *key) %}...{% endcall %}` in templates/base.html: the part
    rendered once per language, script root, name and key, then the same markup on every
    page that asks for it (the header's links, the menu for a role, the footer: ~30 message
    lookups and links a page). Bounded: past 2,000 parts, a part is rendered each time."""
    parts: dict[tuple[Any, ...], Markup] = app.extensions.setdefault("layout_parts", {})

    def layout_part(*key: Any, caller: Any) -> Markup:
        full = (i18n.current_language(), request.script_root, *key)
        html = parts.get(full)
        if html is None:
            html = Markup(caller())
            if len(parts) < 2000:
                parts[full] = html
        return html

    app.jinja_env.globals["layout_part"] = layout_part


class _Template(jinja2.Template):
    """Jinja's template, whose context starts from the environment's globals as they are
    now rather than through the `ChainMap` Jinja keeps per template (its own globals over
    the environment's): copying that ChainMap's ~40 names is Python work on every render
    (~30 µs a page), copying the environment's dict is one C call. The same names and
    values: only a template given globals of its own keeps the ChainMap."""

    def new_context(self, vars: dict[str, Any] | None = None, shared: bool = False,
                    locals: Any = None) -> Context:  # noqa: A002 - Jinja's name
        scope = self.globals
        if isinstance(scope, ChainMap) and len(scope.maps) == 2 and not scope.maps[0] \
                and scope.maps[1] is self.environment.globals:
            scope = scope.maps[1]
        return new_context(self.environment, self.name, self.blocks, vars, shared, scope,
                           locals)


class Portal(Flask):
    """Flask, with the URLs it builds in a request bound to PORTAL_BASE_URL, and its
    templates compiled once per language with their constant messages translated
    (`web.template_messages`)."""

    jinja_environment = template_messages.Environment

    #: The hooks and views known to be plain functions (`ensure_sync`); bounded.
    _sync_functions: set[Any]

    def ensure_sync(self, func: Any) -> Any:
        """Flask's, with its answer kept for each plain function: Flask asks whether each
        before- and after-request hook and the view is a coroutine function on every
        request (~20 `inspect` calls a page); a function's answer never changes."""
        known = self.__dict__.setdefault("_sync_functions", set())
        try:
            if func in known:
                return func
        except TypeError:  # unhashable: Flask's own answer
            return super().ensure_sync(func)
        synced = super().ensure_sync(func)
        if synced is func and len(known) < 10_000:
            known.add(func)
        return synced

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        adapter = super().create_url_adapter(request)  # refuses an untrusted Host (400)
        if request is not None and adapter is not None:
            adapter.server_name, adapter.url_scheme = _host_and_scheme(
                str(self.config.get("PORTAL_BASE_URL") or config.DEFAULT_BASE_URL))
        return adapter


@functools.lru_cache(maxsize=8)
def _host_and_scheme(base_url: str) -> tuple[str, str]:
    """PORTAL_BASE_URL's host and scheme, split once (every request binds its URLs to them)."""
    base = urlsplit(base_url)
    return base.netloc, base.scheme or "http"


class QuietHandler(WSGIRequestHandler):
    """`portal serve`'s request handler: `Server: portal`, no server or Python version."""

    def version_string(self) -> str:
        return "portal"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the portal. `test_config` overrides anything read from the environment."""
    test_config = dict(test_config or {})
    checked = operations_settings.check()  # production refuses to start on a bad setting
    given = test_config.pop("INSTANCE_PATH", None)
    instance = Path(given).resolve() if given else config.instance_path()
    app = Portal("portal", instance_path=str(instance), template_folder=str(TEMPLATES),
                static_folder=str(Path(__file__).parent / "static"))
    app.jinja_env.template_class = _Template  # before any template is loaded
    instance.mkdir(parents=True, exist_ok=True)
    app.config.update(config.settings(instance=instance,
                                      with_key="SECRET_KEY" not in test_config))
    if test_config:
        app.config.update(test_config)
    app.config["PORTAL_BASE_URL"] = app.config.get("PORTAL_BASE_URL") or config.DEFAULT_BASE_URL
    if "TRUSTED_HOSTS" not in test_config:
        app.config["TRUSTED_HOSTS"] = config.trusted_hosts(app.config["PORTAL_BASE_URL"])

    if checked.production and not test_config.get("SKIP_SCHEMA_CHECK"):
        from portal.operations import readiness
        problems = readiness.schema_problems(app.config["DATABASE_URL"])
        if problems:
            raise operations_settings.ConfigurationError(problems)

    from portal import domains  # noqa: F401 - every job kind registered
    from portal.web import errors, extensions, locale, session_store, staff_access
    from portal.web.ops import requests as ops_requests
    ops_requests.init_app(app)
    from portal.web.converters import IdConverter
    app.url_map.converters["id"] = IdConverter
    locale.init_app(app)
    extensions.init_app(app)
    session_store.init_app(app)
    errors.init_app(app)
    staff_access.init_app(app)
    _security_headers(app)
    _constant_links(app)
    _layout_parts(app)
    _register_blueprints(app)
    return app


def _register_blueprints(app: Flask) -> None:
    """One blueprint per package of `portal/web/`, defined in the package's `__init__`: its
    route modules are imported first (each puts its routes on it), then it is registered."""
    import portal.web.accounts.account  # the account page (/cuenta)
    import portal.web.accounts.help  # help pages (/ayuda)
    import portal.web.accounts.leases
    import portal.web.accounts.lookup
    import portal.web.accounts.notice_emails  # emailed notices: one-click unsubscribe
    import portal.web.accounts.paperless  # paperless notices
    import portal.web.accounts.routes
    import portal.web.backoffice.reports  # the reports and exports (staff)
    import portal.web.backoffice.search  # the staff search
    import portal.web.collections.attachments  # R-A14, R-C1–R-C8
    import portal.web.collections.certificates  # J10
    import portal.web.collections.demands  # J9
    import portal.web.crim_api.routes  # the CRIM's file of plan payments (R-B16)
    import portal.web.exemptions.bulk  # the review in bulk
    import portal.web.exemptions.certifications  # J5
    import portal.web.exemptions.changes  # J6
    import portal.web.exemptions.coop_elections  # R-B4: the elections, corrected by staff
    import portal.web.exemptions.plan_file  # R-B16: the CRIM's file, defaults
    import portal.web.jobs.mail_queue  # the mail outbox (staff)
    import portal.web.jobs.routes
    import portal.web.lenders.batches
    import portal.web.lenders.bills  # the bill files
    import portal.web.lenders.intents
    import portal.web.lenders.loans
    import portal.web.lenders.organisation
    import portal.web.lenders.portfolio_files  # the portfolio kept by the bank
    import portal.web.lenders.second_step
    import portal.web.lenders.webhooks
    import portal.web.lenders_api.acquisitions  # J7: the lenders' API
    import portal.web.lenders_api.batches
    import portal.web.lenders_api.certifications
    import portal.web.lenders_api.portfolio  # the portfolio kept by the bank, its bill file
    import portal.web.lenders_api.reference
    import portal.web.lenders_api.routes
    import portal.web.lenders_api.webhooks
    import portal.web.ops.routes
    import portal.web.payments.autopay  # autopay
    import portal.web.payments.guest  # paying without an account
    import portal.web.payments.routes
    import portal.web.people.audit
    import portal.web.people.person
    import portal.web.people.routes
    import portal.web.people.staff_roles
    import portal.web.people.two_factor
    import portal.web.people.two_factor_reset
    import portal.web.reminders.routes  # reminders and the calendar
    import portal.web.roll.board_parameters
    import portal.web.roll.budgets
    import portal.web.roll.notices
    import portal.web.roll.roll
    import portal.web.roll.roll_import
    import portal.web.roll.roll_review
    web = portal.web
    for package in (web.accounts, web.people, web.lenders, web.roll, web.jobs, web.exemptions,
                    web.payments, web.collections, web.lenders_api, web.crim_api, web.ops,
                    web.backoffice, web.reminders):
        app.register_blueprint(package.bp)
    from portal.i18n import formats
    from portal.web.present import authority_phone, full_address, status_css, status_label
    app.jinja_env.globals.update(status_label=status_label, status_css=status_css,
                                 full_address=full_address, formats=formats,
                                 authority_phone=authority_phone)
    # The parts a page repeats many times (the explanations, the parcel page's schedule and
    # "what you owe", the status badge, a deadline) are written in Python and called as
    # globals (portal/web/fragments.py): a Jinja macro call cost a derived context each.
    from portal.web.fragments import GLOBALS as FRAGMENTS
    app.jinja_env.globals.update(FRAGMENTS)
