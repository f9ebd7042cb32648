"""Yes or no as a person types it: the one parser of every CSV cell and API field that takes
an answer of yes or no (the lender's certifications, the roll's file).

`parse(text)` takes only the words listed in `YES` and `NO`, in either language, without
regard to case or accents ("Sí", "SI", "yes", "No"); a spreadsheet's TRUE/FALSE
(VERDADERO/FALSO) too. Anything else is refused with its own code: a mark such as "X" or a
letter such as "Y" or "S" is not an answer (it was read as yes), nor "1" or "quizás".

- `required`: nothing written;
- `not_yes_no`: something that is not one of the listed words.

A form's yes and no are radio buttons (their choices are the form's), not this parser.
"""

from __future__ import annotations

import unicodedata

from portal.core.explain import N_
from portal.typed_input import TypedInputError

#: The words read as yes and as no (compared in lower case, accents removed).
YES = frozenset({"si", "yes", "true", "verdadero"})
NO = frozenset({"no", "false", "falso"})

MESSAGES = {
    "required": N_("Write yes or no."),
    "not_yes_no": N_("Write yes or no (sí or no); a mark such as X or a letter is not an "
                     "answer."),
}


class YesNoInputError(TypedInputError):
    """An answer refused: `code` (a key of `MESSAGES`)."""

    MESSAGES = MESSAGES


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def parse(text: str | None, *, default: bool | None = None) -> bool:
    """True for yes, False for no; `default` when nothing is written (if given), else
    `YesNoInputError("required")`; `YesNoInputError("not_yes_no")` for anything else."""
    word = _plain(text or "")
    if not word:
        if default is None:
            raise YesNoInputError("required")
        return default
    if word in YES:
        return True
    if word in NO:
        return False
    raise YesNoInputError("not_yes_no")
