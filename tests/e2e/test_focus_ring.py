"""The focus indicator stands out wherever it is drawn (WCAG 1.4.11, 3:1), measured from
screenshots as a keyboard user meets it: on representative pages of each kind of user (the
public home and the sign-in page; the owner's dashboard, parcel page past due and pay page;
a staff page of tables; a lender's loans with their sorted column) in both languages, Tab
goes through every element the keyboard reaches, and each one's ring is compared with the
pixels it covers unfocused and with the background right beside it
(tests/support/focus_ring.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.support.browser import REASON, sign_in
from tests.support.focus_ring import tab_walk

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]


def _paths(app, role: str) -> list[str]:  # noqa: ANN001
    from tests.support.demo import parcel_ids
    if role == "anonymous":
        return ["/", "/cuenta/entrar"]
    if role == "owner":
        overdue = parcel_ids(app)["owner"][1]  # the parcel past due: its coloured answer box
        return ["/mis-propiedades", f"/propiedad/{overdue}", "/pagar"]
    if role == "staff":
        return ["/personal/tasacion", "/personal/buscar?q=Calle"]
    return ["/prestamista/prestamos"]


def _keep(shot, name: str) -> None:  # noqa: ANN001
    """The focused element's shot into $FOCUS_RING_SHOTS when set (for review by hand)."""
    folder = os.environ.get("FOCUS_RING_SHOTS")
    if folder and shot is not None:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shot.save(Path(folder) / (re.sub(r"[^\w.-]+", "_", name) + ".png"))


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("role", ["anonymous", "owner", "staff", "lender"])
def test_every_focus_ring_is_3_to_1_against_what_it_is_drawn_on(live, page, role, lang):
    app, url = live
    if role != "anonymous":
        sign_in(page, url, role, lang)
    failures: list[str] = []
    stops: dict[str, int] = {}
    for path in _paths(app, role):
        sep = "&" if "?" in path else "?"
        page.goto(f"{url}{path}{sep}lang={lang}")
        stops[path] = 0
        for name, ring, shot in tab_walk(page):
            stops[path] += 1
            if ring is None or ring.ratio < 3.0:
                failures.append(f"{path} {name}: {ring or 'no visible change when focused'}")
                _keep(shot, f"{role}-{lang}-{len(failures)}-{path}")
    assert min(stops.values()) >= 5, stops  # the walk went through each page
    assert failures == [], "\n".join(failures)
