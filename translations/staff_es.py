"""Reviewed Puerto Rico Spanish for the staff's budgets pages and staff roles (J8:
portal/web/staff/budgets.py, roles.py, templates/staff/budget*.html and
_role.html). Terms: presupuesto, versión (femenino: adoptada), partida (a budget line),
derrama (assessment), año fiscal, Junta (the Board), enmienda / enmendar, cantidad fija (an
amount the Board fixes, R-A3), propiedad (parcel), función (a staff role).
"""

ES = {
    "A draft amendment was made from the adopted version: change what the Board amends, "
    "then adopt it.":
        "Se hizo un borrador de enmienda a partir de la versión adoptada: cambie lo que la "
        "Junta enmienda y luego adóptela.",
    "Add a fixed amount": "Añadir una cantidad fija",
    "Add a line": "Añadir una partida",
    "Administrator": "Administrador",
    "Adopt the version it amends first.": "Primero adopte la versión que enmienda.",
    "Adopt this version": "Adoptar esta versión",
    "Adopt version %(n)s of the %(label)s budget":
        "Adoptar la versión %(n)s del presupuesto %(label)s",
    "All budgets": "Todos los presupuestos",
    "Amend: start a new version": "Enmendar: comenzar una versión nueva",
    "Amounts fixed by the Board": "Cantidades fijadas por la Junta",
    "An administrator computes and publishes the roll.":
        "Un administrador calcula y publica el registro de derramas.",
    "An adopted version is never edited (R-A1): to change it, amend it.":
        "Una versión adoptada nunca se edita (R-A1): para cambiarla, enmiéndela.",
    "An adopted version is never edited: amend it instead (a new version).":
        "Una versión adoptada nunca se edita: enmiéndela (una versión nueva).",
    "An amendment cannot be dated before the version it amends (adopted on %(date)s).":
        "Una enmienda no puede tener una fecha anterior a la de la versión que enmienda "
        "(adoptada el %(date)s).",
    "Back to version %(n)s": "Volver a la versión %(n)s",
    "Board resolution": "Resolución de la Junta",
    "Budget %(label)s, version %(n)s": "Presupuesto %(label)s, versión %(n)s",
    "Budget %(label)s: version %(a)s and version %(b)s":
        "Presupuesto %(label)s: versión %(a)s y versión %(b)s",
    "Budget versions of %(label)s": "Versiones del presupuesto %(label)s",
    "Budgets": "Presupuestos",
    "Budgets: draft, adopt and amend": "Presupuestos: redactar, adoptar y enmendar",
    "Cancel": "Cancelar",
    "Cashier": "Cajero",
    "Change": "Cambio",
    "Change in cost": "Cambio en el costo",
    "Change in the part financed": "Cambio en la parte financiada",
    "Check the adoption date.": "Revise la fecha de adopción.",
    "Check the lines: a cost or a part financed by assessments was refused.":
        "Revise las partidas: no se aceptó un costo o una parte financiada con derramas.",
    "Check this amount.": "Revise esta cantidad.",
    "Choose a fiscal year.": "Escoja un año fiscal.",
    "Choose a role.": "Escoja una función.",
    "Choose the kind": "Escoja el tipo",
    "Choose the kind of line.": "Escoja el tipo de partida.",
    "Compare": "Comparar",
    "Compare version %(n)s with": "Comparar la versión %(n)s con",
    "Compare with another version": "Comparar con otra versión",
    "Confirm that you checked the version.": "Confirme que revisó la versión.",
    "Cost": "Costo",
    "Cost in version %(n)s": "Costo en la versión %(n)s",
    "Date the Board adopted it": "Fecha en que la Junta lo adoptó",
    "Description in English": "Descripción en inglés",
    "Description in Spanish": "Descripción en español",
    "An adopted version is never deleted (R-A1).":
        "Una versión adoptada nunca se elimina (R-A1).",
    "Discard draft version %(n)s": "Descartar el borrador de la versión %(n)s",
    "Discard this draft": "Descartar este borrador",
    "The draft of %(label)s was discarded.": "Se descartó el borrador de %(label)s.",
    "The draft's lines and fixed amounts are deleted; the audit log keeps what it held. An "
    "adopted version is never deleted.":
        "Se eliminan las partidas y las cantidades fijas del borrador; el registro de "
        "auditoría guarda lo que tenía. Una versión adoptada nunca se elimina.",
    "Draft a fiscal year's budget": "Redactar el presupuesto de un año fiscal",
    "Edit the draft": "Editar el borrador",
    "Edit the draft: version %(n)s of %(label)s":
        "Editar el borrador: versión %(n)s de %(label)s",
    "Effective on (R-A5)": "Efectiva desde (R-A5)",
    "Every fiscal year that can be budgeted now has a budget: amend it instead.":
        "Cada año fiscal que se puede presupuestar ahora ya tiene presupuesto: enmiéndelo.",
    "Everything: budgets, the roll, payments, roles and two-step verification resets.":
        "Todo: presupuestos, registro de derramas, pagos, funciones y restablecer la "
        "verificación en dos pasos.",
    "Financed by assessments in version %(n)s": "Financiado con derramas en la versión %(n)s",
    "Fixed amount": "Cantidad fija",
    "Fixed amount %(n)d": "Cantidad fija %(n)d",
    "For example: Resolución 2026-14. Optional while it is a draft.":
        "Por ejemplo: Resolución 2026-14. Opcional mientras sea un borrador.",
    "I checked its lines and totals: once adopted, this version is never edited":
        "Revisé sus partidas y totales: una vez adoptada, esta versión nunca se edita",
    "Kind of line": "Tipo de partida",
    "Line": "Partida",
    "Line %(n)d": "Partida %(n)d",
    "Lines": "Partidas",
    "Lines of version %(n)s": "Partidas de la versión %(n)s",
    "Lines: version %(a)s, version %(b)s and the change":
        "Partidas: versión %(a)s, versión %(b)s y el cambio",
    "No budget has been drafted for this year.":
        "No se ha redactado ningún presupuesto para este año.",
    "No parcel has this catastro number.": "Ninguna propiedad tiene este número de catastro.",
    "None: the whole total is shared by benefit units (R-A3).":
        "Ninguna: todo el total se reparte por unidades de beneficio (R-A3).",
    "Once adopted, this version is never edited (R-A1); the roll is computed from it.":
        "Una vez adoptada, esta versión nunca se edita (R-A1); el registro de derramas se "
        "calcula a partir de ella.",
    "Only the latest version is amended.": "Solo se enmienda la versión más reciente.",
    "Part financed by assessments": "Parte financiada con derramas",
    "R-A1: the improvement projects and their construction cost; the cost of maintenance, "
    "repair and replacement, marketing and operation; the Center improvements financed by "
    "assessments. The total to assess is the sum of the parts financed by assessments.":
        "R-A1: los proyectos de mejoras y su costo de construcción; el costo de "
        "mantenimiento, reparación y reemplazo, mercadeo y operación; las mejoras al Centro "
        "financiadas con derramas. El total a imponer en derramas es la suma de las partes "
        "financiadas con derramas.",
    "R-A3: the Board may fix a parcel's amount directly; the rest of the total is shared by "
    "benefit units. Leave these rows empty when it fixes none.":
        "R-A3: la Junta puede fijar directamente la cantidad de una propiedad; el resto del "
        "total se reparte por unidades de beneficio. Deje estas filas vacías si no fija "
        "ninguna.",
    "Decides residential exemption certifications; changes no budget, roll or payment.":
        "Decide las certificaciones de exención residencial; no cambia presupuestos, "
        "registros de derramas ni pagos.",
    "Read only": "Solo lectura",
    "Records office payments and refunds credits.":
        "Registra pagos en la oficina y reembolsa créditos.",
    "Reviewer": "Revisor",
    "Role": "Función",
    "Role: %(role)s.": "Función: %(role)s.",
    "Save the draft": "Guardar el borrador",
    "Save the role": "Guardar la función",
    "Sees every staff page; changes nothing.":
        "Ve todas las páginas del personal; no cambia nada.",
    "Staff role": "Función en el personal",
    "That amount is too large for a budget.": "Esa cantidad es demasiado grande para un "
                                              "presupuesto.",
    "The Board adopted it after the fiscal year began: record it so":
        "La Junta lo adoptó después de comenzar el año fiscal: registrarlo así",
    "The Board adopts each fiscal year's budget before the year starts (R-A1). An adopted "
    "version is never edited: an amendment is a new version, adopted in turn. The assessment "
    "roll is computed from an adopted version.":
        "La Junta adopta el presupuesto de cada año fiscal antes de que el año comience "
        "(R-A1). Una versión adoptada nunca se edita: una enmienda es una versión nueva, que "
        "se adopta a su vez. El registro de derramas se calcula a partir de una versión "
        "adoptada.",
    "The roll's computation does not apply amounts fixed by the Board yet (R-A3): a version "
    "with them is not computed.":
        "El cálculo del registro de derramas no aplica todavía las cantidades fijadas por la "
        "Junta (R-A3): una versión que las tenga no se calcula.",
    "This budget version has amounts fixed by the Board, and the roll's computation does not "
    "apply them yet (R-A3): it is not computed. Amend the budget without them, or wait for "
    "that change.":
        "Esta versión del presupuesto tiene cantidades fijadas por la Junta, y el cálculo del "
        "registro de derramas no las aplica todavía (R-A3): no se calcula. Enmiende el "
        "presupuesto sin ellas, o espere ese cambio.",
    "The draft is saved.": "Se guardó el borrador.",
    "The draft is saved. Check it, then adopt it when the Board does.":
        "Se guardó el borrador. Revíselo y adóptelo cuando la Junta lo adopte.",
    "The fiscal year %(label)s began on %(date)s. R-A1 says the Board adopts the budget "
    "before its fiscal year starts. If the Board did adopt it on this date, record it so: the "
    "audit log keeps that it was late, and no installment falls due before the owners are "
    "notified (R-A4).":
        "El año fiscal %(label)s comenzó el %(date)s. La regla R-A1 dice que la Junta adopta "
        "el presupuesto antes de que comience su año fiscal. Si la Junta lo adoptó en esta "
        "fecha, regístrelo así: el registro de auditoría guarda que fue tarde, y ningún plazo "
        "vence antes de que se notifique a los dueños (R-A4).",
    "The fiscal year has begun": "El año fiscal ya comenzó",
    "The fiscal year has begun: check this box to record a late adoption.":
        "El año fiscal ya comenzó: marque esta casilla para registrar una adopción tardía.",
    "The fixed amounts (%(fixed)s) are more than the total to assess (%(total)s) (R-A3).":
        "Las cantidades fijas (%(fixed)s) suman más que el total a imponer en derramas "
        "(%(total)s) (R-A3).",
    "The part financed by assessments cannot be more than the line's cost.":
        "La parte financiada con derramas no puede ser mayor que el costo de la partida.",
    "The role is saved: %(role)s.": "Se guardó la función: %(role)s.",
    "The two versions have the same lines and amounts.":
        "Las dos versiones tienen las mismas partidas y cantidades.",
    "There is already a draft amendment: finish it and adopt it, or change it.":
        "Ya hay un borrador de enmienda: termínelo y adóptelo, o cámbielo.",
    "This budget has only one version: there is nothing to compare yet.":
        "Este presupuesto tiene una sola versión: todavía no hay nada que comparar.",
    "This parcel is already listed above.": "Esta propiedad ya aparece más arriba.",
    "This parcel is exempt (R-A2): it takes no amount.":
        "Esta propiedad está exenta (R-A2): no lleva cantidad.",
    "This version cannot be adopted now.": "Esta versión no se puede adoptar ahora.",
    "This version cannot be amended now.": "Esta versión no se puede enmendar ahora.",
    "This version is already adopted.": "Esta versión ya está adoptada.",
    "Total": "Total",
    "Total cost": "Costo total",
    "Totals": "Totales",
    "Version %(a)s and %(b)s side by side": "Versiones %(a)s y %(b)s lado a lado",
    "Version %(n)s": "Versión %(n)s",
    "Version %(n)s is adopted. Next: compute the roll on the assessment roll's page.":
        "La versión %(n)s está adoptada. Próximo paso: calcular el registro de derramas en "
        "su página.",
    "What this person may do": "Lo que esta persona puede hacer",
    "Write amounts as 1,250,000.00 (the $ sign and the commas are optional). Empty rows are "
    "left out; \"Add a line\" gives one more row.":
        "Escriba las cantidades así: 1,250,000.00 (el signo $ y las comas son opcionales). "
        "Las filas vacías no se toman en cuenta; «Añadir una partida» da una fila más.",
    "Write at least one line of the budget.": "Escriba por lo menos una partida del "
                                              "presupuesto.",
    "Write the amount with numbers only, for example 1,250,000.00.":
        "Escriba la cantidad solo con números, por ejemplo 1,250,000.00.",
    "Write the amount, for example 1,250,000.00.":
        "Escriba la cantidad, por ejemplo 1,250,000.00.",
    "Write the date as year-month-day, for example 2026-05-20.":
        "Escriba la fecha como año-mes-día, por ejemplo 2026-05-20.",
    "Write the date the Board adopted it.": "Escriba la fecha en que la Junta lo adoptó.",
    "Write the parcel's catastro number.": "Escriba el número de catastro de la propiedad.",
    "Write what the line is, in English.": "Escriba qué es la partida, en inglés.",
    "Write what the line is, in Spanish.": "Escriba qué es la partida, en español.",
    "Year-month-day, for example 2026-05-20.": "Año-mes-día, por ejemplo 2026-05-20.",
    "You cannot take away your own administrator role: another administrator can.":
        "No puede quitarse su propia función de administrador: otro administrador puede "
        "hacerlo.",
    "You cannot take away your own administrator role: ask another administrator.":
        "No puede quitarse su propia función de administrador: pídaselo a otro "
        "administrador.",
    "added": "añadida",
    "adopted on %(date)s": "adoptada el %(date)s",
    "changed": "cambiada",
    "draft: not adopted yet": "borrador: todavía no se ha adoptado",
    "removed": "eliminada",
    "unchanged": "sin cambios",
}
