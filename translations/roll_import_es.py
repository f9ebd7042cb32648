"""Reviewed Puerto Rico Spanish for the parcel roll's import (J8): the staff's
pages, the column guide, the per-row report's reasons.

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/roll_import_es.py
    make catalogs
Terms: padrón de propiedades (the parcel roll, the file of every parcel's facts), registro de
derramas (the assessment roll), propiedad (parcel: never "parcela"), arrendatario (lessee),
dueño (owner), unidades de beneficio (benefit units, R-A3), trabajo (a background job).
The column names themselves (catastro, unidades_beneficio, ...) are not translated: they are
what the file's header says.
"""

ES = {
    # pages
    "Parcel roll: import it from a CSV file": "Padrón de propiedades: importarlo de un archivo CSV",
    "Import the parcel roll": "Importar el padrón de propiedades",
    "Upload the roll as a CSV file. It is checked in full first, and nothing is written until the whole file is free of errors: you see each row with an error, and what the import would change on the roll, before you import it.":
        "Suba el padrón como un archivo CSV. Primero se revisa completo, y no se escribe nada hasta que el archivo entero esté libre de errores: antes de importarlo, verá cada fila con error y lo que la importación cambiaría en el padrón.",
    "The column guide: what to write in each column": "La guía de columnas: qué escribir en cada columna",
    "Download the template (CSV)": "Descargar la plantilla (CSV)",
    "The roll's CSV file": "El archivo CSV del padrón",
    "Upload and check": "Subir y revisar",
    "CSV, comma or semicolon separated, UTF-8 or Windows-1252 (what Excel saves). At most %(max)s MiB; a larger file: portal roll import FILE.":
        "CSV, separado por comas o por punto y coma, en UTF-8 o Windows-1252 (lo que guarda Excel). Hasta %(max)s MiB; un archivo más grande: portal roll import ARCHIVO.",
    "Latest imports": "Últimas importaciones",
    "File": "Archivo",
    "Uploaded": "Subido",
    "Rows": "Filas",
    "No roll file has been uploaded yet.": "Todavía no se ha subido ningún archivo del padrón.",
    "Choose the CSV file to upload.": "Escoja el archivo CSV que va a subir.",
    "Upload a .csv file (a spreadsheet saved as CSV).": "Suba un archivo .csv (una hoja de cálculo guardada como CSV).",
    "The file is larger than %(max)s MiB. Import it with the command line: portal roll import FILE.":
        "El archivo pasa de %(max)s MiB. Impórtelo con la línea de comandos: portal roll import ARCHIVO.",
    "Roll import %(id)s": "Importación del padrón %(id)s",
    "Read as": "Leído como",
    "separated by commas": "separado por comas",
    "separated by semicolons": "separado por punto y coma",
    "Rows read": "Filas leídas",
    "The file was not read": "No se pudo leer el archivo",
    "Nothing was imported.": "No se importó nada.",
    "What the import changes on the roll": "Lo que la importación cambia en el padrón",
    "What the import changed on the roll": "Lo que la importación cambió en el padrón",
    "New parcels: %(n)s": "Propiedades nuevas: %(n)s",
    "Parcels whose facts change: %(n)s": "Propiedades cuyos datos cambian: %(n)s",
    "Parcels as they are: %(n)s": "Propiedades que quedan igual: %(n)s",
    "Parcels on the roll the file does not list: %(n)s": "Propiedades del padrón que el archivo no incluye: %(n)s",
    "Parcels the file does not list stay on the roll as they are: an import never deletes a parcel.":
        "Las propiedades que el archivo no incluye se quedan en el padrón como están: una importación nunca borra una propiedad.",
    ("%(num)s row has errors", "%(num)s rows have errors"):
        ("%(num)s fila tiene errores", "%(num)s filas tienen errores", "%(num)s filas tienen errores"),
    "Nothing was imported. Correct the rows listed below in the file and upload it again.":
        "No se importó nada. Corrija en el archivo las filas que aparecen abajo y vuelva a subirlo.",
    "The report lists the first %(kept)s of %(n)s errors.": "El informe muestra los primeros %(kept)s de %(n)s errores.",
    "Rows with errors": "Filas con errores",
    "Download the report (CSV)": "Descargar el informe (CSV)",
    "Row": "Fila",
    "Column": "Columna",
    "Value": "Valor",
    "(empty)": "(vacío)",
    "Import the roll": "Importar el padrón",
    "Imported. Importing the same file again changes nothing.": "Importado. Importar el mismo archivo otra vez no cambia nada.",
    "Upload another file": "Subir otro archivo",
    "This file has errors: correct them in the file and upload it again. Nothing was imported.":
        "Este archivo tiene errores: corríjalos en el archivo y vuelva a subirlo. No se importó nada.",
    "New parcels": "Propiedades nuevas",
    "Parcels whose facts change": "Propiedades cuyos datos cambian",
    "Parcels on the roll the file does not list": "Propiedades del padrón que el archivo no incluye",
    ("%(num)s parcel", "%(num)s parcels"):
        ("%(num)s propiedad", "%(num)s propiedades", "%(num)s propiedades"),
    "What changes": "Qué cambia",
    "None.": "Ninguna.",
    "Back to the import": "Volver a la importación",
    "An import counts each row twice: once when it is checked, once when it is written.":
        "Una importación cuenta cada fila dos veces: cuando se revisa y cuando se escribe.",
    "Only an administrator uploads and imports the roll; you can read the imports and their reports.":
        "Solo un administrador sube e importa el padrón; usted puede ver las importaciones y sus informes.",
    # statuses
    "Uploaded: waiting for its check": "Subido: en espera de la revisión",
    "Being checked": "En revisión",
    "Has errors: nothing was imported": "Tiene errores: no se importó nada",
    "Checked, without errors: ready to import": "Revisado, sin errores: listo para importar",
    "Being imported": "Importándose",
    "Imported": "Importado",
    # the parcel's facts, as "what changes" names them
    "address": "dirección",
    "municipality": "municipio",
    "zone": "zona",
    "area in cuerdas": "cabida en cuerdas",
    "land valuation": "tasación del terreno",
    "structures valuation": "tasación de las estructuras",
    "owner kind": "tipo de dueño",
    "transferred": "transferida",
    "incentives exemption": "exención por incentivos",
    "benefit units": "unidades de beneficio",
    # why a row or the file was refused
    "This column is required: write a value.": "Esta columna es obligatoria: escriba un valor.",
    "Too long: write at most %(max)s characters.": "Demasiado largo: escriba %(max)s caracteres como máximo.",
    "Not a number: write digits with a period for decimals (for example 1250.50).":
        "No es un número: escriba dígitos con punto para los decimales (por ejemplo, 1250.50).",
    "It cannot be negative.": "No puede ser negativo.",
    "Too many decimals: write at most %(places)s.": "Demasiados decimales: escriba %(places)s como máximo.",
    "Too large: at most %(digits)s digits before the period.": "Demasiado grande: %(digits)s dígitos como máximo antes del punto.",
    "Not one of Puerto Rico's 78 municipalities: check the spelling (accents are optional).":
        "No es uno de los 78 municipios de Puerto Rico: revise cómo está escrito (los acentos son opcionales).",
    "Not a zone: write urbana, suburbana or rural.": "No es una zona: escriba urbana, suburbana o rural.",
    "Not an owner kind: write privado, autoridad or publico.": "No es un tipo de dueño: escriba privado, autoridad o publico.",
    "Write sí or no.": "Escriba sí o no.",
    "Not a catastro number: write it as 040-012-345-67 (11 digits).":
        "No es un número de catastro: escríbalo como 040-012-345-67 (11 dígitos).",
    "Not an email address.": "No es un correo electrónico.",
    "Not a date: write it as YYYY-MM-DD (for example 2026-07-01).":
        "No es una fecha: escríbala como AAAA-MM-DD (por ejemplo, 2026-07-01).",
    "The lease ends before it starts.": "El arrendamiento termina antes de empezar.",
    "%(found)s values for %(owners)s owners: give one per owner, separated by |.":
        "%(found)s valores para %(owners)s dueños: escriba uno por dueño, separados por |.",
    "A share is a fraction greater than 0 and at most 1, with at most 6 decimals.":
        "Una participación es una fracción mayor que 0 y de 1 como máximo, con 6 decimales como máximo.",
    "The owners' shares add up to %(total)s: they must add up to 1.":
        "Las participaciones de los dueños suman %(total)s: tienen que sumar 1.",
    "The lease's columns are filled in but the lessee's name is missing.":
        "Las columnas del arrendamiento tienen datos, pero falta el nombre del arrendatario.",
    "A lease needs the day it starts.": "Un arrendamiento necesita la fecha en que empieza.",
    "This row has %(found)s columns; the header has %(expected)s.":
        "Esta fila tiene %(found)s columnas; el encabezado tiene %(expected)s.",
    "This catastro number is already in row %(first)s: list each parcel once.":
        "Este número de catastro ya está en la fila %(first)s: incluya cada propiedad una sola vez.",
    "The file is empty.": "El archivo está vacío.",
    "The file is not a CSV text file. In Excel, choose File, Save as, “CSV UTF-8 (comma delimited)”.":
        "El archivo no es un archivo de texto CSV. En Excel, escoja Archivo, Guardar como, “CSV UTF-8 (delimitado por comas)”.",
    "The file's header lacks these columns: %(columns)s. Start from the template.":
        "Al encabezado del archivo le faltan estas columnas: %(columns)s. Empiece con la plantilla.",
    "The file's header has columns the roll does not have: %(columns)s.":
        "El encabezado del archivo tiene columnas que el padrón no tiene: %(columns)s.",
    "The file's header repeats these columns: %(columns)s.": "El encabezado del archivo repite estas columnas: %(columns)s.",
    "The stored file changed or is missing: upload it again.": "El archivo guardado cambió o no está: vuelva a subirlo.",
    # the guide
    "The parcel roll's columns": "Las columnas del padrón de propiedades",
    "One row per parcel, the first row the header. The header may use the Spanish or the English column names, in any order; every column must be there, even when its cells are empty. Save the file from Excel as “CSV UTF-8 (comma delimited)” or “CSV (comma delimited)”: both are read, with commas or semicolons.":
        "Una fila por propiedad; la primera fila es el encabezado. El encabezado puede usar los nombres de columna en español o en inglés, en cualquier orden; tienen que estar todas las columnas, aunque sus celdas estén vacías. Guarde el archivo desde Excel como “CSV UTF-8 (delimitado por comas)” o “CSV (delimitado por comas)”: se leen los dos, con comas o con punto y coma.",
    "Upload a file": "Subir un archivo",
    "Columns, in the template's order": "Columnas, en el orden de la plantilla",
    "Column (Spanish)": "Columna (español)",
    "Column (English)": "Columna (inglés)",
    "Required": "Obligatoria",
    "What to write": "Qué escribir",
    "Example": "Ejemplo",
    "How the import works": "Cómo funciona la importación",
    "The whole file is checked first. Every row with an error is listed with its row, column, value and the reason; nothing is written while any row has an error.":
        "Primero se revisa el archivo completo. Cada fila con error aparece con su fila, columna, valor y la razón; no se escribe nada mientras alguna fila tenga errores.",
    "The check shows what the import would change: new parcels, parcels whose facts change, and parcels on the roll the file does not list (they stay as they are).":
        "La revisión muestra lo que la importación cambiaría: propiedades nuevas, propiedades cuyos datos cambian y propiedades del padrón que el archivo no incluye (se quedan como están).",
    "A row matches a parcel on the roll by its catastro number. For a new parcel the owners and the lease are recorded too; for a parcel already on the roll only its facts are updated (a change of owner is recorded as a sale).":
        "Una fila corresponde a una propiedad del padrón por su número de catastro. Para una propiedad nueva también se anotan los dueños y el arrendamiento; para una propiedad que ya está en el padrón solo se actualizan sus datos (un cambio de dueño se anota como una venta).",
    "Importing the same file again changes nothing.": "Importar el mismo archivo otra vez no cambia nada.",
    "The parcel's catastro number (CRIM): 11 digits, with or without dashes or spaces (040-012-345-67). Each parcel once; it is what matches a row to a parcel already on the roll.":
        "El número de catastro de la propiedad (CRIM): 11 dígitos, con o sin guiones o espacios (040-012-345-67). Cada propiedad una sola vez; es lo que une una fila con una propiedad que ya está en el padrón.",
    "The street address (at most 300 characters).": "La dirección física (300 caracteres como máximo).",
    "One of Puerto Rico's 78 municipalities, for example San Juan (accents are optional: Mayaguez is Mayagüez).":
        "Uno de los 78 municipios de Puerto Rico, por ejemplo, San Juan (los acentos son opcionales: Mayaguez es Mayagüez).",
    "urbana, suburbana or rural (urban, suburban or rural).": "urbana, suburbana o rural (en inglés: urban, suburban o rural).",
    "The land's area in cuerdas, up to 6 decimals, with a period for decimals.":
        "La cabida del terreno en cuerdas, hasta 6 decimales, con punto para los decimales.",
    "The land's assessed valuation in dollars, with cents at most (60000.00; a $ sign and commas for thousands are accepted).":
        "La tasación del terreno en dólares, con centavos como máximo (60000.00; se aceptan el signo $ y comas para los miles).",
    "The structures' assessed valuation in dollars (0 for none).": "La tasación de las estructuras en dólares (0 si no hay).",
    "privado, autoridad or publico (private, authority or public). Land of the Authority or of another public owner is exempt unless it was transferred (R-A2).":
        "privado, autoridad o publico (en inglés: private, authority o public). El terreno de la Autoridad o de otro dueño público está exento, salvo que se haya transferido (R-A2).",
    "sí or no (yes or no; empty is no): public land sold, leased or transferred as a private parcel, which is assessed (R-A2).":
        "sí o no (vacío es no): terreno público vendido, arrendado o transferido como propiedad privada, que sí lleva derrama (R-A2).",
    "sí or no: exempt from the property tax under an incentives program. It is still assessed (R-A2).":
        "sí o no: exenta de la contribución sobre la propiedad por un programa de incentivos. Aun así lleva derrama (R-A2).",
    "The benefit units the Board assigned, up to 4 decimals: the share of the total is in proportion to them (R-A3).":
        "Las unidades de beneficio que asignó la Junta, hasta 4 decimales: la parte del total es proporcional a ellas (R-A3).",
    "The owners' names, separated by | when there are several. Optional.":
        "Los nombres de los dueños, separados por | cuando son varios. Opcional.",
    "Their emails in the same order, separated by |. An owner whose email is already on file is the same person.":
        "Sus correos electrónicos en el mismo orden, separados por |. Un dueño cuyo correo ya consta es la misma persona.",
    "Their shares in the same order (0.5|0.5), adding up to 1. Empty: equal shares.":
        "Sus participaciones en el mismo orden (0.5|0.5), que sumen 1. Vacío: partes iguales.",
    "The lessee's name, when the parcel is leased (R-A16). Optional.":
        "El nombre del arrendatario, cuando la propiedad está arrendada (R-A16). Opcional.",
    "The lessee's email. Optional.": "El correo electrónico del arrendatario. Opcional.",
    "sí or no: the lease makes the lessee pay the assessment (empty is sí) (R-A16).":
        "sí o no: el contrato de arrendamiento pone la derrama a cargo del arrendatario (vacío es sí) (R-A16).",
    "The lease contract's number. Optional.": "El número del contrato de arrendamiento. Opcional.",
    "The day the lease starts, as YYYY-MM-DD. Required with a lessee.":
        "La fecha en que empieza el arrendamiento, como AAAA-MM-DD. Obligatoria si hay arrendatario.",
    "The day the lease ends, as YYYY-MM-DD. Optional.": "La fecha en que termina el arrendamiento, como AAAA-MM-DD. Opcional.",
}
