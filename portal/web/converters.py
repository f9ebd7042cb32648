"""URL converters: `<id:name>` is a database id (1 to 2**31 - 1, the INTEGER of PostgreSQL);
anything else does not match the route, so it is a 404 before any query runs."""

from __future__ import annotations

from werkzeug.routing import IntegerConverter

MAX_ID = 2**31 - 1


class IdConverter(IntegerConverter):
    def __init__(self, map, *args, **kwargs) -> None:  # noqa: A002, ANN001, ANN002, ANN003
        super().__init__(map, min=1, max=MAX_ID)
