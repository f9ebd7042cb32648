"""URL converters: `<id:name>` is a database id (1 to `access.MAX_ID`, the INTEGER of
PostgreSQL) written in ASCII digits; anything else does not match the route, so it is a 404
before any query runs."""

from __future__ import annotations

from werkzeug.routing import IntegerConverter

from portal.accounts.access import MAX_ID


class IdConverter(IntegerConverter):
    regex = r"[0-9]+"  # not Python's \d, which also matches "٣" (an Arabic-Indic 3)

    def __init__(self, map, *args, **kwargs) -> None:  # noqa: A002, ANN001, ANN002, ANN003
        super().__init__(map, min=1, max=MAX_ID)
