"""Reviewed Puerto Rico Spanish for the Board's parameters pages and the days it declares
closed (portal/web/staff/board_parameters.py, templates/staff/board_*.html, the closed-day
explanations of portal/core/closures.py). Terms: Junta (the Board), la Autoridad, el CRIM,
resolución, año fiscal, plazo (installment), último día para pagar a tiempo (last timely
day), cargo por demora (late fee), intereses, pago global (lump sum), en vigor.
"""

ES = {
    "%(day)s is already declared closed.": "El %(day)s ya está declarado cerrado.",
    "%(name)s for %(label)s": "%(name)s para %(label)s",
    "A day the Board declares closed (a hurricane, an outage of the portal) counts as a "
    "holiday: a last day to act that falls on it moves to the next working day, from the next "
    "page anyone opens. Owners see why their last day moved, with the reason you write here.":
        "Un día que la Junta declara cerrado (un huracán, una interrupción del portal) cuenta "
        "como un día feriado: un último día para actuar que caiga en él pasa al próximo día "
        "laborable, desde la próxima página que cualquiera abra. Los dueños ven por qué se "
        "movió su último día, con la razón que usted escriba aquí.",
    "A last day to act that falls on one of these days moves to the next working day, as on a "
    "weekend or a holiday (1 LPRA § 72).":
        "Un último día para actuar que caiga en uno de estos días pasa al próximo día "
        "laborable, como en un fin de semana o un día feriado (1 LPRA § 72).",
    "A rate from %(low)s to %(high)s, written 0.07 or 7%%.":
        "Una tasa de %(low)s a %(high)s, escrita 0.07 o 7%%.",
    "All parameters of %(label)s": "Todos los parámetros de %(label)s",
    "As owners reading in English will see it, for example: Hurricane Maria.":
        "Como la verán los dueños que leen en inglés, por ejemplo: Hurricane Maria.",
    "As owners reading in Spanish will see it, for example: Huracán María.":
        "Como la verán los dueños que leen en español, por ejemplo: Huracán María.",
    "Board parameters by fiscal year and days declared closed":
        "Parámetros de la Junta por año fiscal y días declarados cerrados",
    "Board parameters for %(label)s": "Parámetros de la Junta para %(label)s",
    "Check this value.": "Revise este valor.",
    "Day": "Día",
    "Days the Board declared closed": "Días que la Junta declaró cerrados",
    "Declare at most %(most)s days at a time.": "Declare como máximo %(most)s días a la vez.",
    "Declare closed": "Declarar cerrado",
    "Declare days closed": "Declarar días cerrados",
    "First day closed": "Primer día cerrado",
    "For example 2026-14.": "Por ejemplo, 2026-14.",
    "Grace day of the month": "Día de gracia del mes",
    "Installment {number}: the last timely day was extended to {last} because the Board "
    "declared {day} closed ({reason}, {reference}).":
        "Plazo {number}: el último día para pagar a tiempo se extendió al {last} porque la "
        "Junta declaró cerrado el {day} ({reason}, {reference}).",
    "Interest rate (yearly)": "Tasa de intereses (anual)",
    "It cannot take effect before the resolution's date.":
        "No puede entrar en vigor antes de la fecha de la resolución.",
    "It must take effect by the fiscal year's last day.":
        "Debe entrar en vigor a más tardar el último día del año fiscal.",
    "Last day closed (if more than one)": "Último día cerrado (si es más de uno)",
    "Late fee base": "Base del cargo por demora",
    "Late fee rate": "Tasa del cargo por demora",
    "Leave it blank for one day.": "Déjelo en blanco si es un solo día.",
    "Lump-sum deadline": "Fecha límite del pago global",
    "New value": "Valor nuevo",
    "No value has been recorded for this year: the values are the parameter files'.":
        "No se ha registrado ningún valor para este año: los valores son los de los archivos "
        "de parámetros.",
    "No. %(number)s of %(date)s": "Núm. %(number)s del %(date)s",
    "None adopted for this year": "Ninguno adoptado para este año",
    "Number of installments": "Número de plazos",
    "Parameter": "Parámetro",
    "Parameters": "Parámetros",
    "Parameters of %(label)s": "Parámetros de %(label)s",
    "Reason, in English": "Razón, en inglés",
    "Reason, in Spanish": "Razón, en español",
    "Record a new value": "Registrar un valor nuevo",
    "Record the new value": "Registrar el valor nuevo",
    "Record the value as the resolution adopted it. The old value stays on record; the new "
    "one is used by the statements and deadlines of %(label)s from the day it takes effect.":
        "Registre el valor como lo adoptó la resolución. El valor anterior queda en el "
        "registro; los estados de cuenta y las fechas límite de %(label)s usan el nuevo desde "
        "el día en que entra en vigor.",
    "Recorded": "Registrado",
    "Recorded changes": "Cambios registrados",
    "Reference": "Referencia",
    "Resolution": "Resolución",
    "Resolution date": "Fecha de la resolución",
    "Resolution number": "Número de la resolución",
    "Set by": "Lo fija",
    "Statute (read-only)": "La ley (solo lectura)",
    "Takes effect on": "Entra en vigor el",
    "The Authority": "La Autoridad",
    "The Board": "La Junta",
    "The Board declared no day closed in this fiscal year.":
        "La Junta no declaró ningún día cerrado en este año fiscal.",
    "The CRIM": "El CRIM",
    "The days are declared closed. Last days that fall on them move to the next working day "
    "from now on.":
        "Los días quedan declarados cerrados. Desde ahora, los últimos días que caigan en "
        "ellos pasan al próximo día laborable.",
    "The last day cannot be before the first.": "El último día no puede ser antes del primero.",
    "The lump-sum deadline": "La fecha límite del pago global",
    "The new value is recorded. Statements and deadlines use it from now on.":
        "El valor nuevo quedó registrado. Los estados de cuenta y las fechas límite lo usan "
        "desde ahora.",
    "The resolution's date cannot be after today.":
        "La fecha de la resolución no puede ser posterior a hoy.",
    "The values the statements and deadlines of the fiscal year use, each with the statute's "
    "clause or the resolution that set it. The Board and the Authority adopt some of them for "
    "each fiscal year; a value the law fixes is shown here read-only. A recorded value is in "
    "force from its effective day; the values before it stay on record.":
        "Los valores que usan los estados de cuenta y las fechas límite del año fiscal, cada "
        "uno con la disposición de la ley o la resolución que lo fijó. La Junta y la "
        "Autoridad adoptan algunos para cada año fiscal; un valor que fija la ley se muestra "
        "aquí solo para lectura. Un valor registrado está en vigor desde el día en que entra "
        "en vigor; los valores anteriores quedan en el registro.",
    "Value now": "Valor actual",
    "Write a rate from %(low)s to %(high)s.": "Escriba una tasa de %(low)s a %(high)s.",
    "Write a rate such as 0.07 or 7%.": "Escriba una tasa como 0.07 o 7%.",
    "Write at most %(most)s characters.": "Escriba %(most)s caracteres como máximo.",
    "Write the day it takes effect.": "Escriba el día en que entra en vigor.",
    "Write the first day closed.": "Escriba el primer día cerrado.",
    "Write the new value.": "Escriba el valor nuevo.",
    "Write the reason in English.": "Escriba la razón en inglés.",
    "Write the reason in Spanish.": "Escriba la razón en español.",
    "Write the resolution's date.": "Escriba la fecha de la resolución.",
    "Write the resolution's number.": "Escriba el número de la resolución.",
    "by %(who)s on %(date)s": "por %(who)s el %(date)s",
    "in the parameter files": "en los archivos de parámetros",
    "not in force yet": "todavía no en vigor",
    "replaced": "reemplazado",
    "the first installment's due date": "la fecha de vencimiento del primer plazo",
    "the unpaid part": "la parte sin pagar",
    "{what} was extended to {last} because the Board declared {day} closed ({reason}, "
    "{reference}).":
        "{what} se extendió al {last} porque la Junta declaró cerrado el {day} ({reason}, "
        "{reference}).",
}
