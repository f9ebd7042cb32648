"""Reviewed Puerto Rico Spanish for the notices that publishing the roll sends by itself (the
staff's roll, job and notices pages) and for the declared closed day named in the documents
and emails (J8; R-A4, R-A6, R-A11, RULES.md Conventions).

Terms (docs/GLOSSARY.md): registro (the roll, as "Registro de derramas"), avisos, trabajo
(a background job), publicar, enviar; último día para pagar a tiempo (last timely day), la
Junta, día declarado cerrado. Apply as translations/web_es.py says (scripts/fill_catalog.py).
"""

ES = {
    # web/staff/jobs_view.py, templates/staff/roll.html, job.html, roll_notices.html
    "Send the roll's notices": "Enviar los avisos del registro",
    "Notices' job %(id)s": "Trabajo de los avisos %(id)s",
    "Publishing the roll started the job that sends its notices:":
        "Al publicar el registro comenzó el trabajo que envía sus avisos:",
    "The roll's notices": "Los avisos del registro",
    "The notices' job:": "El trabajo de los avisos:",
    "Publishing the roll sends its notices: a job prints every notice for the mail, in its "
    "payer's language, with a new access code for each parcel no payer has claimed online, "
    "and emails each owner (and each lessee who pays) with an account. Sending again prints "
    "and emails nothing twice: it sends only what was not sent (a job that stopped, a payer "
    "who claimed a parcel online since).":
        "Al publicar el registro se envían sus avisos: un trabajo imprime cada aviso para el "
        "correo, en el idioma de quien paga, con un código de acceso nuevo para cada propiedad "
        "que nadie ha reclamado en línea, y envía un correo electrónico a cada dueño (y a cada "
        "arrendatario que paga) que tiene cuenta. Al enviarlos de nuevo no se imprime ni se "
        "envía nada dos veces: solo se envía lo que faltaba (un trabajo que se detuvo, quien paga "
        "una propiedad y la reclamó en línea después).",
    # services/closed_days.py (the demand letter, the statement), templates/email/
    # assessment_notice.txt
    "The demand's last day to pay": "El último día para pagar el requerimiento",
    "To pay it on time, pay it by %(date)s.":
        "Para pagarlo a tiempo, páguelo a más tardar el %(date)s.",
}
