"""Reviewed Puerto Rico Spanish for the statute's defaults the Board (or the Authority) may
replace for a fiscal year, on the staff's parameters pages (/personal/parametros): the grace
day (R-A6), the late fee's base (R-A7), the lump-sum deadline (R-A11) and the number of
installments (R-A4).

Terms (docs/GLOSSARY.md): plazo (installment, never "cuota"), cargo por demora (late fee,
never "recargo"), pago global (lump sum), año fiscal, registro de derramas (the roll), la
Junta, la Autoridad, resolución. Apply as translations/web_es.py says
(scripts/fill_catalog.py).
"""

ES = {
    # portal/web/staff/board_parameters.py: a value refused, by parameter
    "Write a day of the month from 1 to 31.": "Escriba un día del mes del 1 al 31.",
    "Write a number of installments from 1 to 12.": "Escriba un número de plazos del 1 al 12.",
    "The installments of this fiscal year are already written: its roll is published. "
    "Their number cannot change now; an amendment changes the amounts, not the number of "
    "installments.":
        "Los plazos de este año fiscal ya están escritos: su registro de derramas está "
        "publicado. Su número ya no puede cambiar; una enmienda cambia las cantidades, no el "
        "número de plazos.",
    "Choose what the late fee is measured on.": "Escoja sobre qué se mide el cargo por demora.",
    "Choose the last day for the lump sum.": "Escoja el último día para el pago global.",
    "Write the last day for the lump sum.": "Escriba el último día para el pago global.",
    "Write a day that exists, such as 2026-08-31.":
        "Escriba un día que exista, como 2026-08-31.",
    "Write a day within fiscal year %(label)s.": "Escriba un día del año fiscal %(label)s.",
    "The last day": "El último día",
    # templates/staff/board_parameter_edit.html
    "The statute's default": "El valor que da la ley",
    "%(body)s may set another value for a fiscal year.":
        "%(body)s puede fijar otro valor para un año fiscal.",
    "a fixed day, written below": "un día fijo, escrito abajo",
    "If a fixed day: a day of fiscal year %(label)s, year-month-day, for example 2026-08-31.":
        "Si es un día fijo: un día del año fiscal %(label)s, año-mes-día, por ejemplo "
        "2026-08-31.",
    "A day of the month from %(low)s to %(high)s; a day beyond a month's end means its last "
    "day.":
        "Un día del mes del %(low)s al %(high)s; un día que pase del fin de un mes es su "
        "último día.",
    "A whole number from %(low)s to %(high)s.": "Un número entero del %(low)s al %(high)s.",
    # templates/staff/board_parameters.html
    "The statute's default: %(value)s (%(clause)s)":
        "El valor que da la ley: %(value)s (%(clause)s)",
    "The values the statements and deadlines of the fiscal year use, each with the statute's "
    "clause or the resolution that set it. The Board and the Authority adopt some of them for "
    "each fiscal year, and may replace some of the statute's values for a year, as the "
    "statute allows; a value only the law fixes is shown here read-only. A recorded value is "
    "in force from its effective day; the values before it stay on record.":
        "Los valores que usan los estados de cuenta y las fechas límite del año fiscal, cada "
        "uno con la disposición de la ley o la resolución que lo fijó. La Junta y la "
        "Autoridad adoptan algunos para cada año fiscal, y pueden sustituir para un año "
        "algunos valores de la ley, como la ley lo permite; un valor que solo fija la ley se "
        "muestra aquí solo para lectura. Un valor registrado rige desde el día en que entra en "
        "vigor; los valores anteriores quedan en el registro.",
}
