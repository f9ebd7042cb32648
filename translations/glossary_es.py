"""Reviewed Puerto Rico Spanish that makes the catalog follow docs/GLOSSARY.md:
one term per concept (tests/web/test_glossary.py).

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/glossary_es.py
    make catalogs
"""

ES = {
    # "atrasado" -> "vencido" (past due)
    "Lessees: the balance of the parcel you lease, what is late and what stops the next "
    "collection step.":
        "Arrendatarios: el balance de la propiedad que arrienda, lo que está vencido y lo que "
        "detiene el próximo paso de cobro.",
    # "costo" -> "costa" (collection costs, R-A9)
    "A credit of {amount} was applied on {date} to a new cost.":
        "Un crédito de {amount} se aplicó el {date} a una costa nueva.",
    # R-A13: "Rule 60" explained in English as in Spanish.
    "Paying it in full by {last} stops a claim in court; from {first} the debt may be claimed "
    "in court under Rule 60 of Civil Procedure (the summary procedure, faster, for collecting "
    "money), whatever the amount.":
        "Pagarlo completo a más tardar el {last} evita la reclamación en el tribunal; desde el "
        "{first} la deuda se puede reclamar en el tribunal por la Regla 60 de Procedimiento "
        "Civil (el procedimiento sumario, más rápido, para cobrar dinero), sea cual sea la "
        "cantidad.",
    # R-A4: a late notice puts the first installments on one day.
    "{annual} is paid in {count} installments of {first} or less: installments 1 to {through} "
    "fall due on {first_due}, the 1st of the month after the notice; the rest on the 1st of "
    "each month from {start}.":
        "{annual} se paga en {count} plazos de {first} o menos: los plazos 1 a {through} vencen "
        "el {first_due}, el día 1 del mes siguiente a la notificación; los demás, el día 1 de "
        "cada mes desde el {start}.",
    "{annual} is paid in {count} installments of {first} or less, all due on {first_due}, the "
    "1st of the month after the notice.":
        "{annual} se paga en {count} plazos de {first} o menos, que vencen todos el "
        "{first_due}, el día 1 del mes siguiente a la notificación.",
    "This payment goes first to the past-due debt (rule R-A10): interest, late fees and costs, "
    "then the overdue installments.":
        "Este pago se aplica primero a la deuda vencida (regla R-A10): intereses, cargos por "
        "demora y costas, y luego los plazos vencidos.",
}
