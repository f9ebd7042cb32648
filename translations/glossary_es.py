"""Reviewed Puerto Rico Spanish that makes the catalog follow docs/GLOSSARY.md (issue 12):
one term per concept (tests/web/test_glossary.py).

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/glossary_es.py
    make catalogs
"""

ES = {
    # "atrasado" -> "vencido" (past due)
    "Lessees: the balance of the parcel you lease, what is late and what stops the next "
    "collection step.":
        "Arrendatarios: el balance de la propiedad que arrienda, lo que está vencido y lo que "
        "detiene el próximo paso de cobro.",
    # "costo" -> "costa" (collection costs, R-A9)
    "A credit of {amount} was applied on {date} to a new cost.":
        "Un crédito de {amount} se aplicó el {date} a una costa nueva.",
}
