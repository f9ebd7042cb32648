"""Reviewed Puerto Rico Spanish for a lender's acquisitions of a new structure (R-B10 iii,
R-B21) and its intents to pay (J7), on the loan's page and the owner's pages. Terms as
docs/GLOSSARY.md: propiedad, derrama, plazo, vencido, acreedor hipotecario, CRIM.

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/lender_intents_es.py
    make catalogs
"""

ES = {
    "Date of the acquisition (the deed)": "Fecha de la adquisición (la escritura)",
    "Report the acquisition": "Informar la adquisición",
    "The date cannot be later than today.": "La fecha no puede ser posterior a hoy.",
    "Only a new structure bought on or after January 1 of this year is reported here.":
        "Aquí solo se informa una estructura nueva adquirida desde el 1 de enero de este año.",
    "The acquisition was recorded. Notify the CRIM by the last day shown.":
        "Se registró la adquisición. Notifique al CRIM a más tardar el último día indicado.",
    "Someone else is already paying the District's account of this parcel. Wait until that "
    "payment ends before marking its installments.":
        "Otra persona ya está pagando la cuenta del Distrito de esta propiedad. Espere a que "
        "ese pago termine antes de marcar sus plazos.",
    "Choose at least one item to pay.": "Escoja al menos una partida que pagará.",
    "Some of the items chosen can no longer be paid (already paid, or nothing due). Look at "
    "the list again.":
        "Algunas de las partidas escogidas ya no se pueden pagar (ya están pagadas o no hay "
        "nada que pagar). Revise la lista otra vez.",
    "Saved: the owner will see that you will pay these.":
        "Guardado: el dueño verá que ustedes pagarán estas partidas.",
    "Withdrawn: the owner no longer sees that you will pay it.":
        "Retirado: el dueño ya no ve que ustedes lo pagarán.",
    "CRIM property-tax bill of July 1":
        "Factura del CRIM de contribución sobre la propiedad del 1 de julio",
    "CRIM property-tax bill of January 1":
        "Factura del CRIM de contribución sobre la propiedad del 1 de enero",
    "District installment %(number)s": "Plazo %(number)s de la derrama del Distrito",
    "What is due now to the District": "Lo que se debe ahora al Distrito",
    "Acquisition of a new structure": "Adquisición de una estructura nueva",
    "For a new structure built after January 1 and bought with the owner's certification, "
    "the lender retains the tax above the exemption and notifies the CRIM within 30 days of "
    "the acquisition (R-B10, R-B21). A last day on a weekend, a holiday or a day the office "
    "is closed moves to the next working day.":
        "Para una estructura nueva construida después del 1 de enero y adquirida con la "
        "certificación del dueño, el acreedor hipotecario retiene la contribución en exceso de "
        "la exoneración y notifica al CRIM dentro de los 30 días siguientes a la adquisición "
        "(R-B10, R-B21). Un último día que cae en fin de semana, en día feriado o en un día "
        "en que la oficina está cerrada pasa al próximo día laborable.",
    "Acquired on": "Adquirida el",
    "Last day to notify the CRIM": "Último día para notificar al CRIM",
    "Notice to the CRIM": "Notificación al CRIM",
    "in time": "a tiempo",
    "Year-month-day, for example 2026-11-30: the deed date, on or after January 1 of this "
    "year.":
        "Año-mes-día, por ejemplo 2026-11-30: la fecha de la escritura, desde el 1 de enero de "
        "este año.",
    "We will pay these": "Pagaremos estas partidas",
    "Mark the CRIM bills and the District installments the lender will pay for this parcel "
    "this fiscal year. The owner sees it on the parcel's page and before paying, so that "
    "nothing is paid twice.":
        "Marque las facturas del CRIM y los plazos de la derrama del Distrito que el acreedor "
        "hipotecario pagará por esta propiedad este año fiscal. El dueño lo ve en la página "
        "de la propiedad y antes de pagar, para que nada se pague dos veces.",
    "Someone else is already paying the District's account of this parcel (a payment "
    "started %(date)s and not finished). Its installments cannot be marked until it ends.":
        "Otra persona ya está pagando la cuenta del Distrito de esta propiedad (un pago "
        "comenzado el %(date)s y sin terminar). Sus plazos no se pueden marcar hasta que "
        "termine.",
    "marked %(date)s": "marcado el %(date)s",
    "Already paid this year (cannot be marked): installments %(numbers)s.":
        "Ya pagados este año (no se pueden marcar): plazos %(numbers)s.",
    "What the lender will pay": "Lo que pagará el acreedor hipotecario",
    "Nothing to mark this fiscal year.": "No hay nada que marcar este año fiscal.",
    "Withdrawn marks": "Marcas retiradas",
    "withdrawn %(date)s": "retirado el %(date)s",
    "Your bank said it will pay this": "Su banco dijo que pagará esto",
    "%(what)s: %(amount)s. %(lender)s said on %(date)s that it will pay it.":
        "%(what)s: %(amount)s. %(lender)s indicó el %(date)s que lo pagará.",
    "You can still pay it yourself. If both of you pay, what is paid beyond what is owed "
    "stays as a credit on the account, which the office can refund. If you can, ask your "
    "bank first.":
        "Usted todavía puede pagarlo. Si ambos pagan, lo pagado en exceso de lo que se debe "
        "queda como crédito en la cuenta, que la oficina puede reembolsar. Si puede, consulte "
        "primero con su banco.",
    "Your bank said it will pay this. To pay it yourself, check the box below.":
        "Su banco dijo que pagará esto. Para pagarlo usted, marque la casilla de abajo.",
    "I know my bank said it will pay this, and I want to pay it myself.":
        "Sé que mi banco dijo que pagará esto, y quiero pagarlo yo.",
}
