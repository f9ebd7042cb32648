"""Reviewed Puerto Rico Spanish for the assessment notices of a published roll (J8; R-A4,
R-A5, R-A16): the printed notice (aviso de derrama), its emails and the staff's notices page
under /personal/tasacion/<roll>/avisos.

Terms (docs/GLOSSARY.md): derrama (assessment), propiedad (parcel, never "parcela"), plazo
(installment), año fiscal, la Junta, enmienda / enmendada, crédito, dueño, arrendatario,
código de acceso, reclamar la propiedad (claim it online). Apply as translations/web_es.py
says (scripts/fill_catalog.py).
"""

ES = {
    # services/roll_notices.py: the notice
    "Public land not transferred is not assessed; this parcel is.":
        "Los terrenos públicos no traspasados no pagan derrama; esta propiedad sí la paga.",
    "First installment due": "Primer plazo vence",
    "Annual assessment before the amendment": "Derrama anual antes de la enmienda",
    "Amended annual assessment": "Derrama anual enmendada",
    "Increase": "Aumento",
    "Decrease": "Reducción",
    "The difference is spread over the unpaid installments due after %(date)s; paid "
    "installments do not change.":
        "La diferencia se reparte entre los plazos no pagados que vencen después del "
        "%(date)s; los plazos pagados no cambian.",
    "Credit to the account": "Crédito a la cuenta",
    "What no unpaid installment could absorb is credited to the account.":
        "Lo que ningún plazo no pagado pudo absorber se acredita a la cuenta.",
    "Annual assessment": "Derrama anual",
    "The Board's budget for fiscal year %(year)s is paid by the parcels that benefit from "
    "it. This notice tells you this parcel's share and when each installment is due.":
        "El presupuesto de la Junta para el año fiscal %(year)s lo pagan las propiedades que "
        "se benefician de él. Este aviso le indica la parte que le toca a esta propiedad y "
        "cuándo vence cada plazo.",
    "The Board amended its budget for fiscal year %(year)s. This notice tells you this "
    "parcel's new amount and its new installments.":
        "La Junta enmendó su presupuesto para el año fiscal %(year)s. Este aviso le indica "
        "la nueva cantidad de esta propiedad y sus nuevos plazos.",
    "To see this parcel online and pay: create an account at %(claim)s, then type the "
    "parcel number %(catastro)s and the access code %(code)s. Keep this notice: the code is "
    "printed only here.":
        "Para ver esta propiedad en línea y pagar: cree una cuenta en %(claim)s y luego "
        "escriba el número de catastro %(catastro)s y el código de acceso %(code)s. Guarde "
        "este aviso: el código solo aparece aquí.",
    "The access code to claim this parcel online was printed on the notice mailed on "
    "%(date)s.":
        "El código de acceso para reclamar esta propiedad en línea se imprimió en el aviso "
        "enviado por correo el %(date)s.",
    "An access code to claim this parcel online at %(claim)s was sent before and still "
    "works. If you do not have it, ask the Authority for a new one.":
        "Ya se le envió un código de acceso para reclamar esta propiedad en línea en "
        "%(claim)s, y sigue siendo válido. Si no lo tiene, pídale uno nuevo a la Autoridad.",
    "See this parcel, its installments and how to pay at %(link)s.":
        "Vea esta propiedad, sus plazos y cómo pagar en %(link)s.",
    "Every amount is computed from the law over the account's facts; the notes at the end "
    "name the rule and the statute behind each.":
        "Cada cantidad se calcula según la ley con los datos de la cuenta; las notas al final "
        "indican la regla y la disposición legal de cada una.",
    "New installment schedule": "Nuevo calendario de plazos",
    "Installment schedule before the amendment": "Calendario de plazos antes de la enmienda",
    "Amended assessment notice": "Aviso de derrama enmendada",
    "Assessment notice": "Aviso de derrama",
    "Fiscal year %(year)s": "Año fiscal %(year)s",
    # templates/email/assessment_notice.txt
    "Amended assessment for parcel %(catastro)s, fiscal year %(fiscal_year)s":
        "Derrama enmendada de la propiedad %(catastro)s, año fiscal %(fiscal_year)s",
    "Assessment for parcel %(catastro)s, fiscal year %(fiscal_year)s":
        "Derrama de la propiedad %(catastro)s, año fiscal %(fiscal_year)s",
    "Hello, %(name)s:": "Saludos, %(name)s:",
    "The Board amended its budget: the assessment of parcel %(catastro)s for fiscal year "
    "%(fiscal_year)s is now %(amount)s (it was %(previous)s).":
        "La Junta enmendó su presupuesto: la derrama de la propiedad %(catastro)s para el año "
        "fiscal %(fiscal_year)s ahora es %(amount)s (antes era %(previous)s).",
    "The assessment of parcel %(catastro)s for fiscal year %(fiscal_year)s is %(amount)s.":
        "La derrama de la propiedad %(catastro)s para el año fiscal %(fiscal_year)s es "
        "%(amount)s.",
    "It is paid in %(count)s installments; the first, %(first_amount)s, is due on "
    "%(first_due)s.":
        "Se paga en %(count)s plazos; el primero, de %(first_amount)s, vence el "
        "%(first_due)s.",
    "See the notice, the installments and why this is the amount, and pay, on the parcel's "
    "page:":
        "Vea el aviso, los plazos y por qué es esta la cantidad, y pague, en la página de la "
        "propiedad:",
    # templates/account/parcel.html
    "Download the assessment notice (PDF)": "Descargar el aviso de derrama (PDF)",
    # web/staff/roll_notices.py, templates/staff/roll_notices.html
    "Publish the roll first: its notices are sent once it is published.":
        "Publique primero el registro: sus avisos se envían una vez publicado.",
    "Assessment notices of roll %(id)s": "Avisos de derrama del registro %(id)s",
    "Sending the notices prints every notice for the mail, in its payer's language, with a "
    "new access code for each parcel no payer has claimed online, and emails each owner (and "
    "each lessee who pays) with an account. Sending again prints and emails nothing twice.":
        "Al enviar los avisos se imprime cada aviso para el correo, en el idioma de quien "
        "paga, con un código de acceso nuevo para cada propiedad que nadie ha reclamado en "
        "línea, y se envía un correo electrónico a cada dueño (y a cada arrendatario que "
        "paga) que tiene cuenta. Al enviarlos de nuevo no se imprime ni se envía nada dos "
        "veces.",
    "Notices of the roll": "Avisos del registro",
    "Printed for the mail": "Impresos para el correo",
    "Emails sent": "Correos electrónicos enviados",
    "Access codes issued": "Códigos de acceso emitidos",
    "Send the notices": "Enviar los avisos",
    "Send the notices not yet sent": "Enviar los avisos que faltan",
    "An administrator sends the notices.": "Un administrador envía los avisos.",
    "Print files": "Archivos para imprimir",
    "Each file holds a batch of notices, in parcel order. The files with access codes are "
    "an administrator's to download: the codes are printed only there.":
        "Cada archivo contiene un lote de avisos, en el orden de las propiedades. Solo un "
        "administrador puede descargar los archivos con códigos de acceso: los códigos solo "
        "aparecen impresos ahí.",
    "Print files of the roll": "Archivos para imprimir del registro",
    "Notices": "Avisos",
    "Access codes": "Códigos de acceso",
    "Made on": "Hecho el",
    "Print file %(id)s (PDF)": "Archivo para imprimir %(id)s (PDF)",
    "Print file %(id)s": "Archivo para imprimir %(id)s",
    "No notice has been printed yet.": "Todavía no se ha impreso ningún aviso.",
}
