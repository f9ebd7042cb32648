"""Reviewed Puerto Rico Spanish for the payoff certificate (certificación de deuda, J10,
R-A19): the PDF, the parcel's certificates page and the public verification page.

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/certificates_es.py
    make catalogs
Terms follow docs/GLOSSARY.md: propiedad, plazo, en mora, cargo por demora, intereses, costas
de cobro, crédito, cantidad para saldar, requerimiento (de pago), reclamación en el tribunal
(Regla 60), arrendatario; "gravamen tácito" is § 6432(e)'s own term.
"""

ES = {
    "%(count)s installments not yet due, the next on %(date)s (apart)":
        "%(count)s plazos que aún no vencen, el próximo el %(date)s (aparte)",
    "A certificate holds until its date, unless a payment, a new charge or a later certificate "
    "supersedes it. The verification page says which.":
        "Una certificación vale hasta su fecha, a menos que un pago, un cargo nuevo o una "
        "certificación posterior la sustituya. La página de verificación dice cuál vale.",
    "A payment, a new charge, a demand or a later certificate was recorded after it: its "
    "amounts no longer hold. Ask the owner for the latest certificate.":
        "Después de emitida se registró un pago, un cargo nuevo, un requerimiento o una "
        "certificación posterior: sus cantidades ya no valen. Pídale al dueño la "
        "certificación más reciente.",
    "Ahead of the District's lien": "Antes que el gravamen del Distrito",
    "Amounts good through %(date)s": "Cantidades válidas hasta el %(date)s",
    "Behind the District's lien": "Después del gravamen del Distrito",
    "Certificate issued. Its verification code is %(code)s.":
        "Se emitió la certificación. Su código de verificación es %(code)s.",
    "Certificates issued for this parcel": "Certificaciones emitidas para esta propiedad",
    "Check the code on the certificate and type it again: it has 28 letters and numbers, in "
    "groups of four.":
        "Revise el código en la certificación y escríbalo otra vez: tiene 28 letras y "
        "números, en grupos de cuatro.",
    "Choose a date from today to %(days)s days ahead.":
        "Escoja una fecha desde hoy hasta %(days)s días más adelante.",
    "Credit (subtracted)": "Crédito (se resta)",
    "Date issued": "Fecha de emisión",
    "Delinquent principal": "Principal en mora",
    "Demand mailed on %(mailed)s, not paid by %(last)s: since %(court)s the debt may be "
    "claimed in court (Rule 60).":
        "Requerimiento enviado el %(mailed)s, no pagado a más tardar el %(last)s: desde el "
        "%(court)s la deuda se puede reclamar en el tribunal (Regla 60).",
    "Demand mailed on %(mailed)s: nothing is owed any more on what it listed.":
        "Requerimiento enviado el %(mailed)s: ya no se debe nada de lo que incluía.",
    "Demand mailed on %(mailed)s; last day to pay it: %(last)s.":
        "Requerimiento enviado el %(mailed)s; último día para pagarlo: %(last)s.",
    "Document": "Documento",
    "Download (PDF, %(language)s)": "Descargar (PDF, %(language)s)",
    "English": "inglés",
    "Enter a date like 2026-12-15 (year, month, day).":
        "Escriba una fecha como 2026-12-15 (año, mes, día).",
    "Enter the code printed on the certificate.":
        "Escriba el código impreso en la certificación.",
    "Enter the date the certificate must hold through.":
        "Escriba la fecha hasta la cual debe valer la certificación.",
    "Expired certificate": "Certificación vencida",
    "Fiscal lien for tax debt transferred under Act 21 of 1997, if any":
        "Gravamen fiscal por deuda contributiva transferida según la Ley 21 de 1997, si lo "
        "hay",
    "Fiscal year %(label)s (%(version)s)": "Año fiscal %(label)s (%(version)s)",
    "Fiscal year %(label)s: an installment is due, still on time.":
        "Año fiscal %(label)s: un plazo vence ahora, todavía a tiempo.",
    "Fiscal year %(label)s: the account has amounts past due.":
        "Año fiscal %(label)s: la cuenta tiene cantidades vencidas.",
    "Fiscal year %(label)s: the account is up to date.":
        "Año fiscal %(label)s: la cuenta está al día.",
    "For a sale or a loan: a certificate of every amount owed, good through the date you "
    "choose, with the ranking of the liens on the parcel and a code anyone can verify on this "
    "portal.":
        "Para una venta o un préstamo: una certificación de todo lo que se debe, válida hasta "
        "la fecha que usted escoja, con el rango de los gravámenes sobre la propiedad y un "
        "código que cualquiera puede verificar en este portal.",
    "For example: 7KQ2-M9XD-… (dashes and spaces do not matter).":
        "Por ejemplo: 7KQ2-M9XD-… (los guiones y los espacios no importan).",
    "From today to %(days)s days ahead. Interest to that day is included.":
        "Desde hoy hasta %(days)s días más adelante. Incluye los intereses hasta ese día.",
    "Good through": "Válida hasta",
    "Good through %(date)s": "Válida hasta el %(date)s",
    "Installments not yet due (apart)": "Plazos que aún no vencen (aparte)",
    "Installments not yet due on %(date)s (apart)":
        "Plazos que aún no vencen el %(date)s (aparte)",
    "Interest per day after %(date)s": "Intereses por día después del %(date)s",
    "Interest to %(date)s": "Intereses hasta el %(date)s",
    "Issue the certificate": "Emitir la certificación",
    "Issued": "Emitidas",
    "Item": "Partida",
    "Its date has passed: ask the owner for a new certificate.":
        "Su fecha ya pasó: pídale al dueño una certificación nueva.",
    "Lessee (under the lease)": "Arrendatario (según el contrato de arrendamiento)",
    "Lien": "Gravamen",
    "Liens on the parcel (advisory ranking)":
        "Gravámenes sobre la propiedad (rango orientativo)",
    "Mortgage": "Hipoteca",
    "Municipal property-tax lien (CRIM), if any":
        "Gravamen por la contribución municipal sobre la propiedad (CRIM), si lo hay",
    "No certificate has been issued for this parcel yet.":
        "Todavía no se ha emitido ninguna certificación para esta propiedad.",
    "No certificate has that code": "Ninguna certificación tiene ese código",
    "No demand for payment has been mailed.": "No se ha enviado ningún requerimiento de pago.",
    "Not recorded (not constituted)": "No inscrita (no constituida)",
    "Nothing recorded since it was issued changes what it says: paid by its date, it settles "
    "the items it lists.":
        "Nada de lo registrado desde que se emitió cambia lo que dice: pagada a más tardar en "
        "su fecha, salda las partidas que incluye.",
    "Owner": "Dueño",
    "Paid by %(date)s, it settles every item this certificate lists.":
        "Pagada a más tardar el %(date)s, salda todas las partidas que incluye esta "
        "certificación.",
    "Past due and due": "Lo vencido y lo que vence ahora",
    "Past due and due, paid by %(date)s":
        "Lo vencido y lo que vence ahora, pagado a más tardar el %(date)s",
    "Pay-off amount, good through %(date)s": "Cantidad para saldar, válida hasta el %(date)s",
    "Payoff certificate": "Certificación de deuda",
    "Payoff certificates": "Certificaciones de deuda",
    "Principal due": "Principal que vence ahora",
    "QR code of the verification address: %(link)s":
        "Código QR de la dirección de verificación: %(link)s",
    "Rank": "Rango",
    "Scan the code, or go to %(link)s and type the code %(code)s. The page shows what this "
    "certificate says and whether it still holds.":
        "Escanee el código, o vaya a %(link)s y escriba el código %(code)s. La página muestra "
        "lo que dice esta certificación y si todavía vale.",
    "Spanish": "español",
    "Superseded certificate": "Certificación sustituida",
    "The ranking of liens is advisory: the senior liens are named, not certified. A mortgage "
    "is constituted when it is recorded in the Registry.":
        "El rango de los gravámenes es orientativo: los gravámenes de rango superior se "
        "nombran, no se certifican. Una hipoteca se constituye cuando se inscribe en el "
        "Registro de la Propiedad.",
    "The amounts are those of the budget version in force when the certificate was issued; "
    "an amendment of the budget may change them.":
        "Las cantidades son las de la versión del presupuesto vigente cuando se emitió la "
        "certificación; una enmienda al presupuesto puede cambiarlas.",
    "The code has 28 letters and numbers; check it and try again.":
        "El código tiene 28 letras y números; revíselo y vuelva a intentarlo.",
    "The date can be at most %(last)s (%(days)s days from today).":
        "La fecha puede ser, a lo sumo, el %(last)s (%(days)s días desde hoy).",
    "The date cannot be before today, %(today)s.":
        "La fecha no puede ser antes de hoy, %(today)s.",
    "The District's lien": "El gravamen del Distrito",
    "The verification page shows only what this certificate says: the parcel, the dates and "
    "the amounts, and whether a payment, a new charge or a later certificate has superseded "
    "it.":
        "La página de verificación muestra solo lo que dice esta certificación: la propiedad, "
        "las fechas y las cantidades, y si un pago, un cargo nuevo o una certificación "
        "posterior la ha sustituido.",
    "This certificate's amounts: the statutory tacit lien on the parcel":
        "Las cantidades de esta certificación: el gravamen tácito legal sobre la propiedad",
    ("Too many codes checked from here. Try again in %(num)d minute.",
     "Too many codes checked from here. Try again in %(num)d minutes."):
        ("Se han verificado demasiados códigos desde aquí. Vuelva a intentarlo en %(num)d "
         "minuto.",
         "Se han verificado demasiados códigos desde aquí. Vuelva a intentarlo en %(num)d "
         "minutos.",
         "Se han verificado demasiados códigos desde aquí. Vuelva a intentarlo en %(num)d "
         "minutos."),
    "Type the verification code printed on the certificate (certificación de deuda). This "
    "page shows only what the certificate says, and whether it still holds.":
        "Escriba el código de verificación impreso en la certificación de deuda. Esta página "
        "muestra solo lo que dice la certificación, y si todavía vale.",
    "Valid certificate": "Certificación válida",
    "Verification code": "Código de verificación",
    "Verify": "Verificar",
    "Verify a payoff certificate": "Verificar una certificación de deuda",
    "Verify at": "Verifíquela en",
    "Verify this certificate": "Verifique esta certificación",
    "budget version %(version)s, adopted on %(date)s":
        "versión %(version)s del presupuesto, adoptada el %(date)s",
    "expired": "vencida",
    "no budget version": "sin versión del presupuesto",
    "recorded on %(date)s": "inscrita el %(date)s",
    "superseded": "sustituida",
    "valid": "válida",
}
