"""Password hashes (standard library only): scrypt, stored as `scrypt:N:r:p$salt$hex`.

The format is werkzeug's, so hashes written before stay valid (pbkdf2 ones too). The
services hash and check passwords here without importing the web stack.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string

SALT_CHARS = string.ascii_letters + string.digits
SCRYPT = (2**15, 8, 1)  # n, r, p
PBKDF2_ITERATIONS = 1_000_000


def _derive(method: str, salt: str, password: str) -> tuple[str, str]:
    """(hex digest, method with its parameters) of `password` under `method`."""
    name, *args = method.split(":")
    if name == "scrypt":
        n, r, p = map(int, args) if args else SCRYPT
        digest = hashlib.scrypt(password.encode(), salt=salt.encode(), n=n, r=r, p=p,
                                maxmem=132 * n * r * p)
        return digest.hex(), f"scrypt:{n}:{r}:{p}"
    if name == "pbkdf2":
        hash_name = args[0] if args else "sha256"
        iterations = int(args[1]) if len(args) > 1 else PBKDF2_ITERATIONS
        digest = hashlib.pbkdf2_hmac(hash_name, password.encode(), salt.encode(), iterations)
        return digest.hex(), f"pbkdf2:{hash_name}:{iterations}"
    raise ValueError(f"unknown password hash method {name!r}")


def hash_password(password: str) -> str:
    """A new scrypt hash of `password` with a random 16-character salt."""
    salt = "".join(secrets.choice(SALT_CHARS) for _ in range(16))
    digest, method = _derive("scrypt", salt, password)
    return f"{method}${salt}${digest}"


def check_password(stored: str, password: str) -> bool:
    """Whether `password` matches the `stored` hash (constant-time comparison)."""
    try:
        method, salt, digest = stored.split("$", 2)
        computed, _ = _derive(method, salt, password)
    except ValueError:
        return False
    return hmac.compare_digest(computed, digest)
