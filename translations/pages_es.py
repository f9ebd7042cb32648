"""Reviewed Puerto Rico Spanish for the pages an owner reads first (the parcel page's first
screen, the pay page and dashboard, receipts' states, the error summary) and fixes of Spanish
the catalog held before.

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/pages_es.py
    make catalogs
One term per concept (DESIGN.md 5): "propiedad" for a parcel on every screen and in every
explanation (not "parcela"); "deuda vencida" (not "deuda vieja"); "último día para pagar a
tiempo" for R-A6's last timely day; "cantidad para saldar" for the pay-off amount; dates in
the long form ("10 de diciembre de 2026"). Entries below the first block replace Spanish that
was already in the catalog.
"""

ES = {
    # --- New: the parcel page's first screen (views.answer) -----------------------------------
    "Your account today": "Su cuenta hoy",
    "You have %(amount)s past due.": "Tiene %(amount)s vencidos.",
    "To stop a claim in court, pay %(today)s today, or %(by_last)s by":
        "Para detener una reclamación en el tribunal, pague %(today)s hoy, o %(by_last)s a más "
        "tardar el",
    "You have %(amount)s past due: pay it as soon as you can. Since %(date)s the debt may be "
    "claimed in court.":
        "Tiene %(amount)s vencidos: pague cuanto antes. Desde el %(date)s la deuda se puede "
        "reclamar en el tribunal.",
    "You have %(amount)s past due: pay it as soon as you can, interest is added every day.":
        "Tiene %(amount)s vencidos: pague cuanto antes, porque los intereses aumentan cada día.",
    "You have %(amount)s due now: pay it by": "Tiene %(amount)s por pagar ahora: pague a más tardar el",
    "to avoid a late fee.": "para no pagar un cargo por demora.",
    "You are up to date. Next payment: %(amount)s by":
        "Está al día. Próximo pago: %(amount)s a más tardar el",
    "You are up to date: nothing else is due this year.":
        "Está al día: no vence nada más este año.",
    "Pay the whole year at once and save %(discount)s:":
        "Pague todo el año de una vez y ahorre %(discount)s:",
    "%(amount)s by": "%(amount)s a más tardar el",
    "Nothing owed for: %(items)s.": "No se adeuda nada por: %(items)s.",
    "%(count)s installments": "%(count)s plazos",
    "The deadline was": "La fecha límite fue el",
    # --- New: the pay page and the dashboard ---------------------------------------------------
    "Pay the whole year at once and save": "Pague todo el año de una vez y ahorre",
    "Parcel %(catastro)s: %(amount)s in one payment saves %(discount)s, by":
        "Propiedad %(catastro)s: %(amount)s en un solo pago le ahorra %(discount)s, a más "
        "tardar el",
    "Choose it below": "Escójalo abajo",
    "Next due date:": "Próximo vencimiento:",
    "Pay %(amount)s, all that parcel %(catastro)s owes today":
        "Pagar %(amount)s, todo lo que la propiedad %(catastro)s adeuda hoy",
    # --- New: the receipt's states ---------------------------------------------------------------
    "Attempted on": "Intentado el",
    "Started on": "Comenzado el",
    "How the payment is being applied": "Cómo se está aplicando el pago",
    "Total in process": "Total en proceso",
    "Nothing was charged. You can try again with the same or another card or bank account.":
        "No se cobró nada. Puede intentarlo de nuevo con la misma u otra tarjeta o cuenta de "
        "banco.",
    "Try the payment again": "Intentar el pago de nuevo",
    # --- New: the error summary --------------------------------------------------------------
    "Error:": "Error:",
    # --- Fixes of Spanish already in the catalog ----------------------------------
    "The email or the password is not correct.":
        "El correo electrónico o la contraseña no son correctos.",
    "More than this account's pay-off of {payoff}.":
        "Es más que la cantidad para saldar esta cuenta, {payoff}.",
    "Paying it in full by {last} stops a claim in court; from {first} the debt may be claimed "
    "under Rule 60, whatever the amount.":
        "Pagarlo completo a más tardar el {last} evita la reclamación en el tribunal; desde el "
        "{first} la deuda se puede reclamar en el tribunal por la Regla 60 de Procedimiento "
        "Civil (el procedimiento sumario, más rápido, para cobrar dinero), sea cual sea la "
        "cantidad.",
    "Deadline:": "Fecha límite:",
    '%(name)s paid parcel %(parcels)s from a bank account on %(date)s at %(time)s; the bank is still processing that payment.':
        '%(name)s pagó la propiedad %(parcels)s desde una cuenta de banco el %(date)s a las %(time)s; el banco todavía está procesando ese pago.',
    '%(name)s started paying parcel %(parcels)s on %(date)s at %(time)s and has not finished yet.':
        '%(name)s comenzó a pagar la propiedad %(parcels)s el %(date)s a las %(time)s y todavía no ha terminado.',
    "Each parcel's share by its benefit":
        'La parte de cada propiedad según su beneficio',
    'Every installment was paid by its last timely day: no late fee.':
        'Cada plazo se pagó a más tardar en su último día para pagar a tiempo: no hay cargo por demora.',
    'Installment {number}, due {due}, of {amount}: {owed} of its principal is unpaid since its last timely day, {last_day}.':
        'Plazo {number}, vencido el {due}, de {amount}: {owed} de su principal sigue sin pagar desde su último día para pagar a tiempo, el {last_day}.',
    'Installment {number}, due {due}, was not paid in full by {last_day}, the last timely day: it is delinquent.':
        'El plazo {number}, vencido el {due}, no se pagó completo a más tardar el {last_day}, último día para pagar a tiempo: está en mora.',
    'Last timely day':
        'Último día para pagar a tiempo',
    'Of the total {total}, {fixed} is fixed by the Board on {nfixed} parcels; {rest} is shared by benefit units.':
        'Del total de {total}, la Junta fijó {fixed} sobre {nfixed} propiedades; {rest} se reparte por unidades de beneficio.',
    'This payment goes first to the old debt (rule R-A10): interest, late fees and costs, then the overdue installments.':
        'Este pago se aplica primero a la deuda vencida (regla R-A10): intereses, cargos por demora y costas, y luego los plazos vencidos.',
    'Which parcels are assessed':
        'Qué propiedades pagan derrama',
    'the principal unpaid at the end of the last timely day':
        'el principal no pagado al cierre del último día para pagar a tiempo',
    '{assessable} parcels are assessed; {exempt} are exempt public land not transferred.':
        '{assessable} propiedades pagan derrama; {exempt} son terrenos públicos no traspasados y están exentas.',
    '{total} shared over {n} parcels in proportion to their benefit units; leftover cents go to the largest remainders.':
        '{total} repartido entre {n} propiedades en proporción a sus unidades de beneficio; los centavos sobrantes van a los mayores residuos.',
    "{units} benefit units of {total_units} in all share {pool}: this parcel's assessment is {amount}.":
        '{units} unidades de beneficio de {total_units} en total comparten {pool}: la derrama de esta propiedad es {amount}.',
    # Staff pages' new messages, in the same term (the glossary: tests/web/test_glossary.py).
    "%(done)s of %(total)s parcels": "%(done)s de %(total)s propiedades",
    "%(rate)s parcels a second": "%(rate)s propiedades por segundo",
    "Exempt parcels": "Propiedades exentas",
    "Parcels assessed": "Propiedades con derrama",
    "The calculation refused the roll's figures: check the parcels' benefit units and the "
    "budget's total.":
        "El cálculo rechazó las cifras del registro: revise las unidades de beneficio de las "
        "propiedades y el total del presupuesto.",
    # The offer of English to a browser that asks for it (shown in English; Spanish for the
    # catalog's completeness).
    "This portal is in Spanish first. It is also in English:":
        "Este portal está primero en español. También está en inglés:",
    "Read it in English": "Léalo en inglés",
    "The Board fixed this parcel's assessment at %(amount)s; the rest of the total is shared by benefit units among the other parcels.":
        'La Junta fijó la derrama de esta propiedad en %(amount)s; el resto del total se reparte por unidades de beneficio entre las demás propiedades.',
    'The roll gives each parcel below the amount the Board fixed, and shares the rest of the total by benefit units among the other parcels (R-A3).':
        'La tasación le asigna a cada propiedad de abajo la cantidad que fijó la Junta y reparte el resto del total por unidades de beneficio entre las demás propiedades (R-A3).',
}
