"""Reviewed Puerto Rico Spanish for the background jobs and the staff's roll pages.

Apply with:
    make translations
    .venv/bin/python scripts/fill_catalog.py translations/es/LC_MESSAGES/messages.po translations/jobs_es.py
    make catalogs
Terms: derrama (assessment), registro de derramas (the assessment roll), versión del
presupuesto (budget version), trabajo (a background job), propiedad (parcel: never
"parcela", tests/web/test_glossary.py).
"""

ES = {
    "%(done)s of %(total)s parcels": "%(done)s de %(total)s propiedades",
    "%(rate)s parcels a second": "%(rate)s propiedades por segundo",
    "About %(time)s left": "Faltan unos %(time)s",
    "Adopt the budget first.": "Primero adopte el presupuesto.",
    "Assessment roll": "Registro de derramas",
    "Assessment roll: compute and publish": "Registro de derramas: calcular y publicar",
    "Back to the assessment roll": "Volver al registro de derramas",
    "Budget version": "Versión del presupuesto",
    "Budget versions and their rolls": "Versiones del presupuesto y sus registros de derramas",
    "Compute again": "Calcular de nuevo",
    "Compute the roll": "Calcular el registro",
    "Computing and publishing a roll run in the background: the job's page shows how far it has got. Publishing a published roll changes nothing.":
        "El cálculo y la publicación de un registro se hacen en segundo plano: la página del trabajo muestra cuánto lleva. Publicar un registro ya publicado no cambia nada.",
    "Exempt parcels": "Propiedades exentas",
    "Failed": "Falló",
    "Finished": "Terminado",
    "Job %(id)s": "Trabajo %(id)s",
    "Latest jobs": "Últimos trabajos",
    "Next step": "Próximo paso",
    "No budget has been drafted yet.": "Todavía no se ha redactado ningún presupuesto.",
    "No job has run yet.": "Todavía no se ha corrido ningún trabajo.",
    "Nothing: it is published.": "Nada: está publicado.",
    "Parcels assessed": "Propiedades con derrama",
    "Progress": "Progreso",
    "Publish the roll": "Publicar el registro",
    "Rate": "Ritmo",
    "Reload now": "Recargar ahora",
    "Roll": "Registro",
    "Running": "En curso",
    "The budget version is not adopted: adopt it before computing its roll.":
        "La versión del presupuesto no está adoptada: adóptela antes de calcular su registro.",
    "The budget version or the roll no longer exists.":
        "La versión del presupuesto o el registro ya no existe.",
    "The calculation refused the roll's figures: check the parcels' benefit units and the budget's total.":
        "El cálculo rechazó las cifras del registro: revise las unidades de beneficio de las propiedades y el total del presupuesto.",
    "The job stopped on an unexpected error (the worker's log has it). Starting it again is safe: it goes on from its last finished batch.":
        "El trabajo se detuvo por un error inesperado (consta en el registro del proceso de trabajos). Puede iniciarlo de nuevo sin riesgo: continúa desde el último lote terminado.",
    "The roll's computation did not finish: compute it again before publishing it.":
        "El cálculo del registro no terminó: calcúlelo de nuevo antes de publicarlo.",
    "This page reloads by itself every few seconds while the job runs.":
        "Esta página se recarga sola cada pocos segundos mientras el trabajo está en curso.",
    "This roll is already published: a published roll is not computed again.":
        "Este registro ya está publicado: un registro publicado no se calcula de nuevo.",
    "Started by": "Iniciado por",
    "Time left": "Tiempo restante",
    "Waiting for the worker": "En espera del proceso de trabajos",
    "Your account may not do this.": "Su cuenta no puede hacer esto.",
    "adopted": "adoptada",
    "computed": "calculado",
    "draft": "borrador",
    "not computed": "sin calcular",
    "published": "publicado",
    "Queue the demands of the delinquent accounts":
        "Preparar los requerimientos de las cuentas en mora",
    "Back to the parcel-roll imports": "Volver a las importaciones del padrón",
}
