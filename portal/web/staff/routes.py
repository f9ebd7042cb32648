"""Staff lookup of any parcel (which opens the parcel page) and any person."""

from __future__ import annotations

from functools import wraps

from flask import Blueprint, abort, render_template, request
from flask_login import current_user, login_required

from portal.web.account import views
from portal.web.staff.forms import LookupForm

bp = Blueprint("staff", __name__, url_prefix="/personal")


def staff_required(view):  # noqa: ANN001, ANN201
    """404 (not 403) for anyone who is not staff: the page's existence is not disclosed."""
    @wraps(view)
    @login_required
    def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        if not current_user.is_staff:
            abort(404)
        return view(*args, **kwargs)
    return wrapper


@bp.get("/buscar")
@staff_required
def lookup():  # noqa: ANN201
    form = LookupForm(request.args)
    parcels = people = None
    if "q" in request.args and form.validate():
        parcels, people = views.staff_search(current_user, form.q.data.strip())
    return render_template("staff/lookup.html", form=form, parcels=parcels, people=people)


@bp.get("/persona/<id:user_id>")
@staff_required
def person(user_id: int):  # noqa: ANN201
    p = views.staff_person(current_user, user_id)
    if p is None:
        abort(404)
    return render_template("staff/person.html", p=p)
