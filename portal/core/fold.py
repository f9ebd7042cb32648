"""Folding text for search (the staff search): accents and case do not matter, so
"Muñoz" is found by "munoz" and "BOLIVAR" finds "Bolívar". Pure: the SQLite connection
registers it as the SQL function `portal_fold` (`portal/db.py`); on PostgreSQL the migration
bo281 defines the same function over `unaccent` and `lower`, so one query serves both."""

from __future__ import annotations

import unicodedata


def fold(text: str | None) -> str | None:
    """`text` decomposed (NFKD), without its combining marks, in lower case; None stays None
    (SQL's NULL). PostgreSQL's `lower(unaccent(x))` gives the same for Spanish and English."""
    if text is None:
        return None
    decomposed = unicodedata.normalize("NFKD", str(text))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
