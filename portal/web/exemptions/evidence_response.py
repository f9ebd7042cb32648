"""An uploaded document (a certification's or a change report's evidence) as served: inline,
with the type it was read as, sandboxed and never cached."""

from __future__ import annotations

from typing import Any

from flask import Response, make_response

EXTENSIONS = {"application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png"}


def evidence_response(row: Any, data: bytes) -> Response:
    """`row`: the evidence's record (its `id` and `content_type`); `data`: its bytes."""
    resp = make_response(data)
    resp.headers["Content-Type"] = row.content_type
    resp.headers["Content-Disposition"] = (
        f'inline; filename="documento-{row.id}.{EXTENSIONS[row.content_type]}"')
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
    resp.headers["Cache-Control"] = "private, no-store"
    return resp
