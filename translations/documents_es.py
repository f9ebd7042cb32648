"""Reviewed Puerto Rico Spanish for the document layer's messages (statement of account,
receipts, and the page furniture every document shares: the Authority, page numbers, the
rules behind the amounts).

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/documents_es.py
    make catalogs
Terms follow the web catalog: derrama (assessment), plazo (installment), propiedad (parcel, on
screens and documents), arrendatario (lessee), dueño (owner).
"""

ES = {
    "Tel. %(phone)s (%(hours)s)": "Tel. %(phone)s (%(hours)s)",
    "illustrative contact details (demo)": "datos de contacto ilustrativos (demostración)",
    "What": "Concepto",
    "Your access": "Su acceso",
    "Amounts": "Cantidades",
    "Why": "Por qué",
    "The rules and the law behind these amounts":
        "Las reglas y la ley en que se basan estas cantidades",
    "[%(number)d] %(title)s: %(source)s (the portal's rule %(rule)s).":
        "[%(number)d] %(title)s: %(source)s (regla del portal %(rule)s).",
    "Every amount is computed from the law over the account's facts; the explanation under "
    "each amount shows the numbers, and the notes at the end name the rule and the statute "
    "behind each.":
        "Cada cantidad se calcula según la ley a partir de los datos de la cuenta; la "
        "explicación bajo cada cantidad muestra los números, y las notas al final indican la "
        "regla y la ley en que se basa cada una.",
    "Under the lease, the lessee pays the assessment.":
        "Según el contrato de arrendamiento, el arrendatario paga la derrama.",
    "Under the lease, the owner pays the assessment.":
        "Según el contrato de arrendamiento, el dueño paga la derrama.",
}
