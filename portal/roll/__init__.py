"""The Board's year (J8): fiscal years and budget versions (`budgets`), the parcel roll's
CSV (`roll_csv`, pure) and its import (`roll_import`), the assessment roll computed and
published (`roll`), its review (`review`) and the assessment notices (`notices`).
"""
