"""The API's description, public (no token): the OpenAPI 3.1 document, in the language of
Accept-Language, and its readable page, rendered on the server from the same document in
the portal's language (nothing loaded from elsewhere).

    GET /api/v1/openapi.json
    GET /api/v1/docs
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Response, render_template

from portal import i18n
from portal.web.lenders_api import bp
from portal.web.lenders_api.answers import _language
from portal.web.lenders_api.openapi import document


@bp.get("/openapi.json")
def openapi():  # noqa: ANN201
    lang = _language()  # in the document's own order (jsonify would sort the keys)
    resp = Response(json.dumps(document(lang), ensure_ascii=False), mimetype="application/json")
    resp.headers["Content-Language"] = lang
    resp.headers["Cache-Control"] = "public, max-age=300"
    return resp


@dataclass(frozen=True)
class Field:
    name: str
    where: str  # query, path, header, body
    required: bool
    kind: str  # the schema in a few words
    description: str


@dataclass(frozen=True)
class Answer:
    status: str
    description: str
    media: str
    schema: str  # a component's name, or ""
    headers: tuple[str, ...]


@dataclass(frozen=True)
class Op:
    anchor: str
    method: str
    path: str
    summary: str
    description: str
    public: bool
    fields: tuple[Field, ...]
    body: str  # the body's component
    answers: tuple[Answer, ...]


def _ref(schema: dict[str, Any]) -> str:
    return schema.get("$ref", "").rsplit("/", 1)[-1]


def kind(schema: dict[str, Any]) -> str:
    """A schema in a few words: 'string, at most 200', 'one of: a, b', 'Loan | null'."""
    if "$ref" in schema:
        return _ref(schema)
    if "anyOf" in schema:
        return " | ".join(kind(s) for s in schema["anyOf"])
    if "enum" in schema:
        return " | ".join(f"\"{v}\"" for v in schema["enum"])
    if "const" in schema:
        return f'"{schema["const"]}"'
    t = schema.get("type", "")
    if t == "array":
        out = f"[{kind(schema.get('items', {}))}]"
        if "maxItems" in schema:
            out += f" {schema.get('minItems', 0)}–{schema['maxItems']}"
        return out
    parts = [t + (f" ({schema['format']})" if "format" in schema else "")]
    if "minimum" in schema or "maximum" in schema or "exclusiveMaximum" in schema:
        top = schema.get("maximum")
        if top is None and "exclusiveMaximum" in schema:  # an integer's largest
            top = schema["exclusiveMaximum"] - 1
        parts.append(f"{schema.get('minimum', '')}…{'' if top is None else top}")
    if "maxLength" in schema:
        parts.append(f"≤ {schema['maxLength']}")
    if "pattern" in schema:
        parts.append(schema["pattern"])
    if "default" in schema and schema["default"] not in ("", None):
        parts.append(f"= {schema['default']}")
    return " ".join(p for p in parts if p)


def view(doc: dict[str, Any]) -> tuple[list[Op], list[tuple[str, list[Field]]]]:
    """The document as the page shows it: the operations, then the schemas' fields."""
    ops = []
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            fields = tuple(Field(p["name"], p["in"], p.get("required", False),
                                 kind(p["schema"]), p.get("description", ""))
                           for p in op.get("parameters", ()))
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            answers = []
            for status, r in op["responses"].items():
                [(media, content)] = list(r.get("content", {}).items())[:1] or [("", {})]
                answers.append(Answer(status, r["description"], media,
                                      _ref(content.get("schema", {})),
                                      tuple(r.get("headers", {}))))
            ops.append(Op(op["operationId"], method.upper(), "/api/v1" + path, op["summary"],
                          op.get("description", ""), op.get("security") == [], fields,
                          _ref(body.get("schema", {})), tuple(answers)))
    schemas = []
    for name, s in doc["components"]["schemas"].items():
        required = set(s.get("required", ()))
        schemas.append((name, [Field(f, "body", f in required, kind(p),
                                     p.get("description", ""))
                               for f, p in s.get("properties", {}).items()]))
    return ops, schemas


@bp.get("/docs")
def reference():  # noqa: ANN201
    doc = document(i18n.current_language())
    ops, schemas = view(doc)
    return render_template("lenders_api/reference.html", info=doc["info"], ops=ops,
                           schemas=schemas)
