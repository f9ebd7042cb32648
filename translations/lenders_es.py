"""Reviewed Puerto Rico Spanish for the lenders' pages, emails and API (J7: the portfolio,
the organisation and its tokens). Terms as docs/GLOSSARY.md: propiedad, derrama, vence,
préstamo, acreedor hipotecario ("prestamista" in the menus, as the portal says elsewhere).

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/lenders_es.py
    make catalogs
"""

ES = {
    "The token": "El token",
    "Any": "Cualquiera",
    "Filed, not yet decided": "Presentada, sin decidir aún",
    "None filed": "Ninguna presentada",
    "Residential exemption this year": "Exoneración residencial de este año",
    "(i) With the exemption: pay": "(i) Con la exoneración: pagar",
    "(ii) Without it: pay": "(ii) Sin ella: pagar",
    "(iii) New structure: retain": "(iii) Estructura nueva: retener",
    "%(lender)s holds a loan on this parcel; the CRIM's facts for this year are not on file, "
    "so the portal cannot say what it pays.":
        "%(lender)s tiene un préstamo sobre esta propiedad; los datos del CRIM de este año no "
        "están en el portal, así que no puede decir cuánto paga.",
    "%(lender)s pays your property tax from the escrow account: for each CRIM bill, the bill "
    "less the prepayment discount (R-B10).":
        "%(lender)s paga su contribución sobre la propiedad de la cuenta de reserva: por cada "
        "factura del CRIM, la factura menos el descuento por pago anticipado (R-B10).",
    "(i) Bill issued with the exemption: pay": "(i) Factura emitida con la exoneración: pagar",
    "(ii) Bill issued without it: pay, with the certification":
        "(ii) Factura emitida sin ella: pagar, con la certificación",
    "(iii) New structure bought with a certification: retain":
        "(iii) Estructura nueva adquirida con certificación: retener",
    "A bill issued with the exemption, {bill}: the lender pays it less the prepayment "
    "discount, {amount}.":
        "Una factura emitida con la exoneración, {bill}: el acreedor hipotecario la paga menos "
        "el descuento por pago anticipado, {amount}.",
    "A bill issued without it, {bill}: the lender deducts the exemption and the discount and "
    "pays {amount} with the certification.":
        "Una factura emitida sin ella, {bill}: el acreedor hipotecario rebaja la exoneración y "
        "el descuento, y paga {amount} con la certificación.",
    "A new structure bought after January 1 with a certification: the lender retains the tax "
    "above the exemption, {amount} for the year.":
        "Una estructura nueva adquirida después del 1 de enero con certificación: el acreedor "
        "hipotecario retiene la contribución en exceso de la exoneración, {amount} en el año.",
    "Bill of %(date)s: %(amount)s": "Factura del %(date)s: %(amount)s",
    "CRIM bill": "Factura del CRIM",
    "CRIM bill with the exemption (first bill)":
        "Factura del CRIM con la exoneración (primera factura)",
    "For each CRIM bill, what the lender pays in each case of the law (R-B10). The residential "
    "exemption lowers the property tax only, never the District's assessment.":
        "Por cada factura del CRIM, lo que paga el acreedor hipotecario en cada caso de la ley "
        "(R-B10). La exoneración residencial reduce solo la contribución sobre la propiedad, "
        "nunca la derrama del Distrito.",
    "Loan %(number)s": "Préstamo %(number)s",
    "Property tax: what to pay or retain, fiscal year %(year)s":
        "Contribución sobre la propiedad: qué pagar o retener, año fiscal %(year)s",
    "The CRIM's property-tax facts for this parcel and year are not on file, so the portal "
    "cannot say what to pay or retain.":
        "Los datos de contribución sobre la propiedad del CRIM para esta propiedad y año no "
        "están en el portal, así que no puede decir qué pagar o retener.",
    "To pay in the year, case (i)": "Por pagar en el año, caso (i)",
    "To pay, bill with the exemption (i)": "Por pagar, factura con la exoneración (i)",
    "To pay, bill without it, with the certification (ii)":
        "Por pagar, factura sin ella, con la certificación (ii)",
    "To retain in the year, case (iii)": "Por retener en el año, caso (iii)",
    "To retain, new structure (iii)": "Por retener, estructura nueva (iii)",
    "What to pay or retain": "Qué pagar o retener",
    "What your lender pays the CRIM": "Lo que su acreedor hipotecario paga al CRIM",
    "bill %(bill)s, discount %(discount)s": "factura %(bill)s, descuento %(discount)s",
    "%(lender)s invites you to work for it on the District Assessments Portal":
        "%(lender)s le invita a trabajar para su organización en el Portal de Derramas del "
        "Distrito",
    "30 days": "30 días",
    "365 days": "365 días",
    "90 days": "90 días",
    "A CSV file of loan numbers": "Un archivo CSV con números de préstamo",
    "A program uses a token to read your loans through the portal's API (%(url)s), with the "
    "header Authorization: Bearer and the token.":
        "Un programa usa un token para leer sus préstamos mediante la API del portal "
        "(%(url)s), con el encabezado Authorization: Bearer y el token.",
    "API tokens": "Tokens de la API",
    "Accept the invitation": "Aceptar la invitación",
    "An administrator of %(lender)s invites you to see its loans and act for it on the "
    "District Assessments Portal.":
        "Un administrador de %(lender)s le invita a ver sus préstamos y a actuar en su "
        "nombre en el Portal de Derramas del Distrito.",
    "An organisation keeps at least one administrator.":
        "La organización tiene que conservar al menos un administrador.",
    "Any date": "Cualquier fecha",
    "Ascending": "Ascendente",
    "Clear the filters": "Quitar los filtros",
    "Clerk": "Oficinista",
    "Copy it now: it is shown only this once. The portal keeps only a fingerprint of it.":
        "Cópielo ahora: se muestra solo esta vez. El portal guarda solo una huella de él.",
    "Create a token": "Crear un token",
    "Create the token": "Crear el token",
    "Descending": "Descendente",
    "Download these loans (CSV)": "Descargar estos préstamos (CSV)",
    "Due now, at least": "Adeudado ahora, desde",
    "Due now, at most": "Adeudado ahora, hasta",
    "Due now, in all:": "Adeudado ahora, en total:",
    "Expires": "Vence",
    "Find loans": "Buscar préstamos",
    "Good for": "Válido por",
    "If you do not expect this invitation, ignore this message.":
        "Si no esperaba esta invitación, ignore este mensaje.",
    "Invalid parameter": "Parámetro no válido",
    "Invitation": "Invitación",
    "Invitation to work for %(lender)s": "Invitación a trabajar para %(lender)s",
    "Invitations not yet accepted": "Invitaciones aún sin aceptar",
    "Invite a user": "Invitar a un usuario",
    "Last used": "Último uso",
    "Loan or catastro number": "Número de préstamo o de catastro",
    "Loans found": "Préstamos encontrados",
    "Make a clerk": "Hacer oficinista",
    "Make an administrator": "Hacer administrador",
    "May": "Puede",
    "Name": "Nombre",
    "Name of the token": "Nombre del token",
    "No loan matches these filters.": "Ningún préstamo cumple con estos filtros.",
    "Not allowed": "No permitido",
    "Not authenticated": "No autenticado",
    "Not found": "No encontrado",
    "Nothing is due now on the loans the file names.":
        "Los préstamos que nombra el archivo no adeudan nada ahora.",
    "Nothing is due now on the loans these filters select.":
        "Los préstamos de estos filtros no adeudan nada ahora.",
    "One loan number per row, in the first column; at most %(max)s.":
        "Un número de préstamo por fila, en la primera columna; %(max)s como máximo.",
    "One payment for the loans found with something due (at most %(max)s); you review it "
    "before paying.":
        "Un solo pago para los préstamos encontrados que adeudan algo (%(max)s como máximo); "
        "usted lo revisa antes de pagar.",
    "Order": "Orden",
    "Pay for a list of loan numbers (CSV)": "Pagar una lista de números de préstamo (CSV)",
    "Pay for these loans": "Pagar estos préstamos",
    "Pay what is due now on these loans": "Pagar lo adeudado ahora en estos préstamos",
    "Read and write": "Leer y escribir",
    "Read loans": "Leer préstamos",
    "Remove": "Quitar",
    "Revoke": "Revocar",
    "Send a valid API token: the header Authorization: Bearer and the token. A token that "
    "expired or was revoked is refused.":
        "Envíe un token válido de la API: el encabezado Authorization: Bearer y el token. Se "
        "rechaza un token vencido o revocado.",
    "Send the invitation": "Enviar la invitación",
    "Sign in (or create an account) with this email, then open this link within 14 days to "
    "accept:":
        "Entre (o cree una cuenta) con este correo electrónico y abra este enlace dentro de "
        "14 días para aceptar:",
    "Since": "Desde",
    "Sort by": "Ordenar por",
    "State": "Estado del token",
    "The file names more than %(max)s loans; one payment covers at most %(max)s.":
        "El archivo nombra más de %(max)s préstamos; un pago cubre %(max)s como máximo.",
    "The file names no loan numbers: one per row, in the first column.":
        "El archivo no nombra ningún número de préstamo: uno por fila, en la primera columna.",
    "The invitation was sent to %(email)s.": "Se envió la invitación a %(email)s.",
    "The invitation was withdrawn.": "Se retiró la invitación.",
    "The parameter %(name)s is not valid.": "El parámetro %(name)s no es válido.",
    "The role was changed.": "Se cambió la función.",
    "The token was revoked: it is refused from now on.":
        "Se revocó el token: desde ahora se rechaza.",
    "The user no longer works for your organisation on the portal.":
        "El usuario ya no trabaja para su organización en el portal.",
    "There is no loan of your organisation with this number.":
        "Su organización no tiene ningún préstamo con este número.",
    "These filters select %(num)s loans with something due; one payment covers at most "
    "%(max)s. Narrow the filters.":
        "Estos filtros eligen %(num)s préstamos que adeudan algo; un pago cubre %(max)s como "
        "máximo. Limite más los filtros.",
    "These loan numbers are not among your loans: %(numbers)s.":
        "Estos números de préstamo no están entre sus préstamos: %(numbers)s.",
    "This token may only read. Create a token that may write.":
        "Este token solo puede leer. Cree un token que pueda escribir.",
    "This year's assessments, in all:": "Derramas de este año, en total:",
    "Too many requests": "Demasiadas solicitudes",
    "Too many requests: try again in %(seconds)s seconds.":
        "Demasiadas solicitudes: intente de nuevo en %(seconds)s segundos.",
    "User": "Usuario",
    "Users": "Usuarios",
    "What it may do": "Qué puede hacer",
    "Withdraw": "Retirar",
    "Within 30 days": "Dentro de 30 días",
    "Within 7 days": "Dentro de 7 días",
    "Within 90 days": "Dentro de 90 días",
    "Write a name for the token.": "Escriba un nombre para el token.",
    "Write an amount in dollars, for example 1,500.00.":
        "Escriba una cantidad en dólares, por ejemplo 1,500.00.",
    "Write at most 20 characters.": "Escriba 20 caracteres como máximo.",
    "Write at most 254 characters.": "Escriba 254 caracteres como máximo.",
    "Write at most 80 characters.": "Escriba 80 caracteres como máximo.",
    "Write the email address.": "Escriba el correo electrónico.",
    "You are invited with the role: %(role)s.": "Se le invita con la función: %(role)s.",
    "You now work for this lender on the portal.":
        "Ahora trabaja para este acreedor en el portal.",
    "Your new API token": "Su nuevo token de la API",
    "Your organisation": "Su organización",
    "Your organisation: %(lender)s": "Su organización: %(lender)s",
    "Your role: %(role)s.": "Su función: %(role)s.",
    "Active": "Activo",
    "Expired": "Vencido",
    "Revoked": "Revocado",
    "Never used": "Nunca se ha usado",
    "good until %(date)s": "válida hasta el %(date)s",
}
