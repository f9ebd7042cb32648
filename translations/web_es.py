"""Reviewed Puerto Rico Spanish for the web layer's messages (pages, forms, emails, PDFs).

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/web_es.py
    make catalogs
Terms follow the core's catalog: derrama (assessment), plazo (installment), cargo por demora
(late fee), intereses, costas de cobro, principal en mora, pago global.
"""

ES = {
    "%(email)s can now see this parcel once signed in with that email.":
        "%(email)s ya puede ver esta propiedad cuando entre con ese correo electrónico.",
    ("%(num)d day ago", "%(num)d days ago"):
        ("hace %(num)d día", "hace %(num)d días", "hace %(num)d días"),
    ("%(num)d day left", "%(num)d days left"):
        ("queda %(num)d día", "quedan %(num)d días", "quedan %(num)d días"),
    ("%(num)s loan", "%(num)s loans"):
        ("%(num)s préstamo", "%(num)s préstamos", "%(num)s préstamos"),
    "%(owner)s gave you read access to parcel %(catastro)s on the District Assessments Portal.":
        "%(owner)s le dio acceso de lectura a la propiedad %(catastro)s en el Portal de "
        "Derramas del Distrito.",
    "A court ordered the lessee to deposit the rents of this parcel in court until the debt is "
    "paid (%(court)s, case %(case)s, %(date)s).":
        "Un tribunal ordenó al arrendatario consignar en el tribunal las rentas de esta "
        "propiedad hasta que se pague la deuda (%(court)s, caso %(case)s, %(date)s).",
    "A date from today to %(last)s.": "Una fecha desde hoy hasta el %(last)s.",
    "Access code": "Código de acceso",
    "Access denied": "Acceso denegado",
    "Access removed.": "Se quitó el acceso.",
    "Add a parcel": "Añadir una propiedad",
    "Add the parcel": "Añadir la propiedad",
    "Already have an account?": "¿Ya tiene una cuenta?",
    "Amount": "Cantidad",
    "An unexpected error occurred. It has been recorded; please try again later.":
        "Ocurrió un error inesperado. Quedó registrado; intente de nuevo más tarde.",
    "As of %(date)s": "Al %(date)s",
    "As of %(date)s.": "Al %(date)s.",
    "At least 10 characters. A short phrase is easy to remember.":
        "Al menos 10 caracteres. Una frase corta es fácil de recordar.",
    "Both numbers are printed on the assessment notice the Authority mailed you.":
        "Ambos números aparecen en la notificación de derrama que la Autoridad le envió "
        "por correo.",
    "Breadcrumbs": "Ruta de navegación",
    "Budget lines": "Partidas del presupuesto",
    "Budget version %(version)s, adopted on %(date)s.":
        "Versión %(version)s del presupuesto, adoptada el %(date)s.",
    "Catastro number": "Número de catastro",
    "Catastro number, address, name or email":
        "Número de catastro, dirección, nombre o correo electrónico",
    "Center improvements": "Mejoras al Centro",
    "Check your email": "Revise su correo electrónico",
    "Choose a date from today to %(days)d days from now.":
        "Escoja una fecha desde hoy hasta dentro de %(days)d días.",
    "Choose a less common password: mix words, numbers or symbols.":
        "Escoja una contraseña menos común: combine palabras, números o símbolos.",
    "Choose a new password": "Escoja una contraseña nueva",
    "Collection": "Cobro",
    "Collection costs": "Costas de cobro",
    "Confirm your email first: we sent you a link. You can ask for a new one here.":
        "Primero confirme su correo electrónico: le enviamos un enlace. Aquí puede pedir "
        "uno nuevo.",
    "Confirm your email for the District Assessments Portal":
        "Confirme su correo electrónico para el Portal de Derramas del Distrito",
    "Cost": "Costo",
    "Create account": "Crear cuenta",
    "Create an account": "Crear una cuenta",
    "Credit in your favor": "Crédito a su favor",
    "Date": "Fecha",
    "Deadline was:": "La fecha límite fue:",
    "Deadline:": "Fecha límite:",
    "Demand mailed by certified mail on %(date)s for %(amount)s.":
        "Requerimiento de pago enviado por correo certificado el %(date)s por %(amount)s.",
    "Description": "Descripción",
    "Did not get it?": "¿No le llegó?",
    "District Assessments Portal": "Portal de Derramas del Distrito",
    "Documents": "Documentos",
    "Download the statement of account (PDF)": "Descargar el estado de cuenta (PDF)",
    "Due date": "Fecha de vencimiento",
    "Due now": "A pagar ahora",
    "Email": "Correo electrónico",
    "Email confirmed": "Correo electrónico confirmado",
    "Email of the person": "Correo electrónico de la persona",
    "Enter a password.": "Escriba una contraseña.",
    "Enter an email like nombre@ejemplo.com.":
        "Escriba un correo electrónico como nombre@ejemplo.com.",
    "Enter the access code.": "Escriba el código de acceso.",
    "Enter the catastro number.": "Escriba el número de catastro.",
    "Enter the person's email.": "Escriba el correo electrónico de la persona.",
    "Enter your email.": "Escriba su correo electrónico.",
    "Enter your name.": "Escriba su nombre.",
    "Enter your password.": "Escriba su contraseña.",
    "Error code:": "Código de error:",
    "Every amount on this portal is computed from the law (23 LPRA § 6432) and can be "
    "explained.":
        "Cada cantidad en este portal se calcula según la ley (23 LPRA § 6432) y se puede "
        "explicar.",
    "Financed by assessments": "Financiado con derramas",
    "Fiscal year %(label)s": "Año fiscal %(label)s",
    "For example: 040-012-345-67": "Por ejemplo: 040-012-345-67",
    "For your security, wait a few minutes before trying again.":
        "Por su seguridad, espere unos minutos antes de intentar de nuevo.",
    "Forgot your password?": "¿Olvidó su contraseña?",
    "Full name": "Nombre completo",
    "Give read access": "Dar acceso de lectura",
    "Go to my parcels": "Ir a mis propiedades",
    "Go to the home page": "Ir a la página principal",
    "Hello %(name)s,": "Saludos, %(name)s:",
    "Hello,": "Saludos:",
    "Home": "Inicio",
    "If that email has an account waiting for confirmation, we sent the link again.":
        "Si ese correo electrónico tiene una cuenta pendiente de confirmar, le enviamos el "
        "enlace otra vez.",
    "If that email has an account, we sent it a link to choose a new password.":
        "Si ese correo electrónico tiene una cuenta, le enviamos un enlace para escoger una "
        "contraseña nueva.",
    "Improvement project": "Proyecto de mejoras",
    "Installment due now, still on time (principal)":
        "Plazo que vence ahora, todavía a tiempo (principal)",
    "Installment schedule": "Calendario de plazos",
    "Interest owed": "Intereses adeudados",
    "Interest to date": "Intereses a la fecha",
    "Language": "Idioma",
    "Late fee owed": "Cargo por demora adeudado",
    "Late fees": "Cargos por demora",
    "Leased parcels": "Propiedades arrendadas",
    "Lenders: the parcels of your loans.": "Prestamistas: las propiedades de sus préstamos.",
    "Letters and numbers; dashes and spaces do not matter.":
        "Letras y números; los guiones y espacios no importan.",
    "Line": "Partida",
    "Loan": "Préstamo",
    "Loans": "Préstamos",
    "Look up a parcel or a person": "Buscar una propiedad o una persona",
    "Lost your notice? Call the Authority: staff can issue a new access code.":
        "¿Perdió la notificación? Llame a la Autoridad: el personal puede emitir un código de "
        "acceso nuevo.",
    "Main menu": "Menú principal",
    "Maintenance, repair and replacement": "Mantenimiento, reparación y reemplazo",
    "Marketing": "Mercadeo",
    "My parcels": "Mis propiedades",
    "New here?": "¿Es nuevo aquí?",
    "Next": "Siguiente",
    "Next due date": "Próximo vencimiento",
    "No parcel matches.": "Ninguna propiedad coincide.",
    "No parcels.": "Ninguna propiedad.",
    "No person matches.": "Ninguna persona coincide.",
    "No.": "Núm.",
    "Nothing else is due this year.": "No vence nada más este año.",
    "Only you.": "Solo usted.",
    "Operation": "Operación",
    "Overdue installments (principal)": "Plazos vencidos (principal)",
    "Owners: this year's assessment, its installments and your statement of account.":
        "Dueños: la derrama de este año, sus plazos y su estado de cuenta.",
    "Page %(num)d of %(total)s": "Página %(num)d de %(total)s",
    "Page %(page)d of %(pages)d": "Página %(page)d de %(pages)d",
    "Page not found": "Página no encontrada",
    "Pages": "Páginas",
    "Parcel": "Propiedad",
    "Parcel %(catastro)s": "Propiedad %(catastro)s",
    "Parcels": "Propiedades",
    "Parcels of your loans": "Propiedades de sus préstamos",
    "Password": "Contraseña",
    "Pay %(amount)s in one payment and save %(discount)s.":
        "Pague %(amount)s en un solo pago y ahorre %(discount)s.",
    "Pay it in full by": "Páguelo completo a más tardar el",
    "Pay the whole year at once": "Pagar todo el año de una vez",
    "Pay-off amount": "Cantidad para saldar",
    "People": "Personas",
    "Please correct the fields marked below.": "Corrija los campos marcados abajo.",
    "Please sign in to see this page.": "Entre a su cuenta para ver esta página.",
    "Previous": "Anterior",
    "Principal owed": "Principal adeudado",
    "Remove access for %(email)s": "Quitar el acceso a %(email)s",
    "Repeat the password": "Repita la contraseña",
    "Repeat the password.": "Repita la contraseña.",
    "Reset your password for the District Assessments Portal":
        "Cambie su contraseña del Portal de Derramas del Distrito",
    "Save the new password": "Guardar la contraseña nueva",
    "Search": "Buscar",
    "See what you owe on your parcels, when it is due and why: every amount shows the rule "
    "and the law behind it.":
        "Vea lo que debe por sus propiedades, cuándo vence y por qué: cada cantidad muestra la "
        "regla y la ley que la respaldan.",
    "Send me a link": "Envíenme un enlace",
    "Send the confirmation again": "Enviar la confirmación otra vez",
    "Show the amount": "Ver la cantidad",
    "Sign in": "Entrar",
    "Sign in (or create an account with this email) to see it:":
        "Entre (o cree una cuenta con este correo electrónico) para verla:",
    "Sign out": "Salir",
    "Sign out on every other device": "Salir en todos los demás dispositivos",
    "Since %(date)s the debt may be claimed in court.":
        "Desde el %(date)s la deuda se puede reclamar en el tribunal.",
    "Skip to main content": "Saltar al contenido principal",
    "Something went wrong": "Algo salió mal",
    "Staff lookup": "Búsqueda del personal",
    "Status": "Estado",
    "Still owed": "Pendiente",
    "That confirmation link is not valid or has expired. Ask for a new one below.":
        "Ese enlace de confirmación no es válido o expiró. Pida uno nuevo abajo.",
    "That link is not valid or has expired. Ask for a new one.":
        "Ese enlace no es válido o expiró. Pida uno nuevo.",
    "The access code is at most 40 characters.":
        "El código de acceso tiene 40 caracteres como máximo.",
    "The budget behind this assessment": "El presupuesto detrás de esta derrama",
    "The catastro number and the access code do not match. Check both on your notice and try "
    "again.":
        "El número de catastro y el código de acceso no coinciden. Verifique ambos en su "
        "notificación e intente de nuevo.",
    "The catastro number is at most 32 characters.":
        "El número de catastro tiene 32 caracteres como máximo.",
    "The form may have expired. Go back, reload the page and try again.":
        "Puede que el formulario haya expirado. Regrese, recargue la página e intente de nuevo.",
    "The link works for 2 hours and only once. If you did not ask for it, ignore this message: "
    "your password has not changed.":
        "El enlace funciona por 2 horas y una sola vez. Si no lo pidió, ignore este mensaje: su "
        "contraseña no ha cambiado.",
    "The link works for 3 days. If you did not create an account, ignore this message.":
        "El enlace funciona por 3 días. Si no creó una cuenta, ignore este mensaje.",
    "The lump-sum discount is not available for this account.":
        "El descuento por pago global no está disponible para esta cuenta.",
    "The parcel was added to your account.": "La propiedad se añadió a su cuenta.",
    "The person will be able to see this parcel, not to change it.":
        "La persona podrá ver esta propiedad, no cambiarla.",
    "The request could not be processed": "No se pudo procesar la solicitud",
    "The two passwords are different: type them again.":
        "Las dos contraseñas son distintas: escríbalas otra vez.",
    "This account has amounts past due: any payment goes first to interest, late fees and "
    "costs, then to the oldest installment.":
        "Esta cuenta tiene cantidades vencidas: todo pago se aplica primero a intereses, cargos "
        "por demora y costas, y luego al plazo más antiguo.",
    "This parcel has %(units)s benefit units of %(total)s in all: %(share)s of the amount "
    "shared by units.":
        "Esta propiedad tiene %(units)s unidades de beneficio de %(total)s en total: %(share)s "
        "de la cantidad repartida por unidades.",
    "This parcel is already in your account.": "Esta propiedad ya está en su cuenta.",
    "This year's assessment": "Derrama de este año",
    "This year's assessment:": "Derrama de este año:",
    "To add a parcel you need its catastro number and the access code printed on your "
    "assessment notice.":
        "Para añadir una propiedad necesita su número de catastro y el código de acceso impreso "
        "en su notificación de derrama.",
    "To choose a new password, open this link:":
        "Para escoger una contraseña nueva, abra este enlace:",
    "To finish creating your account, open this link:":
        "Para terminar de crear su cuenta, abra este enlace:",
    "To pay everything off:": "Para saldar todo:",
    "Too many attempts": "Demasiados intentos",
    "Too many wrong codes for this parcel. Wait an hour or call the Authority.":
        "Demasiados códigos incorrectos para esta propiedad. Espere una hora o llame a la "
        "Autoridad.",
    "Total due now": "Total a pagar ahora",
    "Total to assess": "Total a imponer en derramas",
    "Use at least %(num)d characters.": "Use al menos %(num)d caracteres.",
    "Use only digits and dashes, like 040-012-345-67.":
        "Use solo dígitos y guiones, como 040-012-345-67.",
    "We could not find that page. It may have moved, or you may not have access to it.":
        "No encontramos esa página. Puede que se haya movido o que usted no tenga acceso a ella.",
    "We sent you a link to confirm your email. Open it to finish creating your account; it "
    "works for 3 days.":
        "Le enviamos un enlace para confirmar su correo electrónico. Ábralo para terminar de "
        "crear su cuenta; funciona por 3 días.",
    "We will send you an email to confirm your address.":
        "Le enviaremos un mensaje para confirmar su dirección de correo electrónico.",
    "What you owe": "Lo que debe",
    "Who else can see this parcel": "Quién más puede ver esta propiedad",
    "Why this amount?": "¿Por qué esta cantidad?",
    "Write at least 3 characters to search.": "Escriba al menos 3 caracteres para buscar.",
    "Write from 3 to 100 characters.": "Escriba de 3 a 100 caracteres.",
    "Write the date as YYYY-MM-DD, for example %(example)s.":
        "Escriba la fecha como AAAA-MM-DD, por ejemplo %(example)s.",
    "Write your email and we will send you a link to choose a new password.":
        "Escriba su correo electrónico y le enviaremos un enlace para escoger una contraseña "
        "nueva.",
    "You can now see parcel %(catastro)s": "Ya puede ver la propiedad %(catastro)s",
    "You do not have permission to see this page.": "No tiene permiso para ver esta página.",
    "You have no leased parcels in your account.":
        "No tiene propiedades arrendadas en su cuenta.",
    "You have no parcels yet.": "Todavía no tiene propiedades.",
    "You have signed out.": "Salió de su cuenta.",
    "You were signed out on every other device.":
        "Se cerró su sesión en todos los demás dispositivos.",
    "Your District benefit assessments, explained": "Sus derramas del Distrito, explicadas",
    "Your access:": "Su acceso:",
    "Your email is confirmed. You can sign in now.":
        "Su correo electrónico está confirmado. Ya puede entrar.",
    ("Your organisation has %(num)s loan on District parcels.",
     "Your organisation has %(num)s loans on District parcels."):
        ("Su organización tiene %(num)s préstamo sobre propiedades del Distrito.",
         "Su organización tiene %(num)s préstamos sobre propiedades del Distrito.",
         "Su organización tiene %(num)s préstamos sobre propiedades del Distrito."),
    "The list of your loans shows them page by page, with what each parcel owes.":
        "La lista de sus préstamos los muestra página por página, con lo que adeuda cada "
        "propiedad.",
    "See the parcels of your loans": "Ver las propiedades de sus préstamos",
    "Your organisation has no loans on District parcels.":
        "Su organización no tiene préstamos sobre propiedades del Distrito.",
    "Your password was changed. Sign in with the new one.":
        "Su contraseña se cambió. Entre con la nueva.",
    "due": "vence ahora",
    "good through": "válido hasta el",
    "lender": "prestamista",
    "lessee": "arrendatario",
    "no": "no",
    "overdue": "vencido",
    "owner": "dueño",
    "paid": "pagado",
    "pending": "pendiente",
    "read access granted by the owner": "acceso de lectura dado por el dueño",
    "since %(date)s": "desde el %(date)s",
    "staff": "personal",
    "to stop a claim in court.": "para evitar una reclamación en el tribunal.",
    "today": "hoy",
    "up to date": "al día",
    "upcoming": "próximo",
    "yes": "sí",
    "%(email)s can now see this parcel.": "%(email)s ya puede ver esta propiedad.",
    "Address": "Dirección",
    "Attorney's fees": "Honorarios de abogado",
    "Certified mail (demand for payment)": "Correo certificado (requerimiento de pago)",
    "Court costs": "Costas judiciales",
    "Every amount is computed from the law (23 LPRA § 6432) over the account's facts; the rule "
    "and the numbers behind each are listed under it.":
        "Cada cantidad se calcula según la ley (23 LPRA § 6432) sobre los hechos de la cuenta; "
        "la regla y los números que la producen aparecen debajo de cada una.",
    "Fees and interest": "Cargos e intereses",
    "Fiscal year": "Año fiscal",
    "Lease contract %(number)s.": "Contrato de arrendamiento %(number)s.",
    "No account uses that email: ask the person to create an account first, then try again.":
        "Ninguna cuenta usa ese correo electrónico: pídale a la persona que primero cree una "
        "cuenta y luego intente de nuevo.",
    "Other collection cost": "Otra costa de cobro",
    "Pay-off amount, good through %(date)s (%(left)s)":
        "Cantidad para saldar, válida hasta el %(date)s (%(left)s)",
    "Statement date": "Fecha del estado",
    "Statement of account": "Estado de cuenta",
    "That is your own email: write the other person's email.":
        "Ese es su propio correo electrónico: escriba el de la otra persona.",
    "That person can already see this parcel.": "Esa persona ya puede ver esta propiedad.",
    "The Board adopted budget version {version} on {adopted}: {total} to be raised by "
    "assessments.":
        "La Junta adoptó la versión {version} del presupuesto el {adopted}: {total} a recaudar "
        "mediante derramas.",
    "This parcel has no assessment for this fiscal year.":
        "Esta propiedad no tiene derrama para este año fiscal.",
    ("Too many wrong codes. Try again in %(num)d minute, or call the Authority.",
     "Too many wrong codes. Try again in %(num)d minutes, or call the Authority."):
        ("Demasiados códigos incorrectos. Intente de nuevo en %(num)d minuto o llame a la "
         "Autoridad.",
         "Demasiados códigos incorrectos. Intente de nuevo en %(num)d minutos o llame a la "
         "Autoridad.",
         "Demasiados códigos incorrectos. Intente de nuevo en %(num)d minutos o llame a la "
         "Autoridad."),
    "Under the lease, the lessee pays the assessment (R-A16, 23 LPRA § 6432(c), (d)).":
        "Según el contrato de arrendamiento, el arrendatario paga la derrama (R-A16, 23 LPRA "
        "§ 6432(c), (d)).",
    "Under the lease, the owner pays the assessment (R-A16, 23 LPRA § 6432(c), (d)).":
        "Según el contrato de arrendamiento, el dueño paga la derrama (R-A16, 23 LPRA "
        "§ 6432(c), (d)).",
    "Whole year in one payment, by %(date)s (%(left)s)":
        "Todo el año en un solo pago, a más tardar el %(date)s (%(left)s)",
    "no assessment": "sin derrama",
    "Give or remove read access to this parcel":
        "Dar o quitar acceso de lectura a esta propiedad",
    "Pay %(amount)s for parcel %(catastro)s": "Pagar %(amount)s por la propiedad %(catastro)s",
    "Pay several parcels at once": "Pagar varias propiedades a la vez",
    "What happens next": "Lo que sigue",
    "The Authority demands every amount past due by certified mail, with return receipt "
    "(R-A12); the mailing cost is added to the account (R-A9). If the demand is not paid in "
    "full within 15 days after it is mailed, the debt may be claimed in court (R-A13, 23 LPRA "
    "§ 6432(d)).":
        "La Autoridad requiere el pago de toda cantidad vencida por correo certificado con acuse "
        "de recibo (R-A12); el costo del envío se añade a la cuenta (R-A9). Si el requerimiento "
        "no se paga completo dentro de los 15 días siguientes a su envío, la deuda se puede "
        "reclamar en el tribunal (R-A13, 23 LPRA § 6432(d)).",
    # Each amount explained with its own numbers; pay-off as of its date; QA.
    "%(count)s installments; on a small screen, slide the table sideways to see every column.":
        "%(count)s plazos; en una pantalla pequeña, deslice la tabla hacia el lado para ver "
        "todas las columnas.",
    "As of {as_of}: interest {interest} + late fees {late_fees} + costs {costs} + unpaid "
    "principal ({delinquent} overdue, {due} due and {upcoming} not yet due) - credit {credit} "
    "= {payoff}.":
        "Al {as_of}: intereses {interest} + cargos por demora {late_fees} + costas {costs} + "
        "principal sin pagar ({delinquent} en mora, {due} vencido a tiempo y {upcoming} que "
        "aún no vence) - crédito {credit} = {payoff}.",
    "Collection costs owed as of {as_of}: {costs}.":
        "Costas de cobro adeudadas al {as_of}: {costs}.",
    "Each collection cost": "Detalle de las costas de cobro",
    "Late fees owed as of {as_of}: {late_fees}.":
        "Cargos por demora adeudados al {as_of}: {late_fees}.",
    "Lost your notice? Call the Authority at %(phone)s: staff can issue a new access code.":
        "¿Perdió la notificación? Llame a la Autoridad al %(phone)s: el personal puede emitir "
        "un código de acceso nuevo.",
    "Lump-sum discount": "Descuento por pago global",
    "Nothing is owed as of {as_of}: the pay-off amount is {payoff}.":
        "No se adeuda nada al {as_of}: la cantidad para saldar es {payoff}.",
    "The pay-off amount is what the account will owe on {as_of}: it includes the interest "
    "accrued to that date.":
        "La cantidad para saldar es lo que la cuenta adeudará el {as_of}: incluye los intereses "
        "acumulados hasta esa fecha.",
    "This address does not accept that kind of request. Go back to the page and use its links "
    "and buttons.":
        "Esta dirección no acepta ese tipo de solicitud. Regrese a la página y use sus enlaces "
        "y botones.",
    "This page cannot do that": "Esta página no puede hacer eso",
    ("Too many wrong codes. Try again in %(num)d minute, or call the Authority at %(phone)s.",
     "Too many wrong codes. Try again in %(num)d minutes, or call the Authority at %(phone)s."):
        ("Demasiados códigos incorrectos. Intente de nuevo en %(num)d minuto, o llame a la "
         "Autoridad al %(phone)s.",
         "Demasiados códigos incorrectos. Intente de nuevo en %(num)d minutos, o llame a la "
         "Autoridad al %(phone)s.",
         "Demasiados códigos incorrectos. Intente de nuevo en %(num)d minutos, o llame a la "
         "Autoridad al %(phone)s."),
    "on time until": "a tiempo hasta el",
    # Throttling, passwords and no account enumeration.
    "At least 12 characters: a phrase of a few uncommon words is easy to remember and hard to "
    "guess.":
        "Al menos 12 caracteres: una frase de varias palabras poco comunes es fácil de recordar "
        "y difícil de adivinar.",
    "Use at most %(num)d characters.": "Use como máximo %(num)d caracteres.",
    "That password is on the lists of common or leaked passwords: choose another.":
        "Esa contraseña está en las listas de contraseñas comunes o filtradas: escoja otra.",
    "Do not use your name or your email in the password.":
        "No use su nombre ni su correo electrónico en la contraseña.",
    "That password is easy to guess: use a longer phrase of several uncommon words.":
        "Esa contraseña es fácil de adivinar: use una frase más larga de varias palabras poco "
        "comunes.",
    "Straight rows of keys are easy to guess.":
        "Las filas seguidas de teclas son fáciles de adivinar.",
    "Short keyboard patterns are easy to guess.":
        "Los patrones cortos del teclado son fáciles de adivinar.",
    'Repeats like "aaa" are easy to guess.':
        'Las repeticiones como "aaa" son fáciles de adivinar.',
    'Repeats like "abcabcabc" are only slightly harder to guess than "abc".':
        'Las repeticiones como "abcabcabc" son apenas un poco más difíciles de adivinar que '
        '"abc".',
    'Sequences like "abc" or "6543" are easy to guess.':
        'Las secuencias como "abc" o "6543" son fáciles de adivinar.',
    "Recent years are easy to guess.": "Los años recientes son fáciles de adivinar.",
    "Dates are often easy to guess.": "Las fechas suelen ser fáciles de adivinar.",
    "This is similar to a commonly used password.":
        "Se parece a una contraseña de uso común.",
    "A word by itself is easy to guess.": "Una palabra sola es fácil de adivinar.",
    "Names and surnames by themselves are easy to guess.":
        "Los nombres y apellidos solos son fáciles de adivinar.",
    "Common names and surnames are easy to guess.":
        "Los nombres y apellidos comunes son fáciles de adivinar.",
    ("Too many wrong passwords. Try again in %(num)d minute, or choose a new password with "
     "\u201cForgot your password?\u201d",
     "Too many wrong passwords. Try again in %(num)d minutes, or choose a new password with "
     "\u201cForgot your password?\u201d"):
        ("Demasiados intentos con una contraseña incorrecta. Intente de nuevo en %(num)d "
         "minuto, o escoja una contraseña nueva con \u201c¿Olvidó su contraseña?\u201d",
         "Demasiados intentos con una contraseña incorrecta. Intente de nuevo en %(num)d "
         "minutos, o escoja una contraseña nueva con \u201c¿Olvidó su contraseña?\u201d",
         "Demasiados intentos con una contraseña incorrecta. Intente de nuevo en %(num)d "
         "minutos, o escoja una contraseña nueva con \u201c¿Olvidó su contraseña?\u201d"),
    "You already have an account on the District Assessments Portal":
        "Ya tiene una cuenta en el Portal de Derramas del Distrito",
    "Someone asked to create an account with this email, but you already have one. To sign in, "
    "open this link:":
        "Alguien pidió crear una cuenta con este correo electrónico, pero usted ya tiene una. "
        "Para entrar, abra este enlace:",
    "If you do not remember your password, choose a new one here:":
        "Si no recuerda su contraseña, escoja una nueva aquí:",
    "If it was not you, ignore this message: your account has not changed.":
        "Si no fue usted, ignore este mensaje: su cuenta no ha cambiado.",
    "Someone asked to choose a new password for this email on the District Assessments Portal, "
    "but no account uses it. To create one, open this link:":
        "Alguien pidió escoger una contraseña nueva para este correo electrónico en el Portal de "
        "Derramas del Distrito, pero ninguna cuenta lo usa. Para crear una, abra este enlace:",
    "If it was not you, ignore this message.": "Si no fue usted, ignore este mensaje.",
    "%(owner)s wants to share parcel %(catastro)s with you":
        "%(owner)s quiere compartir con usted la propiedad %(catastro)s",
    "%(owner)s wants to give you read access to parcel %(catastro)s on the District Assessments "
    "Portal, but no account uses this email yet.":
        "%(owner)s quiere darle acceso de lectura a la propiedad %(catastro)s en el Portal de "
        "Derramas del Distrito, pero todavía ninguna cuenta usa este correo electrónico.",
    "Create an account with this email here, then ask %(owner)s to give you access again:":
        "Cree una cuenta con este correo electrónico aquí y luego pídale a %(owner)s que le dé "
        "acceso otra vez:",
    "If you do not know this person, ignore this message.":
        "Si no conoce a esta persona, ignore este mensaje.",
    "Current password": "Contraseña actual",
    "Enter your current password.": "Escriba su contraseña actual.",
    "Change your password": "Cambie su contraseña",
    "That is not your current password.": "Esa no es su contraseña actual.",
    "Your password was changed. Other devices were signed out.":
        "Se cambió su contraseña. Se cerró la sesión en los demás dispositivos.",
    "Too many wrong passwords. Try again later, or choose a new password with \u201cForgot "
    "your password?\u201d":
        "Demasiados intentos con una contraseña incorrecta. Intente más tarde, o escoja una "
        "contraseña nueva con \u201c¿Olvidó su contraseña?\u201d",
    "We sent %(email)s an email. If an account uses that email, the person can now see this "
    "parcel; if not, the email asks them to create one, and then you give access again.":
        "Le enviamos un mensaje a %(email)s. Si una cuenta usa ese correo electrónico, la "
        "persona ya puede ver esta propiedad; si no, el mensaje le pide que cree una y luego "
        "usted le da acceso otra vez.",
    # Two-step verification (portal/web/auth/two_factor.py, templates/auth/two_factor_*.html)
    "6 digits; a new code appears every 30 seconds.":
        "6 dígitos; cada 30 segundos aparece un código nuevo.",
    "Add the portal to your authenticator app": "Añada el portal a su aplicación de autenticación",
    "After your password, the portal will ask for a code from an authenticator app on your "
    "phone (for example Google Authenticator, Microsoft Authenticator or FreeOTP).":
        "Después de su contraseña, el portal le pedirá un código de una aplicación de "
        "autenticación en su teléfono (por ejemplo, Google Authenticator, Microsoft "
        "Authenticator o FreeOTP).",
    "Code from your authenticator app": "Código de su aplicación de autenticación",
    "Continue": "Continuar",
    "Current code from your authenticator app (or a recovery code)":
        "Código actual de su aplicación de autenticación (o un código de recuperación)",
    "Enable two-step verification": "Activar la verificación en dos pasos",
    "Enter one of your recovery codes.": "Escriba uno de sus códigos de recuperación.",
    "Enter the 6-digit code.": "Escriba el código de 6 dígitos.",
    "For example: abcde-23456": "Por ejemplo: abcde-23456",
    "Get new recovery codes": "Obtener códigos de recuperación nuevos",
    "I do not have my authenticator app": "No tengo mi aplicación de autenticación",
    "I saved my codes, continue": "Guardé mis códigos, continuar",
    "If you cannot scan it, choose to enter a key by hand and type this key (the spaces do not "
    "matter):":
        "Si no puede escanearlo, escoja entrar una clave a mano y escriba esta clave (los "
        "espacios no importan):",
    "If you lose your phone, each of these codes lets you sign in once instead of the app's "
    "code. Save them now (print them or keep them in a safe place): this is the only time the "
    "portal shows them.":
        "Si pierde su teléfono, cada uno de estos códigos le permite entrar una vez en lugar "
        "del código de la aplicación. Guárdelos ahora (imprímalos o téngalos en un lugar "
        "seguro): esta es la única vez que el portal los muestra.",
    "Manage two-step verification": "Administrar la verificación en dos pasos",
    "New recovery codes": "Códigos de recuperación nuevos",
    "QR code to add %(email)s to an authenticator app":
        "Código QR para añadir %(email)s a una aplicación de autenticación",
    "Recovery code": "Código de recuperación",
    "Scan this QR code with the app.": "Escanee este código QR con la aplicación.",
    "Signing in": "Entrada al portal",
    "Staff accounts need two-step verification: after turning it off you will set it up again "
    "with a new authenticator.":
        "Las cuentas del personal necesitan la verificación en dos pasos: después de "
        "desactivarla, la configurará otra vez con una aplicación de autenticación nueva.",
    "Staff accounts sign in with two-step verification. Set it up now to finish signing in.":
        "Las cuentas del personal entran con verificación en dos pasos. Configúrela ahora "
        "para terminar de entrar.",
    ("That code is not right. You have %(num)d more try before a pause.",
     "That code is not right. You have %(num)d more tries before a pause."):
        ("Ese código no es correcto. Le queda %(num)d intento antes de una pausa.",
         "Ese código no es correcto. Le quedan %(num)d intentos antes de una pausa.",
         "Ese código no es correcto. Le quedan %(num)d intentos antes de una pausa."),
    "The codes you have now stop working and you get 10 new ones.":
        "Los códigos que tiene ahora dejan de funcionar y recibe 10 nuevos.",
    ("Too many wrong codes. Try again in %(num)d minute.",
     "Too many wrong codes. Try again in %(num)d minutes."):
        ("Demasiados códigos incorrectos. Intente de nuevo en %(num)d minuto.",
         "Demasiados códigos incorrectos. Intente de nuevo en %(num)d minutos.",
         "Demasiados códigos incorrectos. Intente de nuevo en %(num)d minutos."),
    "Turn off two-step verification": "Desactivar la verificación en dos pasos",
    "Turn on two-step verification": "Activar la verificación en dos pasos",
    "Two-step verification": "Verificación en dos pasos",
    "Two-step verification is off.": "La verificación en dos pasos está desactivada.",
    "Two-step verification is off: your account is protected by your password only.":
        "La verificación en dos pasos está desactivada: su cuenta está protegida solo por su "
        "contraseña.",
    "Two-step verification is on.": "La verificación en dos pasos está activada.",
    "Two-step verification is on since %(date)s: after your password, the portal asks for a "
    "code from your authenticator app.":
        "La verificación en dos pasos está activada desde el %(date)s: después de su "
        "contraseña, el portal le pide un código de su aplicación de autenticación.",
    "Type one of the recovery codes you saved when you turned on two-step verification. Each "
    "code works once.":
        "Escriba uno de los códigos de recuperación que guardó cuando activó la verificación "
        "en dos pasos. Cada código funciona una sola vez.",
    "Type the code the app shows": "Escriba el código que muestra la aplicación",
    "Use the recovery code": "Usar el código de recuperación",
    "With it on, signing in also asks for a code from an authenticator app on your phone, so a "
    "stolen password is not enough.":
        "Con ella activada, para entrar también se pide un código de una aplicación de "
        "autenticación en su teléfono, así que una contraseña robada no basta.",
    "Without the app or a recovery code, call the Authority at %(phone)s.":
        "Sin la aplicación ni un código de recuperación, llame a la Autoridad al %(phone)s.",
    ("You have %(num)d unused recovery code.", "You have %(num)d unused recovery codes."):
        ("Tiene %(num)d código de recuperación sin usar.",
         "Tiene %(num)d códigos de recuperación sin usar.",
         "Tiene %(num)d códigos de recuperación sin usar."),
    "Your account will then be protected by your password only.":
        "Entonces su cuenta quedará protegida solo por su contraseña.",
    "Your password is correct. To finish signing in as %(email)s, open your authenticator app "
    "and type the 6-digit code it shows for this portal.":
        "Su contraseña es correcta. Para terminar de entrar como %(email)s, abra su aplicación "
        "de autenticación y escriba el código de 6 dígitos que muestra para este portal.",
    "Your recovery codes": "Sus códigos de recuperación",
    "a code from your phone after your password.":
        "un código de su teléfono después de su contraseña.",
    "Staff tasks": "Tareas del personal",
}
