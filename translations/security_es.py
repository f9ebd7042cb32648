"""Reviewed Puerto Rico Spanish for sign-in security's messages.

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
    "How you checked who the person is": "Cómo verificó quién es la persona",
    "Say how you checked who the person is.": "Diga cómo verificó quién es la persona.",
    "Write at most %(max)d characters.": "Escriba %(max)d caracteres como máximo.",
    "I checked this person's identity, and they lost both their authenticator and their "
    "recovery codes":
        "Verifiqué la identidad de esta persona, y perdió tanto su aplicación de autenticación "
        "como sus códigos de recuperación",
    "Confirm that you checked the person's identity.":
        "Confirme que verificó la identidad de la persona.",
    "Turn off their two-step verification": "Desactivar su verificación en dos pasos",
    "Two-step verification was already off for this person.":
        "La verificación en dos pasos ya estaba desactivada para esta persona.",
    "Two-step verification is off for this person, and they were signed out everywhere. We told "
    "them by email.":
        "La verificación en dos pasos quedó desactivada para esta persona y se cerraron todas "
        "sus sesiones. Le avisamos por correo electrónico.",
    "Your two-step verification was turned off": "Se desactivó su verificación en dos pasos",
    "At your request, the Authority's staff turned off two-step verification for your account on "
    "the District Assessments Portal, after checking who you are. You were signed out on every "
    "device. Sign in with your password; you can turn two-step verification on again in your "
    "account.":
        "A petición suya, el personal de la Autoridad desactivó la verificación en dos pasos de "
        "su cuenta en el Portal de Derramas del Distrito, tras verificar su identidad. Se "
        "cerraron sus sesiones en todos los dispositivos. Entre con su contraseña; puede volver "
        "a activar la verificación en dos pasos en su cuenta.",
    "If you did not ask for this, call the Authority at %(phone)s at once.":
        "Si usted no lo pidió, llame de inmediato a la Autoridad al %(phone)s.",
    "Two-step verification": "Verificación en dos pasos",
    "On since %(date)s.": "Activada desde el %(date)s.",
    "If the person lost both their authenticator and their recovery codes, turn it off after "
    "checking who they are (in person or as the Authority's procedure says). They are signed "
    "out everywhere, sign in with their password, and are told by email; staff must turn it on "
    "again before any staff page opens.":
        "Si la persona perdió tanto su aplicación de autenticación como sus códigos de "
        "recuperación, desactívela después de verificar quién es (en persona o según el "
        "procedimiento de la Autoridad). Se cierran todas sus sesiones, entra con su contraseña "
        "y se le avisa por correo electrónico; el personal debe activarla de nuevo antes de "
        "abrir cualquier página del personal.",
    "Kept in the audit log with your name.": "Se guarda en el registro de auditoría con su nombre.",
    "Off.": "Desactivada.",
    "We sent %(email)s an email. If an account uses that email, the person can now see this "
    "parcel; if not, the email asks them to create one, and they will see it once they "
    "confirm their email.":
        "Le enviamos un mensaje a %(email)s. Si una cuenta usa ese correo electrónico, la "
        "persona ya puede ver esta propiedad; si no, el mensaje le pide que cree una, y la "
        "verá en cuanto confirme su correo electrónico.",
    "Create an account with this email here; once you confirm it, you will see the parcel:":
        "Cree una cuenta con este correo electrónico aquí; en cuanto lo confirme, verá la "
        "propiedad:",
}
