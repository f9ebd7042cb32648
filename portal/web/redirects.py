"""Where a form may send the browser next (`?next=`, the language switch's `next`): only a
path on this site."""

from __future__ import annotations

from urllib.parse import urlsplit


def safe_next(target: str | None, default: str) -> str:
    """Only a path on this site (no scheme, no host, no '//' or backslash tricks, no control
    character such as a newline, nothing `urlsplit` cannot read): anything else is `default`."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target \
            or any(c < " " or c == "\x7f" for c in target):
        return default
    try:
        parts = urlsplit(target)
    except ValueError:  # e.g. "/[" read as an IPv6 host
        return default
    return default if parts.scheme or parts.netloc else target
