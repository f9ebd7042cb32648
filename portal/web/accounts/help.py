"""Help, under /ayuda, for anyone (signed in or not), linked from every page's footer: how to
reach the Authority (its address, telephone, email and hours from `portal/pdf/authority.toml`,
the one place the documents read them too), questions owners ask, the privacy notice and the
accessibility statement. The words are the templates' (templates/accounts/help/)."""

from __future__ import annotations

from datetime import date

from flask import render_template

from portal import clock
from portal.i18n import current_language
from portal.pdf.authority import issuer
from portal.web.accounts import bp

#: When the accessibility statement was last reviewed (change it with its words).
STATEMENT_PREPARED = date(2026, 12, 5)


def _help(name: str, **context):  # noqa: ANN003, ANN202
    """A help page, with the Authority as it is named today in the reader's language."""
    return render_template(f"accounts/help/{name}.html",
                           authority=issuer(clock.today(), current_language()), **context)


@bp.get("/ayuda/contacto")
def help_contact():  # noqa: ANN201
    return _help("contact")


@bp.get("/ayuda/preguntas")
def help_faq():  # noqa: ANN201
    return _help("faq")


@bp.get("/ayuda/privacidad")
def help_privacy():  # noqa: ANN201
    return _help("privacy")


@bp.get("/ayuda/accesibilidad")
def help_accessibility():  # noqa: ANN201
    return _help("accessibility", prepared=STATEMENT_PREPARED)
