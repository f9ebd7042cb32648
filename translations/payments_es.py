"""Reviewed Puerto Rico Spanish for the payments messages (pages, receipts, emails, PDFs).

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/payments_es.py
    make catalogs
Terms follow the core's and the web layer's catalogs: derrama (assessment), plazo
(installment), cargo por demora (late fee), intereses, costas de cobro, pago global (lump sum),
cantidad para saldar (pay-off amount), crédito (credit), recibo (receipt).
"""

ES = {
    "(you save %(discount)s, rule R-A11)": "(se ahorra %(discount)s, regla R-A11)",
    "A credit is what was paid beyond what is owed (rule R-A10): it is never lost and can be "
    "refunded. The money goes back the way it came: to the card or bank account, or by check "
    "from the office for cash and checks.":
        "Un crédito es lo que se pagó de más sobre lo adeudado (regla R-A10): nunca se pierde y "
        "se puede reembolsar. El dinero se devuelve por donde vino: a la tarjeta o a la cuenta "
        "de banco, o con un cheque de la oficina si se pagó en efectivo o con cheque.",
    "Account": "Cuenta",
    "After it, %(amount)s of past-due debt stays unpaid: those installments stay overdue and "
    "interest keeps running on them.":
        "Después de este pago quedan sin pagar %(amount)s de deuda vencida: esos plazos siguen "
        "vencidos y siguen acumulando intereses.",
    "After it, nothing past due remains.": "Después de este pago no queda nada vencido.",
    "After this payment: due now %(due)s; to pay everything off, %(payoff)s.":
        "Después de este pago: a pagar ahora %(due)s; para saldar todo, %(payoff)s.",
    "Amount in dollars": "Cantidad en dólares",
    "Amount paid": "Cantidad pagada",
    "Amount received": "Cantidad recibida",
    "Amount to refund": "Cantidad a reembolsar",
    "Another amount": "Otra cantidad",
    "Applied to": "Se aplicó a",
    "Back to the parcel": "Volver a la propiedad",
    "Bank account": "Cuenta de banco",
    "Bank account at {bank} ending in {last4}":
        "Cuenta de banco en {bank} terminada en {last4}",
    "By law (rule R-A10, 23 LPRA § 6432(d)) any payment goes first to interest, then late "
    "fees, then costs, then the overdue installments, and only then to the next installments.":
        "Por ley (regla R-A10, 23 LPRA § 6432(d)) todo pago se aplica primero a los intereses, "
        "luego a los cargos por demora, luego a las costas y luego a los plazos vencidos; solo "
        "entonces a los plazos siguientes.",
    "Card": "Tarjeta",
    "Card ending in {last4}": "Tarjeta terminada en {last4}",
    "Card or bank account": "Tarjeta o cuenta de banco",
    "Cash": "Efectivo",
    "Cash, at the office": "Efectivo, en la oficina",
    "Change what to pay": "Cambiar lo que va a pagar",
    "Check": "Cheque",
    "Check number (for a check)": "Número de cheque (si es cheque)",
    "Check number {reference}, at the office": "Cheque número {reference}, en la oficina",
    "Choose again what to pay": "Escoger de nuevo qué pagar",
    "Choose cash or check.": "Escoja efectivo o cheque.",
    "Choose one of the options.": "Escoja una de las opciones.",
    "Choose only one option per parcel.": "Escoja una sola opción por propiedad.",
    "Choose what happens (test mode)": "Escoja qué ocurre (modo de prueba)",
    "Choose what to pay for at least one parcel.":
        "Escoja qué pagar en al menos una propiedad.",
    "Choose what to pay for each parcel. Every amount is computed from the law on today's "
    "date, %(date)s.":
        "Escoja qué pagar en cada propiedad. Cada cantidad se calcula según la ley a la fecha "
        "de hoy, %(date)s.",
    "Collection cost: {description}": "Costa de cobro: {description}",
    "Credit on the account (refundable)": "Crédito en la cuenta (reembolsable)",
    "Credit refunded": "Crédito reembolsado",
    "District benefit assessment, parcel %(catastro)s":
        "Derrama de beneficio del Distrito, propiedad %(catastro)s",
    "Download the receipt (PDF)": "Descargar el recibo (PDF)",
    "Each payment is applied by law (23 LPRA § 6432(d), rule R-A10): first interest, then late "
    "fees, then collection costs, then overdue installments, then the next installments in "
    "order; anything left is a refundable credit.":
        "Cada pago se aplica según la ley (23 LPRA § 6432(d), regla R-A10): primero a los "
        "intereses, luego a los cargos por demora, luego a las costas de cobro, luego a los "
        "plazos vencidos y luego a los plazos siguientes en orden; lo que sobre es un crédito "
        "reembolsable.",
    "From %(min)s up to the pay-off amount, %(payoff)s. For example: 125.50":
        "Desde %(min)s hasta la cantidad para saldar, %(payoff)s. Por ejemplo: 125.50",
    "Go back to the payment page": "Volver a la página de pago",
    "Go back to the portal without paying": "Volver al portal sin pagar",
    "How it was paid": "Cómo se pagó",
    "How the payment was applied": "Cómo se aplicó el pago",
    "How this payment is applied": "Cómo se aplica este pago",
    "Installment {number}": "Plazo {number}",
    "Installments through number {number}": "Plazos hasta el número {number}",
    "Interest on installment {number}": "Intereses del plazo {number}",
    "It is applied today by law (rule R-A10), the same way as an online payment, and gets a "
    "receipt.":
        "Se aplica hoy según la ley (regla R-A10), igual que un pago en línea, y recibe un "
        "recibo.",
    "Late fee on installment {number}": "Cargo por demora del plazo {number}",
    "Lump-sum discount on installment {number}": "Descuento por pago global en el plazo {number}",
    "Lump-sum discount, as credit": "Descuento por pago global, como crédito",
    "Lump-sum discount:": "Descuento por pago global:",
    "Method": "Forma de pago",
    "Name of the person who paid": "Nombre de la persona que pagó",
    "No payments yet.": "Todavía no hay pagos.",
    "No real money moves. In real life the bank answers in a few days; here you choose the "
    "answer.":
        "No se mueve dinero real. En la vida real el banco contesta en unos días; aquí usted "
        "escoge la contestación.",
    "Nothing for this parcel now": "Nada para esta propiedad por ahora",
    "Nothing is due now on this parcel.": "No hay nada a pagar ahora en esta propiedad.",
    "Nothing is due on this account now.": "No hay nada a pagar ahora en esta cuenta.",
    "Nothing is left to pay this year.": "No queda nada por pagar este año.",
    "Paid by the mortgage lender": "Pagado por el acreedor hipotecario",
    "Parcel %(catastro)s, fiscal year %(year)s": "Propiedad %(catastro)s, año fiscal %(year)s",
    "Parcels:": "Propiedades:",
    "Pay": "Pagar",
    "Pay %(amount)s": "Pagar %(amount)s",
    "Pay by card: the card is declined": "Pagar con tarjeta: la tarjeta es rechazada",
    "Pay by card: the payment succeeds": "Pagar con tarjeta: el pago se completa",
    "Pay from a bank account: it stays processing":
        "Pagar desde una cuenta de banco: queda en proceso",
    "Pay the pay-off amount of parcel %(catastro)s instead: %(amount)s":
        "Pagar en cambio la cantidad para saldar la propiedad %(catastro)s: %(amount)s",
    "Pay your assessment": "Pague su derrama",
    "Payer": "Pagador",
    "Payment": "Pago",
    "Payment at the office": "Pago en la oficina",
    "Payment history": "Historial de pagos",
    "Payment not completed": "Pago no completado",
    "Payment of %(amount)s": "Pago de %(amount)s",
    "Payment receipt %(number)s": "Recibo de pago %(number)s",
    "Payments": "Pagos",
    "Please correct the parcels marked below.": "Corrija las propiedades marcadas abajo.",
    "Reason (for the audit log)": "Razón (para el registro de auditoría)",
    "Receipt": "Recibo",
    "Receipt %(number)s": "Recibo %(number)s",
    "Receipt number": "Número de recibo",
    "Record a payment received at the office": "Registrar un pago recibido en la oficina",
    "Record and apply the payment": "Registrar y aplicar el pago",
    "Refund": "Reembolsar",
    "Refund a credit": "Reembolsar un crédito",
    "Refunded": "Reembolsado",
    "Refunded by the office": "Reembolsado por la oficina",
    "Refunded by the payment service": "Reembolsado por el servicio de pagos",
    "Review the payment": "Revisar el pago",
    "Review your payment": "Revise su pago",
    "Rule": "Regla",
    "See the parcel's account": "Ver la cuenta de la propiedad",
    "See the payment": "Ver el pago",
    "Test mode": "Modo de prueba",
    "Thank you: your bank is processing the payment.":
        "Gracias: su banco está procesando el pago.",
    "Thank you: your payment was received.": "Gracias: recibimos su pago.",
    "That account is not one you can pay. Choose from the list.":
        "Esa cuenta no es una que usted pueda pagar. Escoja de la lista.",
    "That installment is already paid. Choose a later one.":
        "Ese plazo ya está pagado. Escoja uno posterior.",
    "That installment is not one of this account's. Choose one from the list.":
        "Ese plazo no es de esta cuenta. Escoja uno de la lista.",
    "That is more than the credit (%(credit)s).": "Eso es más que el crédito (%(credit)s).",
    "That is more than you owe: the pay-off amount today is {payoff}.":
        "Eso es más de lo que usted debe: la cantidad para saldar hoy es {payoff}.",
    "The Authority has not set a lump-sum discount for this year.":
        "La Autoridad no ha fijado un descuento por pago global para este año.",
    "The amount cannot be negative.": "La cantidad no puede ser negativa.",
    "The amount must be more than $0.00.": "La cantidad tiene que ser mayor de $0.00.",
    "The amounts changed since you reviewed them (a payment was posted or a day passed). "
    "Review the new amounts and confirm again.":
        "Las cantidades cambiaron desde que las revisó (se registró un pago o pasó un día). "
        "Revise las cantidades nuevas y confirme otra vez.",
    "The bank completes the payment": "El banco completa el pago",
    "The bank did not complete this payment: what it had paid is owed again.":
        "El banco no completó este pago: lo que había pagado se adeuda otra vez.",
    "The bank rejects the payment": "El banco rechaza el pago",
    "The credit was refunded.": "Se reembolsó el crédito.",
    "Only %(given)s of the %(asked)s was refunded: the payment service did not accept the "
    "rest, which stays as credit. Try the rest again later.":
        "Solo se reembolsaron %(given)s de los %(asked)s: el servicio de pagos no aceptó el "
        "resto, que sigue como crédito. Intente reembolsar el resto más tarde.",
    "The lump-sum discount ended on {deadline}.":
        "El descuento por pago global terminó el {deadline}.",
    "The lump-sum discount needs the whole year in one payment.":
        "El descuento por pago global requiere pagar el año completo en un solo pago.",
    "The lump-sum discount of %(discount)s (rule R-A11) applies if the payment is completed "
    "by %(deadline)s.":
        "El descuento por pago global de %(discount)s (regla R-A11) aplica si el pago se "
        "completa a más tardar el %(deadline)s.",
    "The lump-sum discount was already granted this year.":
        "El descuento por pago global ya se concedió este año.",
    "The payment could not be started. Nothing was charged. Please try again later, or call "
    "the Authority.":
        "No se pudo comenzar el pago. No se le cobró nada. Intente más tarde o llame a la "
        "Autoridad.",
    "The payment did not go through. Nothing was charged.":
        "El pago no se completó. No se le cobró nada.",
    "The payment page expired. Nothing was charged.":
        "La página de pago expiró. No se le cobró nada.",
    "The payment service is not answering right now. Nothing was charged. Please try again in "
    "a few minutes.":
        "El servicio de pagos no está contestando en este momento. No se le cobró nada. "
        "Intente otra vez en unos minutos.",
    "The payment was declined. Nothing was charged. Try another card or bank account.":
        "El pago fue rechazado. No se le cobró nada. Intente con otra tarjeta o cuenta de "
        "banco.",
    "The payment was recorded and applied.": "El pago se registró y se aplicó.",
    "The receipt is attached as a PDF. You can also see it here:":
        "El recibo va adjunto en PDF. También puede verlo aquí:",
    "The smallest amount you can pay is {minimum}.":
        "La cantidad más pequeña que puede pagar es {minimum}.",
    "The total must be at least {minimum} to pay online.":
        "El total tiene que ser de al menos {minimum} para pagar en línea.",
    "The whole year in one payment:": "El año completo en un solo pago:",
    "The whole year with the discount": "El año completo con el descuento",
    "This account has a credit of %(credit)s: it is already counted below.":
        "Esta cuenta tiene un crédito de %(credit)s: ya está tomado en cuenta abajo.",
    "This account has past-due amounts: %(arrears)s (interest %(interest)s, late fees "
    "%(fees)s, collection costs %(costs)s, overdue installments %(principal)s).":
        "Esta cuenta tiene cantidades vencidas: %(arrears)s (intereses %(interest)s, cargos "
        "por demora %(fees)s, costas de cobro %(costs)s, plazos vencidos %(principal)s).",
    "This credit cannot be refunded online: it came from a payment still processing, or from "
    "another payment service. Refund it by check from the office.":
        "Este crédito no se puede reembolsar en línea: viene de un pago que todavía está en "
        "proceso o de otro servicio de pagos. Reembólselo con un cheque de la oficina.",
    "This is exactly how the law applies your payment today, %(date)s.":
        "Así exactamente aplica la ley su pago hoy, %(date)s.",
    "This parcel has no credit to refund.": "Esta propiedad no tiene crédito para reembolsar.",
    "This test payment is finished.": "Este pago de prueba terminó.",
    "Total:": "Total:",
    "We are confirming your payment with the payment service. This page will show it as soon "
    "as it is confirmed.":
        "Estamos confirmando su pago con el servicio de pagos. Esta página lo mostrará tan "
        "pronto se confirme.",
    "We have not received this payment yet.": "Todavía no hemos recibido este pago.",
    "We received your payment of %(amount)s on %(date)s (%(method)s). Status: %(status)s.":
        "Recibimos su pago de %(amount)s el %(date)s (%(method)s). Estado: %(status)s.",
    "What is due now": "Lo que vence ahora",
    "What is due now:": "Lo que vence ahora:",
    "Write at most two decimals (the cents).": "Escriba a lo sumo dos decimales (los centavos).",
    "Write the amount with numbers only, for example 125.50.":
        "Escriba la cantidad solo con números, por ejemplo 125.50.",
    "Write the check number.": "Escriba el número del cheque.",
    "The name is at most 200 characters.": "El nombre tiene 200 caracteres como máximo.",
    "The check number or reference is at most 60 characters.":
        "El número de cheque o la referencia tiene 60 caracteres como máximo.",
    "Write the name of the person who paid.": "Escriba el nombre de la persona que pagó.",
    "You have nothing to pay online now. Parcels you own or lease appear here once their "
    "assessment is published.":
        "No tiene nada que pagar en línea ahora. Las propiedades de las que usted es dueño o "
        "arrendatario aparecen aquí cuando se publica su derrama.",
    "You left the payment page before paying. Nothing was charged.":
        "Usted salió de la página de pago antes de pagar. No se le cobró nada.",
    "You started a payment of %(amount)s on %(date)s and did not finish it.":
        "Usted comenzó un pago de %(amount)s el %(date)s y no lo terminó.",
    "Continue that payment": "Continuar ese pago",
    "If you start another one and pay both, the extra becomes a credit that can be refunded.":
        "Si comienza otro y paga los dos, lo que sobre queda como un crédito reembolsable.",
    "You will go to the secure payment page to pay by card or from a bank account.":
        "Pasará a la página de pago segura para pagar con tarjeta o desde una cuenta de banco.",
    "Your bank is processing this payment. It already counts as paid on the date you made it; "
    "if the bank does not complete it, the amount will be owed again and we will tell you.":
        "Su banco está procesando este pago. Ya cuenta como pagado en la fecha en que lo hizo; "
        "si el banco no lo completa, la cantidad se adeudará otra vez y se lo informaremos.",
    "adjustment": "ajuste",
    "attorney's fees": "honorarios de abogado",
    "certified mail": "correo certificado",
    "court costs": "costas judiciales",
    "credit %(amount)s": "crédito %(amount)s",
    "failed: nothing was charged": "falló: no se cobró nada",
    "money refunded": "dinero reembolsado",
    "not paid (expired)": "no pagado (expiró)",
    "other collection cost": "otra costa de cobro",
    "paid, partly refunded": "pagado, reembolsado en parte",
    "pay-off %(amount)s": "para saldar %(amount)s",
    "payment reversed": "pago revertido",
    "processing": "en proceso",
    "refunded": "reembolsado",
    "see the payment": "ver el pago",
    "started": "comenzado",
    "waiting for the payment": "esperando el pago",
    "{brand} card ending in {last4}": "Tarjeta {brand} terminada en {last4}",
    # QA fixes (receipts, the installment radios, staff's office form, lump sum granted).
    "Amount attempted": "Cantidad intentada",
    "Amount to pay": "Cantidad a pagar",
    "Processing": "En proceso",
    "Installments in due order, through:": "Plazos en orden de vencimiento, hasta:",
    "through No. %(number)s (due %(date)s)": "hasta el núm. %(number)s (vence %(date)s)",
    "Lump-sum discount (R-A11)": "Descuento por pago global (R-A11)",
    "Not part of the amount paid: it reduces what the year costs.":
        "No forma parte de la cantidad pagada: reduce lo que cuesta el año.",
    "Total paid": "Total pagado",
    "Total to pay": "Total a pagar",
    "Nothing is owed on this account.": "Esta cuenta no debe nada.",
    "The lump-sum discount of {discount} was granted on {date} (rule R-A11).":
        "El descuento por pago global de {discount} se concedió el {date} (regla R-A11).",
    # Payment disputes (staff).
    "Payment disputes": "Disputas de pagos",
    "Payers who disputed a card or bank payment with their bank, as Stripe reports it. Answer "
    "each one in Stripe before its deadline; the accounts do not change until money is given "
    "back.":
        "Pagadores que disputaron con su banco un pago con tarjeta o con cuenta de banco, según "
        "lo informa Stripe. Conteste cada disputa en Stripe antes de su fecha límite; las "
        "cuentas no cambian hasta que se devuelva dinero.",
    "No disputes.": "No hay disputas.",
    "Opened": "Abierta",
    "Reason": "Razón",
    "Answer by": "Contestar antes del",
    "unknown payment": "pago desconocido",
    "The bank cannot process it": "El banco no puede procesarlo",
    "Check returned": "Cheque devuelto",
    "Refund or credit not processed": "Reembolso o crédito no procesado",
    "Started by the payer": "Iniciada por el pagador",
    "Debit not authorized": "Débito no autorizado",
    "Charged twice": "Se cobró dos veces",
    "Fraud: the cardholder did not make it": "Fraude: el titular de la tarjeta no lo hizo",
    "Other reason": "Otra razón",
    "Wrong account details": "Datos de la cuenta incorrectos",
    "Insufficient funds": "Fondos insuficientes",
    "Product not received": "Producto no recibido",
    "Product unacceptable": "Producto inaceptable",
    "Subscription canceled": "Suscripción cancelada",
    "Charge not recognized": "Cargo no reconocido",
    "Inquiry: needs a response": "Consulta: requiere respuesta",
    "Inquiry: under review": "Consulta: en revisión",
    "Inquiry closed": "Consulta cerrada",
    "Needs a response": "Requiere respuesta",
    "Under review": "En revisión",
    "Won": "Ganada",
    "Lost": "Perdida",
    "Prevented": "Evitada",
    # Two payers, one bill: someone else's payment of the same account is not finished.
    "Another person with access": "Otra persona con acceso",
    "Someone else is already paying this": "Otra persona ya está pagando esto",
    "If both payments go through, both are charged. What is paid beyond what is owed stays "
    "as a credit on the account, which the office can refund. If you can, ask the other "
    "person before paying.":
        "Si los dos pagos se completan, se cobran los dos. Lo que se pague de más sobre lo "
        "adeudado queda como crédito en la cuenta, y la oficina lo puede reembolsar. Si puede, "
        "pregúntele a la otra persona antes de pagar.",
    "I know someone else is paying this, and I want to pay it too.":
        "Sé que otra persona está pagando esto y quiero pagarlo también.",
    "Someone else is already paying this. To pay it too, check the box below.":
        "Otra persona ya está pagando esto. Para pagarlo también, marque la casilla de abajo.",
}
