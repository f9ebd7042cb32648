"""Reviewed Puerto Rico Spanish for the change reports of the residential exemption (J6):
the core's explanations (portal/core/exemption_changes.py), the pages, the email.

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/exemption_changes_es.py
    make catalogs
Terms: notificación de cambio (change report; the statute's "notificar cambios"), acreedor
hipotecario (the lender, as the statute says), exoneración residencial, certificación,
titular original, cónyuge supérstite, año fiscal, propiedad (parcel), delito menos grave.
"""

ES = {
    # --- The core's explanations (R-B5, R-B7, R-B9, R-B12) -----------------------------------
    "A change on {change} must be reported before January 1 following it: the last day is "
    "{deadline}, a date fixed by law that does not move to the next working day.":
        "Un cambio ocurrido el {change} se tiene que notificar antes del 1 de enero siguiente: "
        "el último día es el {deadline}, una fecha fija por ley que no se corre al próximo día "
        "laborable.",
    "On {on}, after {deadline}: the report is accepted and marked late. A late report "
    "does not change the year the change counts from (R-B18).":
        "El {on}, después del {deadline}: la notificación se acepta y se marca "
        "como tardía. Notificar tarde no cambia el año a partir del cual cuenta el cambio (R-B18).",
    "As of {on}: it is the last day to report it.":
        "Al {on}: es el último día para notificarlo.",
    "As of {on}, days left until the last day: {days}.":
        "Al {on}, días que quedan hasta el último día: {days}.",
    "The property secures a loan: you report the change to your lender, and the lender reports "
    "it to the CRIM, both by {deadline}.":
        "La propiedad garantiza un préstamo: usted notifica el cambio a su acreedor hipotecario "
        "y este lo notifica al CRIM, ambos a más tardar el {deadline}.",
    "A surviving spouse who is an original titleholder keeps the exemption without a new "
    "filing, as long as the property is still used as the home on each January 1 (R-B19). The "
    "death is still reported as a change of ownership.":
        "El cónyuge supérstite que es titular original mantiene la exoneración sin radicar una "
        "nueva certificación, siempre que la propiedad siga siendo su vivienda cada 1 de enero "
        "(R-B19). La muerte se notifica de todos modos como un cambio en el dominio.",
    "The exemption continues only for a surviving spouse who is an original titleholder and "
    "still lives there. Otherwise it ends from fiscal year {fy}, and an heir who lives there "
    "may file a new certification (R-B19).":
        "La exoneración continúa solo para el cónyuge supérstite que es titular original y "
        "sigue viviendo allí. Si no, termina a partir del año fiscal {fy}, y un heredero que "
        "viva allí puede radicar una nueva certificación (R-B19).",
    "The property is no longer the home of the owner or family: the exemption ends from fiscal "
    "year {fy}, the first judged on a January 1 after the change (R-B18). Living away "
    "temporarily for one of the reasons of the law (caring for a relative aged 60 or older, "
    "the owner's own illness or disability), with no rent received, is no ground to revoke it "
    "(R-B8).":
        "La propiedad ya no es la vivienda del dueño o de su familia: la exoneración termina a "
        "partir del año fiscal {fy}, el primero que se evalúa en un 1 de enero después del "
        "cambio (R-B18). Vivir fuera temporalmente por una de las razones de la ley (cuidar a "
        "un familiar de 60 años o más, la propia enfermedad o discapacidad del dueño), sin "
        "recibir renta, no es razón para revocarla (R-B8).",
    "Rent received for the property means it is no longer residential for the exemption: it "
    "ends from fiscal year {fy} (R-B18), for the rented part or the whole.":
        "Si se recibe renta por la propiedad, ya no se considera residencial para la "
        "exoneración: termina a partir del año fiscal {fy} (R-B18), para la parte alquilada o "
        "para toda la propiedad.",
    "After a sale or transfer the exemption does not pass to the new owner: it ends from "
    "fiscal year {fy}, and the buyer files a new certification (R-B18).":
        "Después de una venta o traspaso, la exoneración no pasa al nuevo dueño: termina a "
        "partir del año fiscal {fy}, y el comprador radica una nueva certificación (R-B18).",
    "If the property, or part of it, is no longer used as a home, the exemption ends or is "
    "reduced from fiscal year {fy} (R-B2, R-B18).":
        "Si la propiedad, o parte de ella, ya no se usa como vivienda, la exoneración termina o "
        "se reduce a partir del año fiscal {fy} (R-B2, R-B18).",
    "The CRIM reviews the change: if on January 1 the property no longer qualifies, the "
    "exemption ends from fiscal year {fy} (R-B18).":
        "El CRIM evalúa el cambio: si el 1 de enero la propiedad ya no cualifica, la "
        "exoneración termina a partir del año fiscal {fy} (R-B18).",
    "For each year the exemption no longer applies, the property tax is billed without it, and "
    "the taxes owed after the revocation must be paid.":
        "Por cada año en que ya no aplica la exoneración, la contribución sobre la propiedad se "
        "factura sin ella, y hay que pagar las contribuciones adeudadas tras la revocación.",
    "Failing to report a transfer of the property is a misdemeanor: a fine of {fine}, {months} "
    "months in prison, or both, plus the taxes owed after the revocation.":
        "No notificar un traspaso de la propiedad es delito menos grave: multa de {fine}, "
        "{months} meses de reclusión, o ambas penas, además de las contribuciones adeudadas "
        "tras la revocación.",
    "Intentionally failing to report a change in your qualifications is a misdemeanor: a fine "
    "of {fine}, {months} months in prison, or both, plus the taxes owed after the revocation.":
        "Dejar de notificar intencionalmente un cambio en sus cualificaciones es delito menos "
        "grave: multa de {fine}, {months} meses de reclusión, o ambas penas, además de las "
        "contribuciones adeudadas tras la revocación.",
    # --- The form ------------------------------------------------------------------------
    "I moved out: the property is no longer my home":
        "Me mudé: la propiedad ya no es mi vivienda",
    "I rented out the property, in whole or in part":
        "Alquilé la propiedad, completa o en parte",
    "I sold, donated or otherwise transferred the property":
        "Vendí, doné o traspasé de otra forma la propiedad",
    "My spouse died": "Mi cónyuge falleció",
    "The use of the property changed (for example, a business)":
        "Cambió el uso de la propiedad (por ejemplo, un negocio)",
    "Another change (for example, a co-owner added or removed, a divorce)":
        "Otro cambio (por ejemplo, se añadió o salió un condueño, un divorcio)",
    "Moved out": "Se mudó",
    "Rented out": "Se alquiló",
    "Sold or transferred": "Se vendió o traspasó",
    "Spouse died": "Falleció el cónyuge",
    "Use changed": "Cambió el uso",
    "Other change": "Otro cambio",
    "Yes": "Sí",
    "No": "No",
    "What changed?": "¿Qué cambió?",
    "Choose what changed.": "Escoja qué cambió.",
    "Date of the change": "Fecha del cambio",
    "Enter the date of the change, like 2026-11-15.":
        "Escriba la fecha del cambio, por ejemplo 2026-11-15.",
    "Enter a real date, like 2026-11-15 (year-month-day).":
        "Escriba una fecha real, por ejemplo 2026-11-15 (año-mes-día).",
    "The date of the change cannot be after today: report a change once it has happened.":
        "La fecha del cambio no puede ser después de hoy: notifique el cambio cuando ya haya "
        "ocurrido.",
    "Enter a date from 1950 on.": "Escriba una fecha de 1950 en adelante.",
    "What is new (optional)": "Qué hay de nuevo (opcional)",
    "What is new": "Qué hay de nuevo",
    "Only if your spouse died: were you named as an owner on the approved certification?":
        "Solo si su cónyuge falleció: ¿usted aparece como dueño en la certificación aprobada?",
    "Say whether you were named as an owner on the certification.":
        "Indique si usted aparece como dueño en la certificación.",
    "Is the property still your home?": "¿La propiedad sigue siendo su vivienda?",
    "Say whether the property is still your home.":
        "Indique si la propiedad sigue siendo su vivienda.",
    "Check the kind and the date of the change.": "Revise el tipo y la fecha del cambio.",
    # --- The pages -----------------------------------------------------------------------
    "Changes in the residential exemption": "Cambios en la exoneración residencial",
    "Moved, rented out, sold, a spouse died or the use changed? Report it before January 1 "
    "following the change.":
        "¿Se mudó, alquiló, vendió, falleció su cónyuge o cambió el uso? Notifíquelo antes del "
        "1 de enero siguiente al cambio.",
    "Report a change": "Notificar un cambio",
    "Report a change in the residential exemption":
        "Notificar un cambio en la exoneración residencial",
    "This parcel has the residential exemption (certification %(number)s).":
        "Esta propiedad tiene la exoneración residencial (certificación %(number)s).",
    "This parcel has a certification of the residential exemption on file (%(number)s).":
        "Esta propiedad tiene una certificación de exoneración residencial radicada "
        "(%(number)s).",
    "When to report it": "Cuándo notificarlo",
    "Before January 1 following the change: the last day is December 31 of the year of the "
    "change, even if it falls on a weekend or a holiday.":
        "Antes del 1 de enero siguiente al cambio: el último día es el 31 de diciembre del año "
        "del cambio, aunque caiga en fin de semana o día feriado.",
    "For a change this year, the last day is %(date)s":
        "Para un cambio de este año, el último día es el %(date)s",
    "A late report is still accepted, and marked late.":
        "Una notificación tardía se acepta de todos modos y se marca como tardía.",
    "This parcel secures a loan: your report goes to your lender too, which forwards it to "
    "the CRIM by the same day.":
        "Esta propiedad garantiza un préstamo: su notificación llega también a su acreedor "
        "hipotecario, que la envía al CRIM a más tardar ese mismo día.",
    "A surviving spouse named as an owner on the approved certification keeps the exemption "
    "without filing again, while the property is still the home.":
        "El cónyuge supérstite que aparece como dueño en la certificación aprobada mantiene la "
        "exoneración sin radicar otra vez, mientras la propiedad siga siendo su vivienda.",
    "Year-month-day, for example 2026-11-15.": "Año-mes-día, por ejemplo 2026-11-15.",
    "For example: who lives there now, which part is rented, the name of the buyer.":
        "Por ejemplo: quién vive allí ahora, qué parte está alquilada, el nombre del comprador.",
    "Continue: see the deadline and what follows":
        "Continuar: ver la fecha límite y lo que sigue",
    "Check your report and send it": "Revise su notificación y envíela",
    "This report is late": "Esta notificación está tardía",
    "The last day was %(date)s. The report is still accepted, and marked late.":
        "El último día fue el %(date)s. La notificación se acepta de todos modos y se marca "
        "como tardía.",
    "Last day to report it": "Último día para notificarlo",
    "Your lender forwards it to the CRIM by the same day.":
        "Su acreedor hipotecario la envía al CRIM a más tardar ese mismo día.",
    "The exemption continues": "La exoneración continúa",
    "As a surviving spouse named as an owner on the certification, you keep the exemption "
    "without filing a new certification. Only confirm below that the property is still your "
    "home.":
        "Como cónyuge supérstite que aparece como dueño en la certificación, usted mantiene la "
        "exoneración sin radicar una nueva certificación. Solo confirme abajo que la propiedad "
        "sigue siendo su vivienda.",
    "What follows": "Lo que sigue",
    "Your answers": "Sus respuestas",
    "Named as an owner on the certification": "Aparece como dueño en la certificación",
    "Send the report": "Enviar la notificación",
    "Change the answers": "Cambiar las respuestas",
    "Your report was received. We sent you an email with its number.":
        "Recibimos su notificación. Le enviamos un correo electrónico con su número.",
    "Change report %(number)s": "Notificación de cambio %(number)s",
    "Report number": "Número de la notificación",
    "Reported on": "Notificada el",
    "Reported late": "Notificada tarde",
    "On time": "A tiempo",
    "Received": "Recibida",
    "Acknowledged by staff": "Acusada por el personal",
    "The exemption continues without a new certification, as long as the property is still "
    "your home on each January 1.":
        "La exoneración continúa sin una nueva certificación, siempre que la propiedad siga "
        "siendo su vivienda cada 1 de enero.",
    "This parcel secures a loan: your lender sees this report and forwards it to the CRIM by "
    "%(date)s.":
        "Esta propiedad garantiza un préstamo: su acreedor hipotecario ve esta notificación y "
        "la envía al CRIM a más tardar el %(date)s.",
    # --- The attestation (R-B12) ---------------------------------------------------------
    "Warning and attestation": "Advertencia y certificación",
    "I certify that what I report here is true and complete.":
        "Certifico que lo que notifico aquí es cierto y completo.",
    "Your full name (it serves as your signature)":
        "Su nombre completo (sirve como su firma)",
    "Check the box to certify the report.": "Marque la casilla para certificar la notificación.",
    "Type your full name to certify the report.":
        "Escriba su nombre completo para certificar la notificación.",
    # --- Staff and lender lists ----------------------------------------------------------
    "Residential exemption: change reports":
        "Exoneración residencial: notificaciones de cambio",
    ("%(num)s report", "%(num)s reports"):
        ("%(num)s notificación", "%(num)s notificaciones", "%(num)s notificaciones"),
    "Filter by status": "Filtrar por estado",
    "All": "Todas",
    "Change reports": "Notificaciones de cambio",
    "Acknowledge %(number)s": "Acusar recibo de %(number)s",
    "No change reports.": "No hay notificaciones de cambio.",
    "That report was already acknowledged.": "Ya se había acusado recibo de esa notificación.",
    "Report %(number)s acknowledged.": "Se acusó recibo de la notificación %(number)s.",
    "Change reports to forward to the CRIM": "Notificaciones de cambio para enviar al CRIM",
    "Owners of parcels of your loans report changes in the residential exemption to you; you "
    "forward each one to the CRIM before January 1 following the change (by December 31).":
        "Los dueños de las propiedades de sus préstamos le notifican a usted los cambios en la "
        "exoneración residencial; usted envía cada uno al CRIM antes del 1 de enero siguiente "
        "al cambio (a más tardar el 31 de diciembre).",
    "Forward it by": "Enviarla a más tardar el",
    "Forwarded to the CRIM": "Enviada al CRIM",
    "Record %(number)s as forwarded": "Registrar %(number)s como enviada",
    "That report was already recorded as forwarded.":
        "Esa notificación ya estaba registrada como enviada.",
    "Report %(number)s recorded as forwarded to the CRIM.":
        "Se registró la notificación %(number)s como enviada al CRIM.",
    "The lender recorded that it forwarded it on %(date)s.":
        "El acreedor hipotecario registró que la envió el %(date)s.",
    "No change reports from your loans' owners.":
        "No hay notificaciones de cambio de los dueños de sus préstamos.",
    # --- The email -----------------------------------------------------------------------
    "Change report %(number)s received": "Recibimos la notificación de cambio %(number)s",
    "We received your report of a change in the residential exemption of parcel "
    "%(catastro)s.":
        "Recibimos su notificación de un cambio en la exoneración residencial de la propiedad "
        "%(catastro)s.",
    "See the report:": "Vea la notificación:",
}
