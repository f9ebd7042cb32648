"""Reviewed Puerto Rico Spanish for the lenders' bulk certifications (J7, R-B9, R-B21): the
upload page, the column guide, a batch's report and the reasons a row is rejected. Terms as
docs/GLOSSARY.md: propiedad, préstamo, número de catastro, exoneración residencial, año
fiscal, radicar ("presentada" for a certification on file, as the exemption's pages say).

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/lender_batches_es.py
    make catalogs
"""

ES = {
    # the column guide
    "The loan number, as in your portfolio.":
        "El número del préstamo, como aparece en su cartera.",
    "The parcel's catastro number (e.g. 040-012-345-67).":
        "El número de catastro de la propiedad (por ejemplo, 040-012-345-67).",
    "The fiscal year of the certification, e.g. 2026-2027 (only the year in course is open).":
        "El año fiscal de la certificación, por ejemplo, 2026-2027 (solo está abierto el año "
        "en curso).",
    "The owners who live in the home, as on record, separated by | (both spouses).":
        "Los dueños que viven en la residencia, como constan en el registro, separados por | "
        "(ambos cónyuges).",
    "Yes if the owners lived in it as their main home on January 1; no otherwise.":
        "Sí, si los dueños vivían en ella como su residencia principal el 1 de enero; no, de "
        "lo contrario.",
    "Optional: the part used as the home, from 0 to 1 (e.g. 0.75), when not the whole "
    "property.":
        "Opcional: la parte que se usa como residencia, de 0 a 1 (por ejemplo, 0.75), cuando "
        "no es toda la propiedad.",
    "Optional, instead of the fraction: the residential valuation in dollars.":
        "Opcional, en lugar de la fracción: la valoración residencial en dólares.",
    "Optional: the veteran's exemption in dollars (0 if none).":
        "Opcional: la exención de veterano en dólares (0 si no tiene).",
    "Optional: for a housing cooperative, the unit's share, from 0 to 1.":
        "Opcional: en una cooperativa de vivienda, la participación de la unidad, de 0 a 1.",
    "Optional: for a new structure bought after January 1, the deed date (YYYY-MM-DD).":
        "Opcional: para una estructura nueva comprada después del 1 de enero, la fecha de la "
        "escritura (AAAA-MM-DD).",
    "Full name of the lender's officer who attests.":
        "Nombre completo del oficial del prestamista que certifica.",
    "Yes: the lender holds the certification the owner signed.":
        "Sí: el prestamista tiene la certificación que firmó el dueño.",
    # why a row is rejected
    "This column is required.": "Esta columna es obligatoria.",
    "This is not one of your loans (check the loan number and the catastro number).":
        "Este no es uno de sus préstamos (verifique el número del préstamo y el número de "
        "catastro).",
    "Write the fiscal year as 2026-2027.": "Escriba el año fiscal así: 2026-2027.",
    "Only the fiscal year %(open)s is open for certifications.":
        "Solo el año fiscal %(open)s está abierto para certificaciones.",
    "%(name)s is not an owner on record of this parcel.":
        "%(name)s no consta en el registro como dueño de esta propiedad.",
    "Both spouses must be named (R-B5).": "Hay que nombrar a ambos cónyuges (R-B5).",
    "An owner already holds the residential exemption on another property this year (R-B6).":
        "Un dueño ya tiene la exoneración residencial en otra propiedad este año (R-B6).",
    "Write yes or no.": "Escriba sí o no.",
    "The exemption is only for the owners' main home on January 1 (R-B1).":
        "La exoneración es solo para la residencia principal de los dueños el 1 de enero "
        "(R-B1).",
    "Write a number from 0 to 1, e.g. 0.75.": "Escriba un número de 0 a 1, por ejemplo, 0.75.",
    "Write an amount in dollars, e.g. 1500.00.":
        "Escriba una cantidad en dólares, por ejemplo, 1500.00.",
    "Give the fraction or the residential valuation, not both.":
        "Indique la fracción o la valoración residencial, no ambas.",
    "Write the unit's share, a number from 0 to 1.":
        "Escriba la participación de la unidad, un número de 0 a 1.",
    "Write the date as YYYY-MM-DD.": "Escriba la fecha así: AAAA-MM-DD.",
    "The date cannot be after today.": "La fecha no puede ser posterior a hoy.",
    "Write the officer's full name.": "Escriba el nombre completo del oficial.",
    "The officer must attest (yes) that the lender holds the certification the owner signed "
    "(R-B21).":
        "El oficial tiene que certificar (sí) que el prestamista tiene la certificación que "
        "firmó el dueño (R-B21).",
    "The CRIM's facts for this property and year are not on file yet.":
        "Los datos del CRIM de esta propiedad y año todavía no constan.",
    "The property owed property tax on January 1: the owner files with a payment plan "
    "(R-B11).":
        "La propiedad debía contribución sobre la propiedad el 1 de enero: el dueño radica "
        "con un plan de pago (R-B11).",
    "The certification does not meet %(rules)s.": "La certificación no cumple con %(rules)s.",
    "A certification with other answers is already on file for this property and year.":
        "Ya hay presentada una certificación con otras contestaciones para esta propiedad y "
        "año.",
    "The exemption cannot be computed from these values.":
        "La exoneración no se puede calcular con estos valores.",
    # a file refused as a whole
    "The file is not a CSV (text) file.": "El archivo no es un archivo CSV (de texto).",
    "Columns missing: %(columns)s.": "Faltan columnas: %(columns)s.",
    "Unknown columns: %(columns)s.": "Columnas desconocidas: %(columns)s.",
    "Repeated columns: %(columns)s.": "Columnas repetidas: %(columns)s.",
    "At most %(most)s rows per file.": "A lo sumo %(most)s filas por archivo.",
    # the pages
    "Accepted": "Aceptada",
    "Rejected": "Rechazada",
    "Already filed": "Ya presentada",
    # a batch's counts (the badge above is one row's outcome)
    "Rows accepted": "Filas aceptadas",
    "Rows rejected": "Filas rechazadas",
    "Rows already filed": "Filas ya presentadas",
    "All rows": "Todas las filas",
    "Waiting to start": "En espera",
    "Processed": "Procesado",
    "Stopped": "Detenido",
    "The CSV file of certifications": "El archivo CSV de certificaciones",
    "Upload the certifications": "Subir las certificaciones",
    "Batch": "Lote",
    "Batch %(id)s": "Lote %(id)s",
    "Upload certifications": "Subir certificaciones",
    "%(done)s of %(total)s rows": "%(done)s de %(total)s filas",
    "This page reloads by itself every few seconds while the rows are processed.":
        "Esta página se recarga sola cada pocos segundos mientras se procesan las filas.",
    ("%(num)s row was already filed with the same answers: nothing new was filed for it.",
     "%(num)s rows were already filed with the same answers: nothing new was filed for "
     "them."):
        ("%(num)s fila ya estaba presentada con las mismas contestaciones: no se radicó nada "
         "nuevo por ella.",
         "%(num)s filas ya estaban presentadas con las mismas contestaciones: no se radicó "
         "nada nuevo por ellas.",
         "%(num)s filas ya estaban presentadas con las mismas contestaciones: no se radicó "
         "nada nuevo por ellas."),
    ("%(num)s row was rejected: download it, fix it and upload only that row.",
     "%(num)s rows were rejected: download them, fix them and upload only those rows."):
        ("%(num)s fila fue rechazada: descárguela, corríjala y suba solo esa fila.",
         "%(num)s filas fueron rechazadas: descárguelas, corríjalas y suba solo esas filas.",
         "%(num)s filas fueron rechazadas: descárguelas, corríjalas y suba solo esas filas."),
    "Download the rejected rows (CSV)": "Descargar las filas rechazadas (CSV)",
    "Download the full report (CSV)": "Descargar el informe completo (CSV)",
    "Report by row": "Informe por fila",
    "Outcome": "Resultado",
    "Column and reason": "Columna y motivo",
    "Exemption computed": "Exoneración calculada",
    "Tax with the exemption": "Contribución con la exoneración",
    "Waiting": "En espera",
    "No rows to show.": "No hay filas que mostrar.",
    "The certifications file's columns": "Las columnas del archivo de certificaciones",
    "The first row names the columns, in Spanish or in English, in any order. One row per "
    "loan.":
        "La primera fila nombra las columnas, en español o en inglés, en cualquier orden. Una "
        "fila por préstamo.",
    "What it holds": "Qué contiene",
    "Yes and no may be written sí/si/yes or no. Amounts in dollars with a point for cents "
    "(1500.00). Several owners separated by |, as their names are on record.":
        "Sí y no se pueden escribir sí/si/yes o no. Las cantidades, en dólares con punto para "
        "los centavos (1500.00). Varios dueños, separados por |, como constan sus nombres en "
        "el registro.",
    "Residential-exemption certifications in bulk":
        "Certificaciones de exoneración residencial en lote",
    "File the residential exemption of many loans at once: one row per loan, in a CSV file. "
    "Each row is checked and filed as the owner's certification; you get a report of every "
    "row.":
        "Radique la exoneración residencial de muchos préstamos a la vez: una fila por "
        "préstamo, en un archivo CSV. Cada fila se verifica y se radica como la certificación "
        "del dueño; recibe un informe de cada fila.",
    "1. Prepare the file": "1. Prepare el archivo",
    "What each column holds (column guide, in Spanish and English)":
        "Qué contiene cada columna (guía de columnas, en español y en inglés)",
    "UTF-8 (with or without BOM) or Windows-1252; commas or semicolons; at most %(max)s rows.":
        "UTF-8 (con o sin BOM) o Windows-1252; comas o punto y coma; a lo sumo %(max)s filas.",
    "A row already filed with the same answers files nothing new: you may upload the same "
    "file again.":
        "Una fila ya presentada con las mismas contestaciones no radica nada nuevo: puede "
        "subir el mismo archivo otra vez.",
    "2. Upload it": "2. Súbalo",
    "The officer's attestation is in each row: the lender holds the certification the owner "
    "signed.":
        "La certificación del oficial va en cada fila: el prestamista tiene la certificación "
        "que firmó el dueño.",
    "Latest uploads": "Últimos lotes",
    "No uploads yet.": "Todavía no hay lotes.",
}
