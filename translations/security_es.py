"""Reviewed Puerto Rico Spanish for sign-in security's messages (issue 11).

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/security_es.py
"""

ES = {
    "Someone asked to send a confirmation link for this email on the District Assessments "
    "Portal, but no account uses it. To create one, open this link:":
        "Alguien pidió que se enviara un enlace de confirmación a este correo electrónico en el "
        "Portal de Derramas del Distrito, pero ninguna cuenta lo usa. Para crear una, abra este "
        "enlace:",
}
