"""Server-side pages of a list (`?pagina=`), as `templates/macros/pager.html` links them:
a page before the first or past the last is a 404, never an empty page."""

from __future__ import annotations

from flask import abort, request


def page_number() -> int:
    """The page asked for (`pagina`, 1 when absent or not a number); 404 below 1."""
    page = request.args.get("pagina", 1, type=int) or 1
    if page < 1:
        abort(404)
    return page


def page_asked() -> int:
    """The page asked for (`pagina`, 1 when absent); 404 when it is not a whole number from
    1 to a million (the lists whose links are never hand-made: a lender's batches, files
    and bills)."""
    try:
        page = int(request.args.get("pagina", "1"))
    except ValueError:
        abort(404)
    if not 1 <= page <= 10**6:
        abort(404)
    return page


def page_count(total: int, page: int, per_page: int) -> int:
    """How many pages `total` rows make (at least one); 404 if `page` is past the last."""
    pages = max(1, -(-total // per_page))
    if page > pages:
        abort(404)
    return pages
