"""Reviewed Puerto Rico Spanish for the residential exemption's certification (J5):
the wizard, the receipt (page, PDF, emails), the lender's list and the staff's review.

Terms: exoneración residencial, contribución sobre la propiedad, radicar / radicación,
propiedad (parcel, docs/GLOSSARY.md), año fiscal, acreedor hipotecario (the lender, as the
statute says), plan de pagos, pagos mensuales (never "cuotas": that is the District's plazo).
Apply as translations/web_es.py says (scripts/fill_catalog.py).
"""

ES = {
    "%(name)s was added.": "Se añadió %(name)s.",
    "%(name)s: parcel %(catastro)s (%(status)s).":
        "%(name)s: propiedad %(catastro)s (%(status)s).",
    ("%(num)s certification", "%(num)s certifications"):
        ("%(num)s certificación", "%(num)s certificaciones", "%(num)s certificaciones"),
    "A certification takes at most 10 documents. Remove one to add another.":
        "Una certificación lleva hasta 10 documentos. Quite uno para añadir otro.",
    "A document is missing or cannot be read: upload it again.":
        "Falta un documento o no se puede leer: súbalo de nuevo.",
    "A home that earns rent is not exempt (R-B7).":
        "Una vivienda por la que se recibe renta no está exonerada (R-B7).",
    "A new structure bought from its builder, the buyer's home":
        "Una estructura nueva comprada a quien la construyó, que es la vivienda del comprador",
    "A part: I give its valuation": "Una parte: doy su valoración",
    "A part: I give the fraction": "Una parte: doy la fracción",
    "A payment plan must be requested within 30 days after filing: if you file today, by "
    "%(date)s (%(left)s). Staff approves it; until then the exemption is pending.":
        "Debe solicitar un plan de pagos dentro de los 30 días siguientes a la radicación: si "
        "radica hoy, a más tardar el %(date)s (%(left)s). El personal lo aprueba; hasta "
        "entonces la exoneración queda pendiente.",
    "All of it": "Toda",
    "An exempt home can still be sold at auction for property-tax debts (R-B12).":
        "Una vivienda exonerada todavía puede venderse en pública subasta por deudas de "
        "contribución sobre la propiedad (R-B12).",
    "An owner already holds the residential exemption, or has asked for it, on another "
    "property this year. A person has the exemption on one home only (R-B6).":
        "Un dueño ya tiene la exoneración residencial, o la solicitó, en otra propiedad este "
        "año. Cada persona tiene la exoneración en una sola vivienda (R-B6).",
    "Answers": "Respuestas",
    "Any municipality": "Cualquier municipio",
    "Any status": "Cualquier estado",
    "Approve": "Aprobar",
    "Approved": "Aprobada",
    "As on your veterans' exemption; upload its evidence in the documents step.":
        "Como aparece en su exención de veterano; suba la evidencia en el paso de documentos.",
    "At most %(most)s.": "Hasta %(most)s.",
    "Back": "Atrás",
    "Back to the certifications": "Volver a las certificaciones",
    "Because of my own critical illness or disability, I live with a relative or in a care "
    "centre":
        "Por mi propia enfermedad crítica o impedimento, vivo con un familiar o en un centro "
        "de cuidado",
    "Bill of %(date)s": "Factura del %(date)s",
    "Both spouses are owners and a couple has one exemption; every co-owner is named, and no "
    "owner may hold the exemption on another home (R-B5, R-B6).":
        "Ambos cónyuges son dueños y un matrimonio tiene una sola exoneración; se nombra a "
        "cada condueño, y ningún dueño puede tener la exoneración en otra vivienda (R-B5, "
        "R-B6).",
    "Certifications": "Certificaciones",
    "Certifications your borrowers filed for the parcels of your loans (R-B9). Keep each one "
    "with the loan; pay each bill with the exemption it shows.":
        "Certificaciones que sus deudores radicaron para las propiedades de sus préstamos "
        "(R-B9). Guarde cada una con el préstamo; pague cada factura con la exoneración que "
        "muestra.",
    "Certified by": "Certificada por",
    "Check the box to certify the statement.": "Marque la casilla para certificar la declaración.",
    "Check the box to make the sworn statement.":
        "Marque la casilla para hacer la declaración jurada.",
    "Check this answer.": "Revise esta respuesta.",
    "Choose a document to upload.": "Escoja un documento para subir.",
    "Choose a first payment date from today to a year from now.":
        "Escoja una fecha para el primer pago desde hoy hasta dentro de un año.",
    "Choose at least one owner.": "Escoja por lo menos un dueño.",
    "Choose at least one reason.": "Escoja por lo menos una razón.",
    "Choose one answer.": "Escoja una respuesta.",
    "Choose the owners who file, from the owners on record.":
        "Escoja los dueños que radican, de entre los dueños que constan en el registro.",
    "Choose which exemption the cooperative chooses.":
        "Escoja qué exoneración elige la cooperativa.",
    "Concept": "Concepto",
    "Continue the certification": "Continuar la certificación",
    "Date of the deed of purchase": "Fecha de la escritura de compraventa",
    "Date of the first payment": "Fecha del primer pago",
    "Days since filing": "Días desde la radicación",
    "Decision": "Decisión",
    "Document (PDF, JPEG or PNG, at most 10 MB)": "Documento (PDF, JPEG o PNG, hasta 10 MB)",
    "Documents support what you state: the veterans' exemption, a sworn statement, the "
    "residential part (R-B14).":
        "Los documentos apoyan lo que usted declara: la exención de veterano, una declaración "
        "jurada, la parte residencial (R-B14).",
    "Documents you uploaded": "Documentos que subió",
    "Does an owner have the veterans' exemption?": "¿Algún dueño tiene la exención de veterano?",
    "Draft": "Borrador",
    "Each is punished by a $500 fine, or six months in prison, or both, at the court's "
    "discretion; and you will pay the taxes owed once the exemption is revoked.":
        "Cada uno se castiga con multa de $500, o seis meses de reclusión, o ambas penas, a "
        "discreción del tribunal; y usted pagará las contribuciones adeudadas al revocarse la "
        "exoneración.",
    "Each unit of a housing cooperative has its own exemption on its share; the cooperative "
    "may choose the cooperatives law's exemption instead (R-B4).":
        "Cada unidad de una cooperativa de vivienda tiene su propia exoneración sobre su "
        "participación; la cooperativa puede elegir en su lugar la exención de la ley de "
        "cooperativas (R-B4).",
    "Enter a whole number of payments.": "Escriba un número entero de pagos.",
    "Enter days from 0 to 3,650.": "Escriba de 0 a 3,650 días.",
    "Enter from 1 to %(most)s monthly payments.": "Escriba de 1 a %(most)s pagos mensuales.",
    "Enter the amount.": "Escriba la cantidad.",
    "Enter the date of the deed.": "Escriba la fecha de la escritura.",
    "Enter the date of the first payment.": "Escriba la fecha del primer pago.",
    "Enter the fraction.": "Escriba la fracción.",
    "Enter the number of payments.": "Escriba el número de pagos.",
    "Enter the share.": "Escriba la participación.",
    "Enter the valuation.": "Escriba la valoración.",
    "File the certification": "Radicar la certificación",
    "File the certification if this property is your home.":
        "Radique la certificación si esta propiedad es su vivienda.",
    "Filed": "Radicada",
    "Filed at least this many days ago": "Radicada hace por lo menos estos días",
    "Filed on": "Radicada el",
    "Filing number": "Número de radicación",
    "Filter": "Filtrar",
    "Finish and file the certification.": "Termine y radique la certificación.",
    "Fiscal year %(year)s:": "Año fiscal %(year)s:",
    "Fiscal year": "Año fiscal",
    "Fix and resubmit": "Corregir y volver a enviar",
    "Fix only these parts, then certify and resubmit.":
        "Corrija solo estas partes; luego certifique y vuelva a enviarla.",
    "Fix what staff returned and resubmit the certification.":
        "Corrija lo que el personal devolvió y vuelva a enviar la certificación.",
    "For example: María Rivera Ortiz (owner), Ana Rivera (daughter).":
        "Por ejemplo: María Rivera Ortiz (dueña), Ana Rivera (hija).",
    "Fraction %(x)s (%(basis)s)": "Fracción %(x)s (%(basis)s)",
    "Fraction used as the home (for example 0.5)":
        "Fracción que se usa como vivienda (por ejemplo, 0.5)",
    "History": "Historial",
    "Housing cooperative": "Cooperativa de vivienda",
    "How was the property used on January 1?": "¿Cómo se usaba la propiedad el 1 de enero?",
    "How will you settle the property tax owed on January 1?":
        "¿Cómo saldará la contribución sobre la propiedad que se debía el 1 de enero?",
    "How you measured it (for example, the area of each part)":
        "Cómo la midió (por ejemplo, el área de cada parte)",
    "I certify that everything I stated is true and complete.":
        "Certifico que todo lo que declaré es cierto y completo.",
    "I request a payment plan": "Solicito un plan de pagos",
    "I swear that this is the reason and that no rent is received for the home.":
        "Juro que esta es la razón y que no se recibe renta por la vivienda.",
    "I will pay it in full within the 30 days": "La pagaré completa dentro de los 30 días",
    "If a plan payment is not paid by its due date, the whole debt falls due, with the costs "
    "of the auction notices, less what was paid, and the CRIM may record an attachment "
    "(R-B11).":
        "Si un pago del plan no se paga a su vencimiento, vence toda la deuda, con los gastos "
        "de los anuncios de subasta y menos lo pagado, y el CRIM puede anotar un embargo "
        "(R-B11).",
    "If this property is your home, up to $15,000 of its valuation is exempt from the "
    "property tax (basic, special and municipal). It does not lower the District's "
    "assessment.":
        "Si esta propiedad es su vivienda, hasta $15,000 de su valoración quedan exonerados "
        "de la contribución sobre la propiedad (básica, especial y municipal). No reduce la "
        "derrama del Distrito.",
    "Is any rent received for the property or a part of it?":
        "¿Se recibe renta por la propiedad o por una parte de ella?",
    "Is the home a unit of a housing cooperative?":
        "¿La vivienda es una unidad de una cooperativa de vivienda?",
    "It is a misdemeanor to fail to report any transfer or change in the ownership of the "
    "property.":
        "Es delito menos grave dejar de notificar cualquier traspaso o cambio en el dominio "
        "de la propiedad.",
    "It is a misdemeanor to intentionally fail to report any change in your qualifications "
    "for the exemption.":
        "Es delito menos grave dejar de notificar intencionalmente cualquier cambio en sus "
        "cualificaciones para la exoneración.",
    "It is a misdemeanor to knowingly fail to present, or to hide, the true details the CRIM "
    "needs to compute the exemption.":
        "Es delito menos grave, a sabiendas, dejar de presentar u ocultar los detalles "
        "verdaderos que el CRIM necesita para computar la exoneración.",
    "It is a misdemeanor, to obtain the exemption, to present any fraudulent statement, "
    "record or information.":
        "Es delito menos grave presentar, para obtener la exoneración, cualquier declaración, "
        "constancia o información fraudulenta.",
    "It was not the home of the owner or the family":
        "No era la vivienda del dueño ni de su familia",
    "It was the home of the owner or the family": "Era la vivienda del dueño o de su familia",
    "Last decision by %(name)s.": "Última decisión de %(name)s.",
    "Living away for a while": "Ausencia temporera",
    "Living away for a while for one of these reasons does not take the exemption away, as "
    "long as no rent is received (R-B8).":
        "Vivir fuera por un tiempo por una de estas razones no quita la exoneración, siempre "
        "que no se reciba renta (R-B8).",
    "Municipality": "Municipio",
    "Next step:": "Próximo paso:",
    "No certifications match.": "Ninguna certificación coincide.",
    "No certifications yet.": "Todavía no hay certificaciones.",
    "No decision is pending.": "No hay decisión pendiente.",
    "No documents yet.": "Todavía no hay documentos.",
    "No documents.": "No hay documentos.",
    "Note (optional)": "Nota (opcional)",
    "Note to the owner (optional)": "Nota para el dueño (opcional)",
    "Number of monthly payments": "Número de pagos mensuales",
    "Of a property only partly used as a home, only that part counts, lot included (R-B2).":
        "De una propiedad que solo en parte se usa como vivienda, cuenta solo esa parte, con "
        "su solar (R-B2).",
    "On %(date)s this parcel owed %(amount)s of property tax.":
        "El %(date)s esta propiedad debía %(amount)s de contribución sobre la propiedad.",
    "On %(date)s.": "El %(date)s.",
    "On January 1 the property must owe no property tax, or a payment plan must be requested "
    "within 30 days after filing and approved (R-B11).":
        "El 1 de enero la propiedad no debe adeudar contribución sobre la propiedad, o hay que "
        "solicitar un plan de pagos dentro de los 30 días siguientes a la radicación y "
        "obtener su aprobación (R-B11).",
    "Only PDF, JPEG or PNG documents are accepted; this file is none of them, whatever its "
    "name says.":
        "Solo se aceptan documentos PDF, JPEG o PNG; este archivo no es ninguno de ellos, diga "
        "lo que diga su nombre.",
    "Only an owner of the parcel files the certification.":
        "Solo un dueño de la propiedad radica la certificación.",
    "Only for a new structure bought from its builder.":
        "Solo para una estructura nueva comprada a quien la construyó.",
    "Only if you answered yes.": "Solo si contestó que sí.",
    "Only the parts staff returned can be changed.":
        "Solo se pueden cambiar las partes que el personal devolvió.",
    "Owners": "Dueños",
    "Owners who file": "Dueños que radican",
    "Paid early (less the %(rate)s discount)": "Pagada por adelantado (menos el %(rate)s de descuento)",
    "Parcel %(catastro)s · fiscal year %(year)s": "Propiedad %(catastro)s · año fiscal %(year)s",
    "Payment plan: %(n)s monthly payments from %(date)s":
        "Plan de pagos: %(n)s pagos mensuales desde el %(date)s",
    "Pays in full within the 30 days": "La paga completa dentro de los 30 días",
    "Property tax (gross)": "Contribución sobre la propiedad (bruta)",
    "Property tax for the year": "Contribución del año",
    "Property tax owed on January 1": "Contribución adeudada el 1 de enero",
    "Property tax was owed on January 1: the payment plan must be requested by %(date)s "
    "(%(left)s) and approved, or the debt paid in full (R-B11).":
        "Se debía contribución el 1 de enero: el plan de pagos debe solicitarse a más tardar "
        "el %(date)s (%(left)s) y aprobarse, o pagarse la deuda completa (R-B11).",
    "Property tax was owed on January 1: the payment plan must be requested by %(date)s.":
        "Se debía contribución el 1 de enero: el plan de pagos debe solicitarse a más tardar "
        "el %(date)s.",
    "Reasons": "Razones",
    "Reasons to return it": "Razones para devolverla",
    "Remove %(name)s": "Quitar %(name)s",
    "Rent": "Renta",
    "Residential exemption": "Exoneración residencial",
    "Residential exemption %(number)s approved": "Exoneración residencial %(number)s aprobada",
    "Residential exemption %(number)s filed": "Exoneración residencial %(number)s radicada",
    "Residential exemption %(number)s on a parcel of your loans":
        "Exoneración residencial %(number)s en una propiedad de sus préstamos",
    "Residential exemption %(number)s resubmitted":
        "Exoneración residencial %(number)s enviada de nuevo",
    "Residential exemption %(number)s: corrections needed":
        "Exoneración residencial %(number)s: hacen falta correcciones",
    "Residential exemption certification %(number)s":
        "Certificación de exoneración residencial %(number)s",
    "Residential exemption certifications": "Certificaciones de exoneración residencial",
    "Residential exemption certifications to review":
        "Certificaciones de exoneración residencial por revisar",
    "Residential exemption · parcel %(catastro)s · fiscal year %(year)s":
        "Exoneración residencial · propiedad %(catastro)s · año fiscal %(year)s",
    "Resubmit the certification": "Volver a enviar la certificación",
    "Resubmitted": "Reenviada",
    "Return to the owner": "Devolver al dueño",
    "Returned to the owner": "Devuelta al dueño",
    "Returned: what to fix": "Devuelta: qué corregir",
    "Review %(number)s": "Revisar %(number)s",
    "Save and continue": "Guardar y continuar",
    "Saving with the exemption: %(amount)s for the year.":
        "Ahorro con la exoneración: %(amount)s en el año.",
    "Say who lives in the home and their relationship to the owner (R-B7).":
        "Indique quién vive en la vivienda y su parentesco con el dueño (R-B7).",
    "See the certification and its receipt": "Ver la certificación y su recibo",
    "See what to fix": "Ver qué corregir",
    "Sent to the lender": "Enviada al acreedor hipotecario",
    "Share %(x)s": "Participación %(x)s",
    "Some questions are not answered yet: answer them before filing.":
        "Faltan preguntas por contestar: contéstelas antes de radicar.",
    "Staff is reviewing the certification; nothing to do for now.":
        "El personal está revisando la certificación; por ahora no tiene que hacer nada.",
    "Staff returned your certification": "El personal devolvió su certificación",
    "Staff returned your residential exemption certification %(number)s for parcel "
    "%(catastro)s, fiscal year %(fiscal_year)s. Fix only these parts and resubmit it:":
        "El personal devolvió su certificación de exoneración residencial %(number)s de la "
        "propiedad %(catastro)s, año fiscal %(fiscal_year)s. Corrija solo estas partes y "
        "vuelva a enviarla:",
    "Start the certification": "Comenzar la certificación",
    "Start the residential exemption certification":
        "Comenzar la certificación de exoneración residencial",
    "Start the review": "Comenzar la revisión",
    "Step %(n)s of %(of)s": "Paso %(n)s de %(of)s",
    "Steps": "Pasos",
    "Still to answer: %(steps)s.": "Falta por contestar: %(steps)s.",
    "The CRIM bills the year in {n} bills, the first on {first} and the last on {last}; "
    "paying a bill early takes off {rate} of it.":
        "El CRIM factura el año en {n} facturas, la primera el {first} y la última el {last}; "
        "pagar una factura por adelantado le resta {rate}.",
    "Approving it also approves the payment plan requested: %(n)s monthly payments from "
    "%(date)s (R-B16).":
        "Al aprobarla se aprueba también el plan de pagos solicitado: %(n)s pagos mensuales "
        "desde el %(date)s (R-B16).",
    "The owner of parcel %(catastro)s resubmitted the residential exemption certification "
    "%(number)s for fiscal year %(fiscal_year)s, corrected.":
        "El dueño de la propiedad %(catastro)s volvió a enviar, corregida, la certificación de "
        "exoneración residencial %(number)s para el año fiscal %(fiscal_year)s.",
    "Last day:": "Último día:",
    "Residential exemption certifications of your loans":
        "Certificaciones de exoneración residencial de sus préstamos",
    "The cooperative chose the cooperatives law's exemption instead: the residential "
    "exemption does not apply to the unit.":
        "La cooperativa eligió en su lugar la exención de la ley de cooperativas: la "
        "exoneración residencial no aplica a la unidad.",
    "Pay the property tax owed on January 1 in full to the CRIM (R-B11).":
        "Pague completa al CRIM la contribución adeudada el 1 de enero (R-B11).",
    "Staff is reviewing the certification and the payment plan you requested (R-B16).":
        "El personal está revisando la certificación y el plan de pagos que solicitó (R-B16).",
    "Spouses are both owners (R-B5): choose both.":
        "Ambos cónyuges son dueños (R-B5): escoja a los dos.",
    "Residential exemption: a step is pending": "Exoneración residencial: falta un paso",
    "Residential exemption: returned, fix and resubmit":
        "Exoneración residencial: devuelta, corrija y vuelva a enviarla",
    "Only a reviewer or an administrator decides a certification (R-B13).":
        "Solo un revisor o un administrador decide una certificación (R-B13).",
    "The CRIM has the residential part's valuation on file: %(amount)s. It is the one used.":
        "El CRIM tiene en su registro la valoración de la parte residencial: %(amount)s. Es la "
        "que se usa.",
    "The CRIM's valuation of this parcel for the year is not on file, so the certification "
    "cannot be filed online yet. Call the Authority at %(phone)s.":
        "La valoración del CRIM de esta propiedad para el año no está en el registro, así que "
        "todavía no se puede radicar la certificación en línea. Llame a la Autoridad al "
        "%(phone)s.",
    "The answers show the property does not qualify, so the certification cannot be filed.":
        "Las respuestas muestran que la propiedad no cualifica, así que la certificación no "
        "se puede radicar.",
    "The certification asks, one question at a time, what the law needs: the owners, the use "
    "of the property on %(date)s, rent, the residential part, a veterans' exemption, a "
    "cooperative unit and any property tax owed. You can stop and come back: your answers "
    "are kept.":
        "La certificación pregunta, una pregunta a la vez, lo que la ley requiere: los dueños, "
        "el uso de la propiedad el %(date)s, la renta, la parte residencial, una exención de "
        "veterano, una unidad de cooperativa y cualquier contribución adeudada. Puede parar y "
        "volver: sus respuestas se guardan.",
    "The certification was approved.": "La certificación se aprobó.",
    "The certification was returned to the owner.": "La certificación se devolvió al dueño.",
    "The certification was withdrawn.": "La certificación se retiró.",
    "The cooperative unit's share or the election is missing (R-B4).":
        "Falta la participación de la unidad de la cooperativa o la elección (R-B4).",
    "The exemption depends on how the property was used on January 1 before the fiscal year "
    "(R-B7, R-B15).":
        "La exoneración depende de cómo se usaba la propiedad el 1 de enero anterior al año "
        "fiscal (R-B7, R-B15).",
    "The exemption lowers the property tax, never the District's assessment (R-B1, R-A2).":
        "La exoneración reduce la contribución sobre la propiedad, nunca la derrama del "
        "Distrito (R-B1, R-A2).",
    "The exemption of the cooperatives law instead":
        "En su lugar, la exención de la ley de cooperativas",
    "The file cannot be opened: it is damaged or incomplete. Save it again and upload it.":
        "El archivo no se puede abrir: está dañado o incompleto. Guárdelo de nuevo y súbalo.",
    "The file is empty. Choose the document again.":
        "El archivo está vacío. Escoja el documento otra vez.",
    "The file is larger than 10 MB. Scan it at a lower resolution or split it, and upload it "
    "again.":
        "El archivo es mayor de 10 MB. Escanéelo a menor resolución o divídalo, y súbalo de "
        "nuevo.",
    "The home must be the owner's or the family's: spouses and relatives within the fourth "
    "degree of consanguinity or the second of affinity (R-B7).":
        "La vivienda debe ser del dueño o de su familia: cónyuges y parientes dentro del "
        "cuarto grado de consanguinidad o el segundo de afinidad (R-B7).",
    "The law requires this warning and your certification (R-B12).":
        "La ley requiere esta advertencia y su certificación (R-B12).",
    "The owner of parcel %(catastro)s filed the residential exemption certification "
    "%(number)s for fiscal year %(fiscal_year)s. It is on your list of certifications.":
        "El dueño de la propiedad %(catastro)s radicó la certificación de exoneración "
        "residencial %(number)s para el año fiscal %(fiscal_year)s. Está en su lista de "
        "certificaciones.",
    "The owner or the family lived away for a while, for a reason the law accepts":
        "El dueño o su familia vivía fuera por un tiempo, por una razón que la ley acepta",
    "The owners listed are not complete: name both spouses and every co-owner (R-B5, R-B6).":
        "Los dueños indicados no están completos: nombre a ambos cónyuges y a cada condueño "
        "(R-B5, R-B6).",
    "The owners on record with the parcel are listed. Spouses are both owners: choose both.":
        "Aparecen los dueños que constan en el registro de la propiedad. Ambos cónyuges son "
        "dueños: escoja a los dos.",
    "The payment plan request is incomplete (R-B11).":
        "La solicitud del plan de pagos está incompleta (R-B11).",
    "The property does not qualify with these answers":
        "Con estas respuestas la propiedad no cualifica",
    "The property owed property tax on January 1: the payment plan must be requested by "
    "%(date)s and approved, or the debt paid in full (R-B11).":
        "La propiedad debía contribución el 1 de enero: el plan de pagos debe solicitarse a "
        "más tardar el %(date)s y aprobarse, o pagarse la deuda completa (R-B11).",
    "The residential exemption certification %(number)s for parcel %(catastro)s, fiscal year "
    "%(fiscal_year)s, was approved.":
        "La certificación de exoneración residencial %(number)s de la propiedad %(catastro)s, "
        "año fiscal %(fiscal_year)s, se aprobó.",
    "The residential exemption certification %(number)s for parcel %(catastro)s, fiscal year "
    "%(fiscal_year)s, was returned to the owner for corrections.":
        "La certificación de exoneración residencial %(number)s de la propiedad %(catastro)s, "
        "año fiscal %(fiscal_year)s, se devolvió al dueño para correcciones.",
    "The residential exemption, unit by unit": "La exoneración residencial, unidad por unidad",
    "The residential part": "La parte residencial",
    "The residential part and its basis do not match the CRIM's records (R-B2).":
        "La parte residencial y su base no coinciden con el registro del CRIM (R-B2).",
    "The sworn statement of the temporary absence is missing or does not give one of the "
    "reasons the law accepts (R-B8).":
        "Falta la declaración jurada de la ausencia temporera o no da una de las razones que "
        "la ley acepta (R-B8).",
    "The unit's share of the cooperative (for example 0.025)":
        "La participación de la unidad en la cooperativa (por ejemplo, 0.025)",
    "The use of the property on January 1 is not clear (R-B7).":
        "El uso de la propiedad el 1 de enero no está claro (R-B7).",
    "The use on January 1": "El uso el 1 de enero",
    "The veterans' exemption amount needs its evidence (R-B3).":
        "La cantidad de la exención de veterano necesita su evidencia (R-B3).",
    "The veterans' exemption is deducted first; the residential exemption then covers at most "
    "what remains (R-B3).":
        "La exención de veterano se descuenta primero; la exoneración residencial cubre "
        "después, como máximo, lo que queda (R-B3).",
    "This certification can no longer be changed.": "Esta certificación ya no se puede cambiar.",
    "This certification is not in a state that allows that.":
        "Esta certificación no está en un estado que lo permita.",
    "This step cannot be saved": "Este paso no se puede guardar",
    "To care for a relative aged 60 or more with a critical illness or a disability that "
    "requires care":
        "Para cuidar a un familiar de 60 años o más con una enfermedad crítica o un "
        "impedimento que requiere cuidado",
    "To meet obligations under 8 LPRA section 1511 and following":
        "Para cumplir obligaciones bajo la sección 1511 y siguientes de 8 LPRA",
    "Type your full name as it appears among the owners or on your account.":
        "Escriba su nombre completo como aparece entre los dueños o en su cuenta.",
    "Type your full name.": "Escriba su nombre completo.",
    "Up to 10 documents. The type is checked by the content, not by the name.":
        "Hasta 10 documentos. El tipo se verifica por el contenido, no por el nombre.",
    "Upload": "Subir",
    "Valuation %(x)s": "Valoración %(x)s",
    "Valuation of the residential part, lot included":
        "Valoración de la parte residencial, con su solar",
    "Veterans' exemption": "Exención de veterano",
    "Veterans' exemption amount (valuation)": "Cantidad de la exención de veterano (valoración)",
    "Warning and certification": "Advertencia y certificación",
    "Warning: false statements are a crime (R-B12)":
        "Advertencia: las declaraciones falsas son delito (R-B12)",
    "We received your corrected residential exemption certification %(number)s for parcel "
    "%(catastro)s, fiscal year %(fiscal_year)s. Staff will review it again.":
        "Recibimos su certificación corregida de exoneración residencial %(number)s de la "
        "propiedad %(catastro)s, año fiscal %(fiscal_year)s. El personal la revisará de nuevo.",
    "We received your residential exemption certification %(number)s for parcel %(catastro)s, "
    "fiscal year %(fiscal_year)s, filed on %(date)s. Staff will review it and let you know.":
        "Recibimos su certificación de exoneración residencial %(number)s de la propiedad "
        "%(catastro)s, año fiscal %(fiscal_year)s, radicada el %(date)s. El personal la "
        "revisará y le avisará.",
    "Which exemption does the cooperative choose?": "¿Qué exoneración elige la cooperativa?",
    "Which part is rented": "Qué parte se renta",
    "Which part of the property is your home?": "¿Qué parte de la propiedad es su vivienda?",
    "Who are the owners?": "¿Quiénes son los dueños?",
    "Who lives in the home, and their relationship to the owner":
        "Quién vive en la vivienda y su parentesco con el dueño",
    "Who lives in the home?": "¿Quién vive en la vivienda?",
    "Why do you live away from the home?": "¿Por qué vive fuera de la vivienda?",
    "Why we ask:": "Por qué preguntamos:",
    "With the exemption, the property tax for the year is %(net)s instead of %(gross)s.":
        "Con la exoneración, la contribución del año es %(net)s en vez de %(gross)s.",
    "With the exemption: %(label)s": "Con la exoneración: %(label)s",
    "With the residential exemption": "Con la exoneración residencial",
    "Withdraw the certification": "Retirar la certificación",
    "Withdrawn": "Retirada",
    "Without the exemption: %(label)s": "Sin la exoneración: %(label)s",
    "Without the residential exemption": "Sin la exoneración residencial",
    "Write at most 2,000 characters.": "Escriba hasta 2,000 caracteres.",
    "Write at most 500 characters.": "Escriba hasta 500 caracteres.",
    "Write the amount in dollars and cents, like 5000.00.":
        "Escriba la cantidad en dólares y centavos, como 5000.00.",
    "Write the fraction as a number greater than 0 and at most 1, like 0.5.":
        "Escriba la fracción como un número mayor que 0 y hasta 1, como 0.5.",
    "Write the share as a number greater than 0 and at most 1, like 0.025.":
        "Escriba la participación como un número mayor que 0 y hasta 1, como 0.025.",
    "Write the valuation in dollars and cents, like 12000.00.":
        "Escriba la valoración en dólares y centavos, como 12000.00.",
    "Your bill with and without the exemption": "Su factura con y sin la exoneración",
    "Your certification was filed. Keep its number: %(number)s.":
        "Su certificación se radicó. Guarde su número: %(number)s.",
    "Your full name": "Su nombre completo",
    "Your receipt, with the bill with and without the exemption:":
        "Su recibo, con la factura con y sin la exoneración:",
    "Your residential exemption certification %(number)s for parcel %(catastro)s, fiscal "
    "year %(fiscal_year)s, was approved. It continues from year to year until a change: "
    "report any change before January 1 following it.":
        "Su certificación de exoneración residencial %(number)s de la propiedad %(catastro)s, "
        "año fiscal %(fiscal_year)s, se aprobó. Continúa de año en año hasta que haya un "
        "cambio: notifique cualquier cambio antes del 1 de enero siguiente.",
    "approved for %(year)s; it continues until a change":
        "aprobada para %(year)s; continúa hasta que haya un cambio",
    "loan %(number)s": "préstamo %(number)s",
    "Download the receipt (PDF)": "Descargar el recibo (PDF)",
    "Under review": "En revisión",
}
