"""Which passwords a person may choose (OWASP ASVS 2.1), with feedback in their words.

A password is refused when it is shorter than `MIN_LENGTH`; when it is one of the common or
leaked passwords that `zxcvbn` ships (30,000 of them, from leaked password dumps, offline)
or one of the common Spanish and Puerto Rico ones of `SPANISH` (checked after `normalise`:
lower case, accents folded, digits and symbols stripped at the ends, so "Boricua2026!" is
"boricua"); when it holds the person's email or name; or when zxcvbn, told the person's
email, name and the Spanish list, scores it below `MIN_SCORE` (easy to guess).

`problems(password, email, name)` gives the reasons as catalog messages (English msgids,
marked with `N_`; the caller translates them); `require(...)` raises `InvalidInput`. The
checker applies when a person chooses a password; seeded and test passwords are hashed
without it.
"""

from __future__ import annotations

import re
import unicodedata

from zxcvbn import zxcvbn
from zxcvbn.frequency_lists import FREQUENCY_LISTS

from portal.accounts.errors import InvalidInput
from portal.core.explain import N_

MIN_LENGTH = 12
MAX_LENGTH = 128
MIN_SCORE = 3
#: zxcvbn's running time grows with the length; the tail adds nothing a guesser would try.
_SCORED_LENGTH = 64

#: Common Spanish and Puerto Rico passwords, reviewed; each is compared after `normalise`.
SPANISH = frozenset("""
contraseña contrasena micontraseña micontrasena clave miclave claves clavesecreta secreto
misecreto password mipassword usuario administrador admin acceso entrar
puertorico puerto borinquen borinquén boricua boricuas borincano borincana borikén boriken
isladelencanto islaencanto isla coqui coquí elyunque yunque sanjuan viejosanjuan ponce
mayaguez mayagüez bayamon bayamón carolina caguas arecibo guaynabo humacao fajardo
cangrejeros mofongo coquito pitorro pasteles lechon lechón salsa reggaeton perreo
teamo tequiero teamomucho amor amormio amormío miamor mivida micorazon corazon corazón
cariño carino princesa princeso mariposa estrella lucero sol luna cielo
dios diosesamor diosteama jesus jesús jesucristo cristo angel ángel angelito virgen
bendicion bendición familia mifamilia mama mamá mami papa papá papi abuela abuelo
mihija mihijo hijos nene nena bebe bebé mibebe chiquita chiquito gordo gorda
hola holahola holamundo bienvenido bienvenida bienvenidos buenosdias
perro perrito gato gatito futbol fútbol beisbol béisbol baloncesto campeon campeón
loco loca locura feliz felicidad libertad esperanza victoria
qwerty asdfgh asdfghjkl zxcvbn abc abcd abcdef
""".split())

TOO_SHORT = N_("Use at least %(num)d characters.")
TOO_LONG = N_("Use at most %(num)d characters.")
COMMON = N_("That password is on the lists of common or leaked passwords: choose another.")
PERSONAL = N_("Do not use your name or your email in the password.")
WEAK = N_("That password is easy to guess: use a longer phrase of several uncommon words.")

#: zxcvbn's warnings, in the catalogs with their Spanish (the package's texts are English).
WARNINGS = {
    "Straight rows of keys are easy to guess.":
        N_("Straight rows of keys are easy to guess."),
    "Short keyboard patterns are easy to guess.":
        N_("Short keyboard patterns are easy to guess."),
    'Repeats like "aaa" are easy to guess.': N_('Repeats like "aaa" are easy to guess.'),
    'Repeats like "abcabcabc" are only slightly harder to guess than "abc".':
        N_('Repeats like "abcabcabc" are only slightly harder to guess than "abc".'),
    'Sequences like "abc" or "6543" are easy to guess.':
        N_('Sequences like "abc" or "6543" are easy to guess.'),
    "Recent years are easy to guess.": N_("Recent years are easy to guess."),
    "Dates are often easy to guess.": N_("Dates are often easy to guess."),
    "This is a top-10 common password.": COMMON,
    "This is a top-100 common password.": COMMON,
    "This is a very common password.": COMMON,
    "This is similar to a commonly used password.":
        N_("This is similar to a commonly used password."),
    "A word by itself is easy to guess.": N_("A word by itself is easy to guess."),
    "Names and surnames by themselves are easy to guess.":
        N_("Names and surnames by themselves are easy to guess."),
    "Common names and surnames are easy to guess.":
        N_("Common names and surnames are easy to guess."),
}

_LEAKED = frozenset(FREQUENCY_LISTS["passwords"])
_ENDS = re.compile(r"^[\W\d_]+|[\W\d_]+$")
_INSIDE = re.compile(r"[\s\W_]+")


def fold(text: str) -> str:
    """Lower case without accents ("Contraseña" -> "contrasena")."""
    decomposed = unicodedata.normalize("NFKD", (text or "").lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def normalise(password: str) -> str:
    """How a password is compared with the lists: folded, digits and symbols stripped at
    the ends, spaces and symbols inside removed ("Puerto Rico 2026!" -> "puertorico")."""
    return _INSIDE.sub("", _ENDS.sub("", fold(password)))


_SPANISH = frozenset(normalise(w) for w in SPANISH)


def _personal_words(email: str, name: str) -> list[str]:
    """The parts of the email and the name a guesser would try (at least 3 letters)."""
    email = fold(email)
    local, _, domain = email.partition("@")
    words = {local, email, *re.split(r"[\W\d_]+", local), *fold(name).split(),
             normalise(name)}
    if domain:
        words.add(domain.split(".")[0])
    return sorted(w for w in words if len(w) >= 3)


def problems(password: str, email: str = "", name: str = "") -> list[str]:
    """Why the password may not be chosen (catalog messages, most important first); empty
    when it may. `TOO_SHORT` and `TOO_LONG` take `num`."""
    password = password or ""
    if len(password) < MIN_LENGTH:
        return [TOO_SHORT]
    if len(password) > MAX_LENGTH:
        return [TOO_LONG]
    plain = normalise(password)
    folded = fold(password)
    if (plain in _SPANISH or plain in _LEAKED or folded in _LEAKED
            or _INSIDE.sub("", folded) in _LEAKED or len(set(folded)) < 4):
        return [COMMON]
    compact = _INSIDE.sub("", folded)
    personal = _personal_words(email, name)
    if any(len(w) >= 4 and w in compact for w in personal):
        return [PERSONAL]
    result = zxcvbn(password[:_SCORED_LENGTH], user_inputs=[*personal, *sorted(_SPANISH)])
    if result["score"] >= MIN_SCORE:
        return []
    warning = WARNINGS.get(result["feedback"].get("warning") or "")
    return [WEAK] + ([warning] if warning and warning != WEAK else [])


def require(password: str, email: str = "", name: str = "") -> None:
    """Raise `InvalidInput("weak_password", field="password", problems=[...])` when the
    password may not be chosen."""
    found = problems(password, email, name)
    if found:
        raise InvalidInput("weak_password", field="password", problems=found,
                           num=MIN_LENGTH if found[0] == TOO_SHORT else MAX_LENGTH)
