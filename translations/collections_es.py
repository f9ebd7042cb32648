"""Reviewed Puerto Rico Spanish for collections (J9): the delinquency run, the demands
(requerimientos de pago) by correo certificado con acuse de recibo, the 15 days, the list of
claims in court (reclamación en el tribunal, Regla 60), the owner's timeline and the letter.

Terms follow docs/GLOSSARY.md: requerimiento (de pago), reclamación en el tribunal, en mora,
cargo por demora, intereses, costas de cobro, deuda vencida, plazo, arrendatario, propiedad.
Apply as translations/web_es.py says (scripts/fill_catalog.py).
"""

ES = {
    # core/collection_timeline.py: the sentence that says what stops the next step
    "The debt has been claimed in court under Rule 60 of Civil Procedure.":
        "La deuda se reclamó en el tribunal por la Regla 60 de Procedimiento Civil.",
    "Pay {amount} by {by} and installment {number} stays on time; after that day it is "
    "delinquent, with a late fee and interest from its due date.":
        "Pague {amount} a más tardar el {by} y el plazo {number} queda al día; después de ese "
        "día queda en mora, con un cargo por demora e intereses desde su vencimiento.",
    "Pay {amount} by {by} and no installment stays past due; otherwise, on {run}, a demand by "
    "certified mail is queued for every amount past due.":
        "Pague {amount} a más tardar el {by} y ningún plazo queda vencido; si no, el {run} se "
        "prepara un requerimiento por correo certificado por todas las cantidades vencidas.",
    "A demand for what is past due is about to be mailed by certified mail; paid today, "
    "{amount} pays everything it lists. Once mailed, there are 15 days to pay it.":
        "Está por enviarse por correo certificado un requerimiento de lo vencido; pagado hoy, "
        "{amount} paga todo lo que incluye. Desde que se envíe, hay 15 días para pagarlo.",
    "Pay {amount} by {by}, the demand's last day, and the claim in court is stopped; from "
    "{first} the debt may be claimed in court under Rule 60 of Civil Procedure, whatever the "
    "amount.":
        "Pague {amount} a más tardar el {by}, el último día del requerimiento, y se detiene la "
        "reclamación en el tribunal; desde el {first} la deuda puede reclamarse en el tribunal "
        "por la Regla 60 de Procedimiento Civil, sea cual sea la cantidad.",
    "The demand's last day has passed: the debt may be claimed in court. Paid today, {amount} "
    "pays everything the demand listed.":
        "Pasó el último día del requerimiento: la deuda puede reclamarse en el tribunal. "
        "Pagado hoy, {amount} paga todo lo que incluía el requerimiento.",
    # forms
    "Write the date as year-month-day, for example 2026-11-30.":
        "Escriba la fecha como año-mes-día, por ejemplo 2026-11-30.",
    "Day of the run": "Día del proceso",
    "Start the collections run": "Iniciar el proceso de cobro",
    "Certified-mail number": "Número del correo certificado",
    "Write the number on the certified-mail receipt.":
        "Escriba el número que aparece en el recibo del correo certificado.",
    "Write at most 40 characters.": "Escriba 40 caracteres como máximo.",
    "Mailing date": "Fecha de envío",
    "Postage charged to the account (optional)": "Franqueo cargado a la cuenta (opcional)",
    "Write an amount from 0.00 to 1,000.00.": "Escriba una cantidad de 0.00 a 1,000.00.",
    "Record the mailing": "Registrar el envío",
    "Date on the return receipt": "Fecha del acuse de recibo",
    "Record the return receipt": "Registrar el acuse de recibo",
    "Day the claim was filed": "Día en que se presentó la reclamación",
    "Case number": "Número del caso",
    "Write the court's case number.": "Escriba el número del caso en el tribunal.",
    "Record the claim in court": "Registrar la reclamación en el tribunal",
    # routes
    "Collections run: demand letters": "Proceso de cobro: requerimientos de pago",
    "No fiscal year includes that day: the run needs the year's assessments.":
        "Ningún año fiscal incluye ese día: el proceso necesita las derramas del año.",
    "The mailing of this demand is already recorded.":
        "El envío de este requerimiento ya está registrado.",
    "The claim in court of this demand is already recorded.":
        "La reclamación en el tribunal de este requerimiento ya está registrada.",
    "Record the mailing first: the 15 days run from it.":
        "Registre primero el envío: los 15 días se cuentan desde ese día.",
    "The form expired: send it again.": "El formulario venció: envíelo otra vez.",
    "Every status": "Todos los estados",
    "The run's day cannot be a day to come.": "El día del proceso no puede ser un día futuro.",
    "The run cannot start now.": "El proceso no puede iniciarse ahora.",
    "This cannot be recorded now.": "Esto no puede registrarse ahora.",
    "The mailing is recorded: the 15 days run from it.":
        "Se registró el envío: los 15 días se cuentan desde ese día.",
    "The mailing date cannot be a day to come.": "La fecha de envío no puede ser un día futuro.",
    "The return receipt is recorded.": "Se registró el acuse de recibo.",
    "The return receipt's date must be on or after the mailing and not a day to come.":
        "La fecha del acuse de recibo debe ser el día del envío o después, y no un día futuro.",
    "The claim in court is recorded.": "Se registró la reclamación en el tribunal.",
    "The claim can be filed from the day after the last day to pay, and not on a day to come.":
        "La reclamación puede presentarse desde el día después del último día para pagar, y "
        "no en un día futuro.",
    # views: the timeline's steps
    "Assessment notified": "Derrama notificada",
    "Installment due": "Vencimiento del plazo",
    "Delinquent (after the grace day)": "En mora (después del último día para pagar a tiempo)",
    "Demand queued": "Requerimiento preparado",
    "Demand mailed by certified mail": "Requerimiento enviado por correo certificado",
    "Return receipt": "Acuse de recibo",
    "Last day to pay the demand": "Último día para pagar el requerimiento",
    "May be claimed in court": "Puede reclamarse en el tribunal",
    "Claimed in court": "Reclamada en el tribunal",
    "when it is mailed": "cuando se envíe",
    "when the return receipt comes back": "cuando regrese el acuse de recibo",
    "15 days after mailing": "15 días después del envío",
    "the day after the last day": "el día después del último día",
    "if staff decide to sue": "si el personal decide reclamar en el tribunal",
    "Queued, not mailed": "Preparado, sin enviar",
    "Mailed, in its 15 days": "Enviado, dentro de sus 15 días",
    "Received, in its 15 days": "Recibido, dentro de sus 15 días",
    "May go to court": "Puede ir al tribunal",
    "Paid: claim stopped": "Pagado: reclamación detenida",
    # the demand letter
    "To": "Para",
    "The payer of the account": "Quien paga la cuenta",
    "Demand date": "Fecha del requerimiento",
    "Mailed by certified mail": "Enviado por correo certificado",
    "Simple interest on the delinquent principal from each installment's due date; each "
    "further day adds %(per_day)s.":
        "Interés simple sobre el principal en mora desde el vencimiento de cada plazo; cada "
        "día más añade %(per_day)s.",
    "One late fee for each installment not paid by its grace day.":
        "Un cargo por demora por cada plazo no pagado a más tardar en su último día para "
        "pagar a tiempo.",
    "Costs recorded on the account, such as certified mail.":
        "Costas de cobro registradas en la cuenta, como el correo certificado.",
    "Installments not paid by their grace day: %(numbers)s.":
        "Plazos no pagados a más tardar en su último día para pagar a tiempo: %(numbers)s.",
    "Credit on the account": "Crédito en la cuenta",
    "Total demanded": "Total requerido",
    "Every amount due on the demand's date.":
        "Todas las cantidades vencidas en la fecha del requerimiento.",
    "The District's Authority demands payment of every amount due on this account, as the law "
    "requires after the grace day, by certified mail with return receipt.":
        "La Autoridad del Distrito le requiere el pago de todas las cantidades vencidas de esta "
        "cuenta, como exige la ley después del último día para pagar a tiempo, por correo "
        "certificado con acuse de recibo.",
    "If the demand is not paid in full within 15 days after it is mailed (a last day that "
    "falls on a weekend, a holiday or a day the Board declares closed moves to the next "
    "working day), the debt may be claimed in court under Rule 60 of Civil Procedure, whatever "
    "the amount. The 15 days run from mailing, even if the letter is not claimed at the post "
    "office.":
        "Si el requerimiento no se paga completo dentro de los 15 días después de su envío (un "
        "último día que cae en fin de semana, día feriado o día que la Junta declare cerrado "
        "pasa al próximo día laborable), la deuda puede reclamarse en el tribunal por la Regla "
        "60 de Procedimiento Civil, sea cual sea la cantidad. Los 15 días se cuentan desde el "
        "envío, aunque la carta no se recoja en el correo.",
    "Pay online at the portal, or at the Authority's office. A payment goes first to interest, "
    "then late fees, then costs, then the oldest principal.":
        "Pague en línea en el portal o en la oficina de la Autoridad. Un pago va primero a los "
        "intereses, luego a los cargos por demora, luego a las costas de cobro y luego al "
        "principal más antiguo.",
    "This letter goes to the payer of the account, with a copy to the owner. The certified "
    "mail's postage is a cost of the account.":
        "Este requerimiento va a quien paga la cuenta, con copia al dueño. El franqueo del "
        "correo certificado es una costa de cobro de la cuenta.",
    "Demand for payment": "Requerimiento de pago",
    "Certified mail with return receipt": "Correo certificado con acuse de recibo",
    "Demand %(id)s · Parcel %(catastro)s": "Requerimiento %(id)s · Propiedad %(catastro)s",
    "What is demanded": "Lo que se requiere",
    # templates
    "Collection timeline": "Cronología del cobro",
    "done": "ocurrió",
    "not yet": "todavía no",
    "Claims that can go to court": "Reclamaciones que pueden ir al tribunal",
    "Demands not paid in full by their last day (15 days after mailing, rolled over weekends, "
    "holidays and days the Board declared closed): from the day after, the debt may be claimed "
    "in court under Rule 60 of Civil Procedure, whatever the amount (R-A13). Staff decide "
    "whether to sue.":
        "Requerimientos no pagados completos a más tardar en su último día (15 días después "
        "del envío, pasando los fines de semana, días feriados y días que la Junta declaró "
        "cerrados): desde el día siguiente, la deuda puede reclamarse en el tribunal por la "
        "Regla 60 de Procedimiento Civil, sea cual sea la cantidad (R-A13). El personal decide "
        "si reclama.",
    "Last day to pay": "Último día para pagar",
    "May be claimed from": "Puede reclamarse desde",
    "What the demand listed, owed today": "Lo que incluía el requerimiento, adeudado hoy",
    "Accounts that may be claimed in court": "Cuentas que pueden reclamarse en el tribunal",
    "Next accounts": "Cuentas siguientes",
    "No account can be claimed in court today.":
        "Hoy ninguna cuenta puede reclamarse en el tribunal.",
    "Back to collections": "Volver a cobros",
    "Demand %(id)s": "Requerimiento %(id)s",
    "Amount demanded": "Cantidad requerida",
    "Mailed": "Enviado",
    "The demand letter (PDF, in both languages)":
        "El requerimiento de pago (PDF, en los dos idiomas)",
    "As printed on the post office's receipt.": "Como aparece en el recibo del correo.",
    "Year-month-day, for example 2026-11-30.": "Año-mes-día, por ejemplo 2026-11-30.",
    "For example 7.00. Added to the account as a collection cost (R-A9).":
        "Por ejemplo 7.00. Se añade a la cuenta como costa de cobro (R-A9).",
    "Collections": "Cobros",
    "After the grace day, every delinquent account is demanded all it owes by certified mail "
    "with return receipt (R-A12). The run queues one demand per account in the background; "
    "running it again the same day creates nothing twice.":
        "Después del último día para pagar a tiempo, a cada cuenta en mora se le requiere todo "
        "lo que debe por correo certificado con acuse de recibo (R-A12). El proceso prepara un "
        "requerimiento por cuenta en segundo plano; correrlo otra vez el mismo día no crea nada "
        "dos veces.",
    "Year-month-day, for example 2026-11-30. The amounts are those due on that day.":
        "Año-mes-día, por ejemplo 2026-11-30. Las cantidades son las vencidas ese día.",
    "Latest runs": "Últimos procesos",
    "Demands": "Requerimientos",
    "Show": "Mostrar",
    "Demands, the oldest first": "Requerimientos, los más antiguos primero",
    "Next demands": "Requerimientos siguientes",
    "No demand with this status.": "Ningún requerimiento con este estado.",
    "Collections: demand letters and the court list":
        "Cobros: requerimientos de pago y la lista para el tribunal",
    # the post office's file
    "The post office's CSV file": "El archivo CSV del correo",
    "Choose the CSV file to upload.": "Escoja el archivo CSV que va a subir.",
    "Record the mailings": "Registrar los envíos",
    "missing": "falta",
    "not valid": "no es válido",
    "no such demand": "no existe ese requerimiento",
    "the same demand twice in the file": "el mismo requerimiento dos veces en el archivo",
    "a day to come": "un día futuro",
    "before the mailing": "antes del envío",
    "this demand's mailing is recorded with another number or date":
        "el envío de este requerimiento está registrado con otro número u otra fecha",
    "more rows than one file takes (5,000)": "más filas de las que admite un archivo (5,000)",
    "Demand": "Requerimiento",
    "Postage": "Franqueo",
    "Columns": "Columnas",
    "Rows": "Filas",
    "Upload a .csv file (a spreadsheet saved as CSV, UTF-8).":
        "Suba un archivo .csv (una hoja de cálculo guardada como CSV, UTF-8).",
    "The file has no rows.": "El archivo no tiene filas.",
    "Nothing was recorded: correct the rows listed and upload the file again.":
        "Nada se registró: corrija las filas de la lista y suba el archivo otra vez.",
    "Mailings recorded: %(n)s.": "Envíos registrados: %(n)s.",
    "Record the post office's mailings": "Registrar los envíos del correo",
    "A CSV file with one row per demand mailed: the columns requerimiento (the demand's "
    "number), numero (the certified-mail number) and enviado (the mailing date, "
    "year-month-day), and optionally acuse (the return receipt's date) and franqueo (the "
    "postage charged to the account). Every row is recorded, or none.":
        "Un archivo CSV con una fila por requerimiento enviado: las columnas requerimiento (el "
        "número del requerimiento), numero (el número del correo certificado) y enviado (la "
        "fecha de envío, año-mes-día) y, si los hay, acuse (la fecha del acuse de recibo) y "
        "franqueo (el franqueo cargado a la cuenta). Se registran todas las filas o ninguna.",
    "The rows to correct": "Las filas que hay que corregir",
    "Line of the file": "Línea del archivo",
    "Column": "Columna",
    "Problem": "Problema",
    # the court packet
    "none recorded: the 15 days run from mailing":
        "no se ha registrado: los 15 días se cuentan desde el envío",
    "Payments by the last day stop the claim only if nothing is left owed on what the demand "
    "listed.":
        "Lo pagado a más tardar el último día detiene la reclamación solo si no se adeuda nada "
        "de lo que incluía el requerimiento.",
    "Receipt of mailing": "Constancia de envío",
    "A court packet is for a demand whose last day has passed and that is still owed.":
        "El expediente para el tribunal es para un requerimiento cuyo último día pasó y que "
        "todavía se adeuda.",
    "The court packet (PDF: the statement, the demand and the receipt of mailing)":
        "El expediente para el tribunal (PDF: el estado de cuenta, el requerimiento y la "
        "constancia de envío)",
    "Your staff role sees collections; another role runs them and records mailings.":
        "Con su función puede ver los cobros; correr el proceso y registrar los envíos les "
        "toca a otras funciones del personal.",
    "Mail it by (5 working days, R-A17)":
        "Último día para enviarlo (5 días laborables, R-A17)",
}
