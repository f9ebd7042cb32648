"""Reviewed Puerto Rico Spanish for the roll's review before publication and an amendment's
differences per parcel (J8; R-A2, R-A3, R-A5): portal/web/staff/roll_review.py,
portal/core/roll_review.py and templates/staff/roll_review*.html.

Terms (docs/GLOSSARY.md): registro de derramas (the roll), derrama (assessment), propiedad
(parcel, never "parcela"), exenta (exempt), la Junta, cantidad fija / fijada por la Junta
(R-A3), unidades de beneficio, enmienda, plazo (installment), número de catastro.
"""

ES = {
    # portal/core/roll_review.py: why a parcel is exempt (R-A2)
    "Land of the Authority, not sold, leased, subleased or otherwise transferred as a "
    "private parcel.":
        "Terreno de la Autoridad que no se ha vendido, arrendado, subarrendado ni traspasado "
        "de otra forma como propiedad privada.",
    "Land of another public owner, not transferred as a private parcel.":
        "Terreno de otro dueño público que no se ha traspasado como propiedad privada.",
    "The parcel's facts changed after the roll was computed: compute the roll again.":
        "Los datos de la propiedad cambiaron después de calcular el registro: calcule el "
        "registro de nuevo.",
    # the review page
    "Review": "Revisar",
    "Review of the roll %(label)s, version %(n)s":
        "Revisión del registro %(label)s, versión %(n)s",
    "The budget version": "La versión del presupuesto",
    "computed, not published": "calculado, sin publicar",
    "The computation has not finished": "El cálculo no ha terminado",
    "%(lines)s of %(all)s lines are written. Wait for the computation's job to end, or "
    "compute the roll again: a roll whose computation stopped is not published.":
        "Se han escrito %(lines)s de %(all)s líneas. Espere a que termine el trabajo del "
        "cálculo, o calcule el registro de nuevo: un registro cuyo cálculo se detuvo no se "
        "publica.",
    "Total assessed": "Total de las derramas",
    "The shares add up to the budget's total to assess, to the cent (R-A3).":
        "Las derramas suman el total a imponer del presupuesto, al centavo (R-A3).",
    "The shares do not add up to the total to assess":
        "Las derramas no suman el total a imponer",
    "They differ by %(amount)s. Do not publish this roll: compute it again, and if the "
    "figures still differ, report it.":
        "La diferencia es de %(amount)s. No publique este registro: calcúlelo de nuevo y, si "
        "las cifras siguen sin cuadrar, infórmelo.",
    "Total assessed: the sum of the shares": "Total de las derramas: la suma de todas",
    "The budget version's total to assess":
        "Total a imponer en derramas de la versión del presupuesto",
    "Parcels with an amount fixed by the Board":
        "Propiedades con una cantidad fijada por la Junta",
    "Publishing is done from the roll's page, with its button. Review the figures here "
    "first.":
        "La publicación se hace desde la página del registro, con su botón. Revise primero "
        "las cifras aquí.",
    "An administrator publishes the roll, from the roll's page.":
        "Un administrador publica el registro, desde la página del registro.",
    "The amendment's differences per parcel (R-A5)":
        "Las diferencias de la enmienda por propiedad (R-A5)",
    "See the differences per parcel": "Ver las diferencias por propiedad",
    "Download them (CSV)": "Descargarlas (CSV)",
    "Exempt parcels and why (R-A2)": "Propiedades exentas y por qué (R-A2)",
    "Exempt parcels by reason": "Propiedades exentas por razón",
    "The exempt parcels, by catastro number":
        "Las propiedades exentas, por número de catastro",
    "No parcel is exempt.": "Ninguna propiedad está exenta.",
    "Amounts fixed by the Board (R-A3)": "Cantidades fijadas por la Junta (R-A3)",
    "Amount fixed": "Cantidad fijada",
    "On the roll": "En el registro",
    "The Board's reason": "Razón de la Junta",
    "not on the roll": "no está en el registro",
    "exempt: the fixed amount is ignored": "exenta: no se aplica la cantidad fijada",
    "The Board fixed no parcel's amount: the whole total is shared by benefit units.":
        "La Junta no fijó la cantidad de ninguna propiedad: todo el total se reparte por "
        "unidades de beneficio.",
    "The ten largest shares": "Las diez derramas más altas",
    "Benefit units": "Unidades de beneficio",
    "Annual amount": "Cantidad anual",
    "No parcel is assessed.": "Ninguna propiedad paga derrama.",
    "How the shares are spread": "Cómo se reparten las derramas",
    "Histogram of the shares": "Histograma de las derramas",
    "%(n)s assessed parcels in %(bins)s groups by annual amount, from %(low)s to %(high)s; "
    "the largest group has %(most)s parcels. The table beside it has the same figures.":
        "%(n)s propiedades con derrama en %(bins)s grupos por cantidad anual, de %(low)s a "
        "%(high)s; el grupo más grande tiene %(most)s propiedades. La tabla del lado tiene "
        "las mismas cifras.",
    "Parcels by annual amount": "Propiedades por cantidad anual",
    "%(low)s to %(high)s": "de %(low)s a %(high)s",
    "%(low)s to less than %(high)s": "de %(low)s a menos de %(high)s",
    # an amendment's differences
    "Parcels whose amount changes": "Propiedades cuya cantidad cambia",
    "Increases: %(n)s parcels": "Aumentos: %(n)s propiedades",
    "Decreases: %(n)s parcels": "Reducciones: %(n)s propiedades",
    "Net change": "Cambio neto",
    "Amendment %(label)s, version %(n)s: the differences per parcel":
        "Enmienda %(label)s, versión %(n)s: las diferencias por propiedad",
    "Back to the roll's review": "Volver a la revisión del registro",
    "Each parcel whose annual amount the amendment changes: the amount in force before it, "
    "the new one and the difference, the largest change first. Publishing spreads each "
    "difference over the unpaid installments due after the amendment's effective date "
    "(R-A5); paid installments are never rewritten.":
        "Cada propiedad cuya cantidad anual cambia con la enmienda: la cantidad vigente antes "
        "de ella, la nueva y la diferencia, primero el cambio más grande. Al publicar, cada "
        "diferencia se reparte entre los plazos no pagados que vencen después de la fecha de "
        "vigencia de la enmienda (R-A5); los plazos pagados nunca se cambian.",
    "Differences per parcel, the largest first":
        "Diferencias por propiedad, primero la más grande",
    "Previous amount": "Cantidad anterior",
    "New amount": "Cantidad nueva",
    "Difference": "Diferencia",
    "not assessed": "sin derrama",
    "The amendment changes no parcel's amount.":
        "La enmienda no cambia la cantidad de ninguna propiedad.",
    # the CSV's columns
    "Increase": "Aumento",
    "Decrease": "Reducción",
}
