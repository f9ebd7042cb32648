"""Reviewed Puerto Rico Spanish for the calculation core's explanations (portal/core).

Apply with `make translations`, then
`.venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/core_es.py`
and `make catalogs`. Terms: derrama (assessment), plazo (installment), cargo por demora (late fee),
costas de cobro (collection costs), principal, crédito, pago global (lump sum).
"""

ES = {
    "Installment {number}: {principal} unpaid for {days} days, from {start} to {end} (principal x days = {principal_days}).":
        "Plazo {number}: {principal} sin pagar durante {days} días, del {start} al {end} (principal x días = {principal_days}).",
    "Installment {number}: {rate} x {principal_days} (the sum of principal x days) / 365 = {accrued}: the interest is rounded once, as a total.":
        "Plazo {number}: {rate} x {principal_days} (la suma de principal x días) / 365 = {accrued}: los intereses se redondean una sola vez, sobre el total.",
    "Installment {number}: {paid} of its interest was paid by earlier payments; {owed} is still owed.":
        "Plazo {number}: pagos anteriores cubrieron {paid} de sus intereses; aún se adeudan {owed}.",
    "No installment is delinquent: no interest runs (interest runs only on delinquent principal, from its due date).":
        "Ningún plazo está en mora: no corren intereses (los intereses corren solo sobre el principal en mora, desde su vencimiento).",
    "Interest owed as of {as_of}: {interest}. No interest is charged on interest, fees or costs.":
        "Intereses adeudados al {as_of}: {interest}. No se cobran intereses sobre intereses, cargos ni costas.",
    "One late fee: {rate} x {base_text} ({base}) = {fee}; {owed} still owed.":
        "Un solo cargo por demora: {rate} x {base_text} ({base}) = {fee}; aún se adeudan {owed}.",
    "{date}: {description}, {amount}; {owed} still owed.":
        "{date}: {description}, {amount}; aún se adeudan {owed}.",
    "No collection cost has been recorded on this account.":
        "No se ha registrado ninguna costa de cobro en esta cuenta.",
    "Installment {number}, due {due}: {owed} (pay by {last_day} to be on time).":
        "Plazo {number}, vence el {due}: {owed} (pague a más tardar el {last_day} para estar a tiempo).",
    "Installment {number}, due {due}: {owed} still owed; it is on time until {last_day}.":
        "Plazo {number}, vencido el {due}: aún se adeudan {owed}; está a tiempo hasta el {last_day}.",
    "No installment is in this group.":
        "Ningún plazo está en este grupo.",
    "The year was paid in one lump sum on {date}, by the deadline {deadline}: discount of {rate} = {discount}.":
        "El año se pagó en un solo pago global el {date}, dentro de la fecha límite del {deadline}: descuento de {rate} = {discount}.",
    "No lump-sum discount was granted on this account this year.":
        "Este año no se concedió descuento por pago global en esta cuenta.",
    "The payment of {amount} on {date} paid everything owed; {credit} was left over.":
        "El pago de {amount} del {date} cubrió todo lo adeudado; sobraron {credit}.",
    "A credit is never lost: it is refundable and pays any cost added later. Credit now: {credit}.":
        "Un crédito nunca se pierde: es reembolsable y paga cualquier costa que se añada después. Crédito actual: {credit}.",
    "Interest {interest} + late fees {late_fees} + costs {costs} + overdue principal {delinquent} + principal due now {due} - credit {credit} = {total}.":
        "Intereses {interest} + cargos por demora {late_fees} + costas {costs} + principal en mora {delinquent} + principal que vence ahora {due} - crédito {credit} = {total}.",
    "A payment goes first to interest, then to late fees, costs and the oldest overdue installment.":
        "Un pago se aplica primero a intereses, luego a cargos por demora, costas y al plazo vencido más antiguo.",
    "Due now {total} + principal of the installments not yet due {upcoming} = {payoff}, as of {as_of}.":
        "Vencido ahora {total} + principal de los plazos que aún no vencen {upcoming} = {payoff}, al {as_of}.",
    "The payment of {amount} on {date} was reversed on {reversed_on}: it was never received and is not counted.":
        "El pago de {amount} del {date} se revirtió el {reversed_on}: nunca se recibió y no se cuenta.",
    "Adjustment of {amount} on {date} ({description}), with any credit, applied like a payment: interest first, then late fees, costs, delinquent principal, then other principal; {credit} left as credit.":
        "Ajuste de {amount} el {date} ({description}), junto con cualquier crédito, aplicado como un pago: primero a intereses, luego a cargos por demora, costas, principal en mora y luego al resto del principal; quedan {credit} como crédito.",
    "A refund of {amount} on {date} was taken from the credit.":
        "Se reembolsaron {amount} del crédito el {date}.",
    "The adjustment of {amount} on {date} ({description}), with any credit, paid everything owed; {credit} was left over.":
        "El ajuste de {amount} del {date} ({description}), junto con cualquier crédito, cubrió todo lo adeudado; sobraron {credit}.",
    "The Board fixed this parcel's assessment at {amount}; the rest of the total is shared by benefit units among the other parcels.":
        'La Junta fijó la derrama de esta propiedad en {amount}; el resto del total se reparte por unidades de beneficio entre las demás propiedades.',
    'When a demand is sent and what it states': 'Cuándo se envía el requerimiento y qué dice',
    'What stops the court claim': 'Qué detiene la reclamación en el tribunal',
    'The payoff certificate': 'La certificación de deuda',
    'Where the certification goes, and its filing date': 'A dónde va la certificación y su fecha de presentación',
    'What the certification states': 'Qué dice la certificación',
    'Judged on January 1; continues year to year': 'Se juzga al 1 de enero; continúa de año en año',
    'The payment plan': 'El plan de pago',
    'What a change report states': 'Qué dice un informe de cambio',
    'From when a change counts': 'Desde cuándo cuenta un cambio',
    'A surviving spouse keeps the exemption': 'El cónyuge supérstite conserva la exoneración',
    'Co-owners and cooperatives': 'Condueños y cooperativas',
    'What the lender records and forwards': 'Qué anota y remite el acreedor hipotecario',
    'The notice date, and what stops the sale': 'La fecha de la notificación y lo que detiene la venta',
    'The mortgage balance, the auction number and a shortfall': 'El balance de las hipotecas, el número de subasta y lo que falte',
    "Exempt valuation {exempt_value} (at most {cap}) x tax rate {rate} = exemption of {amount}; tax {gross} becomes {net}.":
        "Valoración exonerada {exempt_value} (hasta {cap}) x tipo contributivo {rate} = exoneración de {amount}; la contribución de {gross} queda en {net}.",
}
