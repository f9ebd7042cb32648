"""A PDF as the answer to a request: shown in the browser (inline) under a file name, never
cached (each is someone's account)."""

from __future__ import annotations

from flask import Response, make_response


def pdf_response(data: bytes, filename: str) -> Response:
    resp = make_response(data)
    resp.headers["Content-Type"] = "application/pdf"
    resp.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    resp.headers["Cache-Control"] = "no-store"
    return resp
