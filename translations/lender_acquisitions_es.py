"""Reviewed Puerto Rico Spanish for the lender's portfolio's acquisitions of a new structure
(R-B10 iii, R-B21): the filter by the 30-day notice to the CRIM and the export's column.
Terms as docs/GLOSSARY.md and translations/lender_intents_es.py: adquisición, notificación
al CRIM, último día, vencida (the notice: feminine), informar (to report).

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/lender_acquisitions_es.py
    make catalogs
"""

ES = {
    "Acquisition: notice to the CRIM": "Adquisición: notificación al CRIM",
    "An acquisition reported": "Con una adquisición informada",
    "Last day within 7 days": "Último día dentro de 7 días",
    "Last day within 30 days": "Último día dentro de 30 días",
    "Notice overdue": "Notificación vencida",
    "Days left to notify the CRIM": "Días para notificar al CRIM",
}
