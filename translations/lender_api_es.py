"""Reviewed Puerto Rico Spanish for the lenders' JSON API (J7): its problems and validation
messages, its OpenAPI document (summaries, descriptions, the schemas' fields) and its
reference page. Terms as docs/GLOSSARY.md and translations/lenders_es.py: "la API", "token",
préstamo, lote (a batch), fila (a row), certificación, encabezado (a header), cuerpo (a body).

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/lender_api_es.py
    make catalogs
"""

ES = {
    # --- problems and validation messages ---
    "Invalid body": "Cuerpo no válido",
    "Invalid header": "Encabezado no válido",
    "Key already used": "Clave ya usada",
    "Request not valid": "Solicitud no válida",
    "The body is not valid: see each field's error.":
        "El cuerpo no es válido: vea el error de cada campo.",
    "The header %(name)s is missing or not valid.":
        "Falta el encabezado %(name)s o no es válido.",
    "The request cannot be answered as sent.":
        "La solicitud no se puede contestar tal como se envió.",
    "There is no batch of your organisation with this number.":
        "No hay un lote de su organización con este número.",
    "This Idempotency-Key was used with another body. Use a new key for a new batch.":
        "Esta Idempotency-Key se usó con otro cuerpo. Use una clave nueva para un lote nuevo.",
    "This field is required.": "Este campo es obligatorio.",
    "This must be text (a JSON string).": "Debe ser texto (una cadena JSON).",
    "This is too long: at most %(max)s characters.":
        "Esto es muy largo: %(max)s caracteres como máximo.",
    "This does not have the expected form.": "Esto no tiene la forma esperada.",
    "This field is not one of the API's fields.": "Este campo no es uno de los campos de la API.",
    "Send at least one row.": "Envíe al menos una fila.",
    "At most %(max)s rows in one batch.": "Un lote tiene %(max)s filas como máximo.",
    "This must be a list (a JSON array).": "Debe ser una lista (un arreglo JSON).",
    "This must be an object (a JSON object).": "Debe ser un objeto (un objeto JSON).",
    "The body is not valid JSON.": "El cuerpo no es JSON válido.",
    "This must be a whole number.": "Debe ser un número entero.",
    "This number is too small.": "Este número es muy pequeño.",
    "This number is too large.": "Este número es muy grande.",
    "This must be one of: %(expected)s.": "Debe ser uno de estos: %(expected)s.",
    # --- the OpenAPI document ---
    "The lenders' API": "La API de los prestamistas",
    "A mortgage lender's loans, what to pay or retain per CRIM bill, and batches of "
    "residential-exemption certifications (J7). Authenticate with Authorization: Bearer and "
    "a token an administrator of the lender creates. Errors are RFC 9457 problems "
    "(application/problem+json) in the language of Accept-Language (es or en; Spanish by "
    "default). Money is a string with two decimals.":
        "Los préstamos de un acreedor hipotecario, qué pagar o retener por cada factura del "
        "CRIM y lotes de certificaciones de exoneración residencial (J7). Se autentica con "
        "Authorization: Bearer y un token que crea un administrador del prestamista. Los "
        "errores son problemas RFC 9457 (application/problem+json) en el idioma de "
        "Accept-Language (es o en; español si no se indica). El dinero es una cadena con dos "
        "decimales.",
    "A token of the lender's (pdl_…), created on the organisation's page; a read token may "
    "only read.":
        "Un token del prestamista (pdl_…), creado en la página de la organización; un token "
        "de lectura solo puede leer.",
    "A parameter or header is not valid (problem+json, with the field).":
        "Un parámetro o encabezado no es válido (problem+json, con el campo).",
    "No valid token (problem+json); the header WWW-Authenticate says Bearer.":
        "No hay un token válido (problem+json); el encabezado WWW-Authenticate dice Bearer.",
    "This token may only read (problem+json).": "Este token solo puede leer (problem+json).",
    "Not found, or not your organisation's (problem+json).":
        "No existe, o no es de su organización (problem+json).",
    "The Idempotency-Key was used with another body (problem+json).":
        "La Idempotency-Key se usó con otro cuerpo (problem+json).",
    "The body is too large (problem+json).": "El cuerpo es muy grande (problem+json).",
    "The body is not valid: every field with its error (problem+json).":
        "El cuerpo no es válido: cada campo con su error (problem+json).",
    "Too many requests (problem+json); Retry-After says in how many seconds to try again.":
        "Demasiadas solicitudes (problem+json); Retry-After dice en cuántos segundos volver "
        "a intentarlo.",
    "Seconds to wait.": "Segundos de espera.",
    "The loan's number.": "El número del préstamo.",
    "The batch's number.": "El número del lote.",
    "A key of the client's choosing (a UUID, say), different for each batch: sent again with "
    "the same body it answers the same batch; with another body, 409.":
        "Una clave que escoge el cliente (un UUID, por ejemplo), distinta para cada lote: "
        "enviada otra vez con el mismo cuerpo contesta el mismo lote; con otro cuerpo, 409.",
    "The batch's address.": "La dirección del lote.",
    "Your loans": "Sus préstamos",
    "The token's lender's loans, 50 a page, with the filtered set's count and totals.":
        "Los préstamos del prestamista del token, 50 por página, con la cantidad y los "
        "totales de los filtrados.",
    "One loan and what to retain": "Un préstamo y qué retener",
    "One loan, with what to pay or retain per CRIM bill in the three cases of R-B10: (i) the "
    "bill issued with the exemption, (ii) the bill issued without it, paid with the "
    "certification, (iii) a new structure bought with a certification.":
        "Un préstamo, con qué pagar o retener por cada factura del CRIM en los tres casos de "
        "R-B10: (i) la factura emitida con la exoneración, (ii) la factura emitida sin ella, "
        "pagada con la certificación, (iii) una estructura nueva comprada con una "
        "certificación.",
    "File a batch of certifications": "Radicar un lote de certificaciones",
    "Up to 1,000 residential-exemption certifications, one row per loan, with the columns of "
    "the CSV template. The batch is processed in the background: the answer is 202 with its "
    "address; read its status and its per-row report there. Needs a token that may write.":
        "Hasta 1,000 certificaciones de exoneración residencial, una fila por préstamo, con "
        "las columnas de la plantilla CSV. El lote se procesa en segundo plano: la respuesta "
        "es 202 con su dirección; allí se leen su estado y su informe por fila. Requiere un "
        "token que pueda escribir.",
    "The same key and body again: the same batch.":
        "La misma clave y el mismo cuerpo otra vez: el mismo lote.",
    "A batch's status": "El estado de un lote",
    "The batch's status and its rows' counts.": "El estado del lote y los conteos de sus filas.",
    "A batch's per-row report": "El informe por fila de un lote",
    "Each row's outcome (accepted, rejected or duplicate), the column and reason of a "
    "rejection in the caller's language, the computed exemption of an accepted row; 50 a "
    "page.":
        "El resultado de cada fila (aceptada, rechazada o duplicada), la columna y el motivo "
        "de un rechazo en el idioma de quien llama, la exoneración calculada de una fila "
        "aceptada; 50 por página.",
    "This document": "Este documento",
    "The API's OpenAPI 3.1 document (no token needed).":
        "El documento OpenAPI 3.1 de la API (no necesita token).",
    # --- the schemas' fields ---
    "An amount in dollars, two decimals, as a string.":
        "Una cantidad en dólares, con dos decimales, como cadena.",
    "The page, 50 loans a page.": "La página, 50 préstamos por página.",
    "Only loans in this status.": "Solo los préstamos en este estado.",
    "Only loans in this municipality.": "Solo los préstamos en este municipio.",
    "This fiscal year's residential exemption: approved, filed and not yet decided "
    "(pending), or none filed.":
        "La exoneración residencial de este año fiscal: aprobada, presentada y sin decidir "
        "aún (pending), o ninguna presentada.",
    "The start of a loan number or a catastro number.":
        "El comienzo de un número de préstamo o de un número de catastro.",
    "The column to sort by.": "La columna por la que se ordena.",
    "Ascending or descending.": "Ascendente o descendente.",
    "The page, 50 rows a page.": "La página, 50 filas por página.",
    "Only the rows with this outcome.": "Solo las filas con este resultado.",
    "Where: a parameter's or header's name, or a path in the body such as "
    "rows[3].fiscal_year.":
        "Dónde: el nombre de un parámetro o encabezado, o una ruta en el cuerpo como "
        "rows[3].fiscal_year.",
    "What is wrong, in the caller's language.": "Qué está mal, en el idioma de quien llama.",
    "The first invalid parameter or field.": "El primer parámetro o campo no válido.",
    "Every invalid field.": "Cada campo no válido.",
    "(i) The bill issued with the exemption: pay this.":
        "(i) La factura emitida con la exoneración: pagar esto.",
    "(ii) The bill issued without it: pay this, with the certification.":
        "(ii) La factura emitida sin ella: pagar esto, con la certificación.",
    "(iii) A new structure bought with a certification: retain this.":
        "(iii) Una estructura nueva comprada con una certificación: retener esto.",
    "R-B10 per CRIM bill; null without the CRIM's facts of the year.":
        "R-B10 por factura del CRIM; null sin los datos del CRIM del año.",
    "queued, running, done or failed.":
        "queued (en cola), running (en proceso), done (terminado) o failed (falló).",
    "api or csv.": "api o csv.",
    "accepted, rejected or duplicate; null while the batch is not processed.":
        "accepted (aceptada), rejected (rechazada) o duplicate (ya radicada); null mientras "
        "el lote no se ha procesado.",
    "The column of a rejected row's error.": "La columna del error de una fila rechazada.",
    "Why a row was rejected, in the caller's language.":
        "Por qué se rechazó una fila, en el idioma de quien llama.",
    "The computed exemption of an accepted row.": "La exoneración calculada de una fila aceptada.",
    "The year's property tax with the exemption, of an accepted row.":
        "La contribución sobre la propiedad del año con la exoneración, de una fila aceptada.",
    "The certification's filing number, of an accepted row (or of the one already on file).":
        "El número de radicación de la certificación, de una fila aceptada (o de la que ya "
        "estaba radicada).",
    # --- acquisitions (R-B10 case iii) ---
    "Report an acquisition": "Informar una adquisición",
    "The loan's parcel was bought after January 1 as a new structure with a certification "
    "(R-B10 case iii): the answer carries the last day to notify the CRIM, 30 days after the "
    "acquisition, rolled to a business day. Needs a token that may write.":
        "La propiedad del préstamo se compró después del 1 de enero como estructura nueva con "
        "una certificación (R-B10 caso iii): la respuesta trae el último día para notificarlo "
        "al CRIM, 30 días después de la adquisición (o el próximo día laborable). Requiere un "
        "token que pueda escribir.",
    "The deed date of the new structure's acquisition (YYYY-MM-DD), on or after January 1 "
    "of this year and not after today.":
        "La fecha de la escritura de la adquisición de la estructura nueva (AAAA-MM-DD), del "
        "1 de enero de este año en adelante y no después de hoy.",
    "Optional: the residential-exemption certification of the loan's parcel it was bought "
    "with.":
        "Opcional: la certificación de exoneración residencial de la propiedad del préstamo "
        "con la que se compró.",
    "The last day to notify the CRIM: 30 days after the acquisition, rolled to a business "
    "day.":
        "El último día para notificar al CRIM: 30 días después de la adquisición (o el "
        "próximo día laborable).",
    "Days left today (negative once it has passed).":
        "Días que quedan hoy (negativo después de pasado).",
    "This certification is not of this loan's parcel.":
        "Esta certificación no es de la propiedad de este préstamo.",
    # --- the organisation's page ---
    "The API's reference: every operation, its parameters and answers":
        "La referencia de la API: cada operación, sus parámetros y respuestas",
    "a token that may write also files batches of certifications and reports acquisitions.":
        "un token que puede escribir también radica lotes de certificaciones e informa "
        "adquisiciones.",
    # --- the reference page ---
    "The lenders' API: reference": "La API de los prestamistas: referencia",
    "The same description as an OpenAPI 3.1 document, for programs:":
        "La misma descripción como documento OpenAPI 3.1, para programas:",
    "Version %(version)s.": "Versión %(version)s.",
    "Operations": "Operaciones",
    "Schemas": "Esquemas",
    "No token needed.": "No necesita token.",
    "Authorization: Bearer and a token.": "Authorization: Bearer y un token.",
    "Parameters of %(op)s": "Parámetros de %(op)s",
    "Answers of %(op)s": "Respuestas de %(op)s",
    "Body (application/json):": "Cuerpo (application/json):",
    "Headers:": "Encabezados:",
    "required": "obligatorio",
    "optional": "opcional",
    "Type": "Tipo",
    "Content": "Contenido",
    "query": "consulta",
    "path": "ruta",
    "header": "encabezado",
    "body": "cuerpo",
}
