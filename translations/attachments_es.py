"""Reviewed Puerto Rico Spanish for the property-tax attachment and auction (R-C1–R-C8) and
the lessee's deposit order (R-A14): the staff's pages under /personal/embargos and the
debtor's section of the parcel page.

Terms: embargo, notificación de embargo, honorarios del agente de rentas internas (13 LPRA
§ 33262(j), as the core's explanation says), subasta, tipo mínimo de subasta (21 LPRA § 5105,
the core's title), tasación, valor real, participación del deudor (equity), hipotecas
inscritas, adjudicar; orden de consignación de las rentas (R-A14, as web_es.py says
"consignar en el tribunal las rentas"); arrendatario, propiedad, año fiscal (docs/GLOSSARY.md).
"Recargos" and "penalidades" only as the statute's own list of what the CRIM or the Treasury
claims, never for the District's late fee (cargo por demora). Apply as translations/web_es.py
says (scripts/fill_catalog.py).
"""

ES = {
    # services/attachments.py: how the 30 days are counted (R-C2, R-C7)
    "Notified on {notified} (the day of personal delivery or of certified mailing): 30 "
    "days to pay in full, the last day rolled over to the next working day: {last}. A sale "
    "may take place from {sale}, without further notice.":
        "Notificado el {notified} (el día de la entrega personal o del envío por correo "
        "certificado): 30 días para pagar en su totalidad, con el último día corrido al "
        "próximo día laborable: {last}. La venta puede celebrarse desde el {sale}, sin más "
        "aviso.",
    # web/attachments/forms.py
    "Write an amount such as 1,234.50 (not negative, at most two decimals).":
        "Escriba una cantidad como 1,234.50 (no negativa, con dos decimales como máximo).",
    "Write the amount (0.00 if none).": "Escriba la cantidad (0.00 si no hay).",
    "Fiscal years owed": "Años fiscales adeudados",
    "Write the fiscal years the debt is for.":
        "Escriba los años fiscales a los que corresponde la deuda.",
    "Write at most 120 characters.": "Escriba 120 caracteres como máximo.",
    "Write at most 32 characters.": "Escriba 32 caracteres como máximo.",
    "Taxes (principal)": "Contribuciones (principal)",
    "Surcharges": "Recargos",
    "Interest": "Intereses",
    "Penalties": "Penalidades",
    "Levies": "Imposiciones",
    "Fines": "Multas",
    "Custody and deposit costs": "Gastos de custodia y depósito",
    "How the notice was served": "Cómo se notificó",
    "In person, to the debtor or a family member in charge":
        "En persona, al deudor o a un familiar a cargo de la propiedad",
    "By certified mail with return receipt": "Por correo certificado con acuse de recibo",
    "Choose how the notice was served.": "Escoja cómo se notificó.",
    "Notice date": "Fecha de la notificación",
    "Record the notice of attachment": "Registrar la notificación de embargo",
    "Costs": "Costas",
    "Appraisal date": "Fecha de la tasación",
    "Real value by the appraisal": "Valor real según la tasación",
    "Balance of the recorded mortgages at the appraisal date":
        "Saldo de las hipotecas inscritas a la fecha de la tasación",
    "Auction number": "Número de la subasta",
    "Write the auction's number, from 1 to 9.": "Escriba el número de la subasta, del 1 al 9.",
    "Record the auction and its minimum": "Registrar la subasta y su tipo mínimo",
    "Day of the auction": "Día de la subasta",
    "Bids received": "Ofertas recibidas",
    "Write how many bids were received (0 if none).":
        "Escriba cuántas ofertas se recibieron (0 si ninguna).",
    "Write a whole number from 0 to 10,000.": "Escriba un número entero del 0 al 10,000.",
    "Sale price (with bids)": "Precio de venta (si hubo ofertas)",
    "Record the result": "Registrar el resultado",
    "Day it was paid in full": "Día en que se pagó en su totalidad",
    "Record the payment in full": "Registrar el pago total",
    "Court": "Tribunal",
    "Write the court that issued the order.": "Escriba el tribunal que emitió la orden.",
    "Date of the order": "Fecha de la orden",
    "Notes (optional)": "Notas (opcional)",
    "Record the deposit order": "Registrar la orden de consignación",
    "Day the order ends": "Día en que termina la orden",
    "Lift the order": "Dejar sin efecto la orden",
    # web/attachments/routes.py
    "The result of this auction is already recorded.":
        "El resultado de esta subasta ya está registrado.",
    "This debt is already recorded as paid in full.":
        "Esta deuda ya está registrada como pagada en su totalidad.",
    "A deposit order is for a parcel the Authority owns and leases (R-A14).":
        "La orden de consignación es para una propiedad de la Autoridad que está arrendada "
        "(R-A14).",
    "This parcel has no lease in force on the date of the order.":
        "Esta propiedad no tiene un arrendamiento vigente en la fecha de la orden.",
    "The lease already has a deposit order in force: lift it first.":
        "El arrendamiento ya tiene una orden de consignación en vigor: déjela sin efecto "
        "primero.",
    "This order is already lifted.": "Esta orden ya se dejó sin efecto.",
    "The date cannot be a day to come.": "La fecha no puede ser un día por venir.",
    "Write the certified-mail number of a notice served by mail.":
        "Escriba el número del correo certificado de una notificación enviada por correo.",
    "A sale may not be below the auction minimum (R-C4).":
        "No se puede vender por debajo del tipo mínimo de subasta (R-C4).",
    "The auction is held after the appraisal.": "La subasta se celebra después de la tasación.",
    "This value is not valid.": "Este valor no es válido.",
    "No parcel has that catastro number.": "Ninguna propiedad tiene ese número de catastro.",
    "The notice of attachment is recorded.": "Se registró la notificación de embargo.",
    "The auction and its minimum are recorded.": "Se registraron la subasta y su tipo mínimo.",
    "The auction's result is recorded.": "Se registró el resultado de la subasta.",
    "The debt is recorded as paid in full.": "Se registró la deuda como pagada en su totalidad.",
    "The deposit order is recorded.": "Se registró la orden de consignación.",
    "The order ends on or after the day it was ordered.":
        "La orden termina el día en que se ordenó o después.",
    "The deposit order is lifted.": "La orden de consignación quedó sin efecto.",
    # web/attachments/views.py
    "CRIM (Municipal Revenue Collection Center)":
        "CRIM (Centro de Recaudación de Ingresos Municipales)",
    "Department of the Treasury": "Departamento de Hacienda",
    "in person": "en persona",
    "by certified mail": "por correo certificado",
    "Adjudicated to the CRIM at the minimum (no bids)":
        "Adjudicada al CRIM por el tipo mínimo (sin ofertas)",
    "Sold": "Vendida",
    "Taxes": "Contribuciones",
    # templates/attachments/
    "Attachments and auctions": "Embargos y subastas",
    "Property-tax debts on a parcel: the Treasury's notice of attachment with its 30 days and "
    "the dunning agent's fee (R-C1–R-C3, 13 LPRA § 33262), and the CRIM's auction with its "
    "confidential minimum (R-C4–R-C6, 21 LPRA § 5105). Also the court's order for a lessee to "
    "deposit the rents (R-A14).":
        "Deudas de contribuciones sobre la propiedad: la notificación de embargo de Hacienda, "
        "con sus 30 días y los honorarios del agente de rentas internas (R-C1–R-C3, 13 LPRA "
        "§ 33262), y la subasta del CRIM con su tipo mínimo confidencial (R-C4–R-C6, 21 LPRA "
        "§ 5105). También la orden del tribunal para que un arrendatario consigne las rentas "
        "(R-A14).",
    "For example 040-012-345-67.": "Por ejemplo, 040-012-345-67.",
    "Open the parcel": "Abrir la propiedad",
    "Debts recorded": "Deudas registradas",
    "Creditor": "Acreedor",
    "Fiscal years": "Años fiscales",
    "Treasury": "Hacienda",
    "Paid in full on %(date)s": "Pagada en su totalidad el %(date)s",
    "Owed": "Adeudada",
    "Older debts": "Deudas anteriores",
    "No debt is recorded yet.": "Todavía no hay deudas registradas.",
    "The parcel's account": "La cuenta de la propiedad",
    "Back to attachments and auctions": "Volver a embargos y subastas",
    "Debts on this parcel": "Deudas de esta propiedad",
    "No debt is recorded for this parcel.": "No hay deudas registradas para esta propiedad.",
    "Record a notice of attachment (Treasury)": "Registrar una notificación de embargo (Hacienda)",
    "The portal computes the dunning agent's fee (a tenth of the tax principal alone, plus "
    "custody costs: R-C3), the total the notice states (R-C1), the last day of the 30 days and "
    "the earliest sale date (R-C2). A notice served by certified mail is dated the day it was "
    "mailed (R-C7).":
        "El portal calcula los honorarios del agente de rentas internas (la décima parte del "
        "principal de la contribución solamente, más los gastos de custodia: R-C3), el total que indica la "
        "notificación (R-C1), el último día de los 30 días y la fecha más temprana de venta "
        "(R-C2). La notificación por correo certificado tiene la fecha del envío (R-C7).",
    "For example 2023-2024, 2024-2025.": "Por ejemplo, 2023-2024, 2024-2025.",
    "For example 1,234.50.": "Por ejemplo, 1,234.50.",
    "Blank if none.": "En blanco si no hay.",
    "When served by certified mail: as printed on the post office's receipt.":
        "Si se notificó por correo certificado: como aparece en el recibo del correo.",
    "The day of personal delivery or of the certified mailing. Year-month-day, for example "
    "2026-11-30.":
        "El día de la entrega personal o del envío por correo certificado. Año-mes-día, por "
        "ejemplo, 2026-11-30.",
    "Record an auction (CRIM)": "Registrar una subasta (CRIM)",
    "The portal computes the auction minimum: the lesser of the debtor's equity (real value "
    "less the mortgages' balance, not below 0) and the credit (everything the debt lists), but "
    "never below the parcel's own tax debt with its interest (R-C4). It is confidential: staff "
    "and the debtor only (R-C5).":
        "El portal calcula el tipo mínimo de subasta: la menor entre la participación del "
        "deudor (el valor real menos el saldo de las hipotecas, no menos de 0) y el crédito "
        "(todo lo que incluye la deuda), pero nunca por debajo de la deuda de contribuciones de "
        "la propiedad con sus intereses (R-C4). Es confidencial: solo el personal y el deudor "
        "(R-C5).",
    "For example 85,000.00.": "Por ejemplo, 85,000.00.",
    "At the appraisal date; 0.00 if none (R-C8).": "A la fecha de la tasación; 0.00 si no hay "
                                                    "(R-C8).",
    "The regulation sets the minimum of each auction (R-C8).":
        "El reglamento fija el tipo mínimo de cada subasta (R-C8).",
    "Lessee's deposit order": "Orden de consignación del arrendatario",
    "For a parcel the Authority owns and leases, a court may order the lessee to deposit in "
    "court the rents received from it until the debt is paid (R-A14, 23 LPRA § 6432(d)). The "
    "parcel's account shows the order in force.":
        "En una propiedad de la Autoridad que está arrendada, un tribunal puede ordenar al "
        "arrendatario consignar en el tribunal las rentas que reciba de ella hasta que se pague "
        "la deuda (R-A14, 23 LPRA § 6432(d)). La cuenta de la propiedad muestra la orden en "
        "vigor.",
    "%(court)s, case %(case)s, ordered on %(date)s":
        "%(court)s, caso %(case)s, ordenada el %(date)s",
    "lifted on %(date)s": "sin efecto desde el %(date)s",
    "in force": "en vigor",
    "This parcel is not the Authority's: a deposit order does not apply.":
        "Esta propiedad no es de la Autoridad: no aplica una orden de consignación.",
    "This parcel has no lease in force.": "Esta propiedad no tiene un arrendamiento vigente.",
    "For example: Tribunal de Primera Instancia, Sala de San Juan.":
        "Por ejemplo: Tribunal de Primera Instancia, Sala de San Juan.",
    "Debt to the %(creditor)s": "Deuda con: %(creditor)s",
    "Notice of attachment": "Notificación de embargo",
    "Notified on %(date)s, %(how)s.": "Notificada el %(date)s, %(how)s.",
    "Certified-mail number %(number)s.": "Número del correo certificado: %(number)s.",
    "Dunning agent's fee, with custody costs":
        "Honorarios del agente de rentas internas, con los gastos de custodia",
    "Total stated in the notice": "Total que indica la notificación",
    "Pay the notice's total in full by":
        "Pague el total de la notificación a más tardar el",
    ": otherwise the parcel, or the part strictly sufficient to pay the debt, may be sold at "
    "public auction from %(date)s, without further notice (R-C1, R-C2, 13 LPRA § 33262).":
        "; de lo contrario, la propiedad, o la parte estrictamente suficiente para pagar la "
        "deuda, puede venderse en pública subasta desde el %(date)s, sin más aviso (R-C1, "
        "R-C2, 13 LPRA § 33262).",
    "To stop the sale, pay the amount in the notice plus what has accrued up to the day of "
    "payment, the dunning agent's fee and the custody costs (R-C7).":
        "Para detener la venta, pague la cantidad de la notificación más lo acumulado hasta el "
        "día del pago, los honorarios del agente de rentas internas y los gastos de custodia "
        "(R-C7).",
    "Last day to pay in full": "Último día para pagar en su totalidad",
    "Auction %(number)s": "Subasta %(number)s",
    "The CRIM's appraisal of %(date)s (21 LPRA § 5105).":
        "Tasación del CRIM del %(date)s (21 LPRA § 5105).",
    "Real value": "Valor real",
    "Balance of the recorded mortgages": "Saldo de las hipotecas inscritas",
    "Equity": "Participación del deudor",
    "Credit: everything the debt lists": "Crédito: todo lo que incluye la deuda",
    "The parcel's own tax debt, with its interest":
        "Deuda de contribuciones de la propiedad, con sus intereses",
    "Confidential: only the CRIM's staff and the debtor see this minimum; at the auction it is "
    "announced only after the best offer, if that offer does not exceed it (R-C5, 21 LPRA "
    "§ 5105).":
        "Confidencial: solo el personal del CRIM y el deudor ven este tipo mínimo; en la "
        "subasta se anuncia únicamente después de recibir la mejor oferta, si esa oferta no lo "
        "excede (R-C5, 21 LPRA § 5105).",
    "Bids: %(n)s": "Ofertas: %(n)s",
    "Price: %(amount)s": "Precio: %(amount)s",
    "What the sale did not cover of the parcel's own tax debt, still owed: %(amount)s (R-C6).":
        "Lo que la venta no cubrió de la deuda de contribuciones de la propiedad, que todavía "
        "se adeuda: %(amount)s (R-C6).",
    "The result of auction %(number)s": "El resultado de la subasta %(number)s",
    "With no bids, the CRIM adjudicates the parcel to itself at the minimum (R-C6).":
        "Sin ofertas, el CRIM se adjudica la propiedad por el tipo mínimo (R-C6).",
    "With bids: the price, not below the minimum.":
        "Con ofertas: el precio, no menor que el tipo mínimo.",
    "Property-tax attachment": "Embargo por contribuciones sobre la propiedad",
    "Property-tax debts of this parcel with the CRIM or the Department of the Treasury: they "
    "are not District assessments, and they are paid to the creditor, not on this portal.":
        "Deudas de contribuciones sobre esta propiedad con el CRIM o el Departamento de "
        "Hacienda: no son derramas del Distrito y se pagan al acreedor, no en este portal.",
    # web/attachments/views.py: the notice's PDF
    "Pay the notice's total in full by %(last)s: otherwise the parcel, or the part strictly "
    "sufficient to pay the debt, may be sold at public auction from %(sale)s, without further "
    "notice.":
        "Pague el total de la notificación a más tardar el %(last)s; de lo contrario, la "
        "propiedad, o la parte estrictamente suficiente para pagar la deuda, puede venderse en "
        "pública subasta desde el %(sale)s, sin más aviso.",
    "To stop the sale, pay the amount in the notice plus what has accrued up to the day of "
    "payment, the dunning agent's fee and the custody costs.":
        "Para detener la venta, pague la cantidad de la notificación más lo acumulado hasta el "
        "día del pago, los honorarios del agente de rentas internas y los gastos de custodia.",
    "The notice date, and what stops the sale":
        "La fecha de la notificación y lo que detiene la venta",
    "Everything the notice states as due and unpaid.":
        "Todo lo que la notificación indica como adeudado y no pagado.",
    "The notice of attachment (PDF, in both languages)":
        "La notificación de embargo (PDF, en ambos idiomas)",
    "Record a notice, an auction or its result for this parcel":
        "Registrar una notificación, una subasta o su resultado para esta propiedad",
    "Attachments and auctions; lessees' deposit orders":
        "Embargos y subastas; órdenes de consignación de arrendatarios",
    "The debts, the notice and the auction": "Las deudas, la notificación y la subasta",
}
