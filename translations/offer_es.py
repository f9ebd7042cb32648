"""Reviewed Puerto Rico Spanish for what can be paid (`portal/core/offer.py`) and where the
pages show it: the payoff today and good through a later day, the lump sum (R-A11) and what
stops the court claim (R-A13, R-A18).

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/offer_es.py
    make catalogs
"""

ES = {
    " (interest is added each day).": " (se suman intereses cada día).",
    ": interest runs until paid.": ": los intereses corren hasta que se pague.",
    "Nothing is owed any more on what the demand listed: the claim in court is stopped.":
        "Ya no se debe nada de lo que el requerimiento reclamó: la reclamación en el tribunal "
        "queda detenida.",
    "Paid in one lump sum by {deadline}, the year's {annual} earns a discount of {discount}: "
    "pay {amount}.":
        "Pagada en un solo pago global a más tardar el {deadline}, la derrama del año de "
        "{annual} recibe un descuento de {discount}: pague {amount}.",
    "Paid in one lump sum by {deadline}, the year's {annual} earns a discount of {discount}; "
    "with the {other} of interest, fees and costs owed first, pay {amount}.":
        "Pagada en un solo pago global a más tardar el {deadline}, la derrama del año de "
        "{annual} recibe un descuento de {discount}; con los {other} de intereses, cargos y "
        "costas que se deben primero, pague {amount}.",
    "Paid later: %(amount)s, good through": "Si paga más tarde: %(amount)s, válido hasta el",
    "Pay the whole year": "Pagar todo el año",
    "Pay-off amount paid today, %(date)s": "Cantidad para saldar, pagada hoy, %(date)s",
    "The whole year in one payment: %(amount)s, saving %(discount)s, by":
        "Todo el año en un solo pago: %(amount)s, con un ahorro de %(discount)s, a más tardar el",
    "To pay everything off today:": "Para saldar todo hoy:",
    "To stop a claim in court, pay %(today)s today, or %(by_last)s by %(date)s (%(left)s), "
    "the last day: interest runs until paid.":
        "Para evitar una reclamación en el tribunal, pague %(today)s hoy, o %(by_last)s a más "
        "tardar el %(date)s (%(left)s), el último día: los intereses corren hasta que se pague.",
    "To stop a claim in court, pay %(today)s today, or %(by_last)s by the last day,":
        "Para evitar una reclamación en el tribunal, pague %(today)s hoy, o %(by_last)s a más "
        "tardar el último día, el",
    "What the demand listed, with its interest to each day, is {today} paid today or "
    "{by_last_day} paid on {last}, the last day; interest, late fees and costs are paid first "
    "(R-A10).":
        "Lo que el requerimiento reclamó, con sus intereses a cada día, es {today} si paga hoy "
        "o {by_last_day} si paga el {last}, el último día; los intereses, cargos por demora y "
        "costas se pagan primero (R-A10).",
    "What the demand listed, to stop the claim in court":
        "Lo que reclamó el requerimiento, para evitar la reclamación en el tribunal",
    "What the demand listed, with interest to today, to stop a claim in court:":
        "Lo que reclamó el requerimiento, con los intereses hasta hoy, para evitar una "
        "reclamación en el tribunal:",
    "Paid by the last day, %(amount)s (interest runs each day). Last day:":
        "Si paga el último día, %(amount)s (los intereses corren cada día). Último día:",
}
