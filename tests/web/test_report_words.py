"""A staff report's table keeps its words whole on a desktop (portal/static/portal.css,
`.portal-report`): from 1,024 px up a cell wraps between words only and a one-word value (a
catastro, filing or loan number, a date) stays on one line; narrower, the stacked table's
rule that breaks anywhere keeps it inside a phone (tests/e2e/test_layout.py measures both in
the browser)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.pages import login

CSS = (Path(__file__).resolve().parents[2] / "portal" / "static" / "portal.css").read_text()


def test_the_desktop_rule_is_scoped_to_reports_and_wide_screens():
    block = re.search(r"@media \(min-width: 64em\) \{\s*\.portal-report td \{[^}]*\}"
                      r"\s*\.portal-report \.portal-report__word \{([^}]*)\}", CSS)
    assert block and "white-space: nowrap" in block.group(1)
    assert ".usa-table--stacked td { overflow-wrap: anywhere; min-width: 0; }" in CSS


def test_a_reports_one_word_cells_are_marked(demo_app):
    staff = login(demo_app, "staff")
    html = staff.get("/personal/informes/demandas").get_data(as_text=True)
    assert ('class="usa-table usa-table--borderless usa-table--stacked portal-report'
            ' portal-report--wide"') in html  # ten columns: stacked below a desktop's width
    catastro = re.search(r'<td data-label="Número de catastro" class="([^"]*)">\d{3}-', html)
    assert catastro and catastro.group(1) == "portal-report__word"
    municipality = re.search(r'<td data-label="Municipio"( class="[^"]*")?>San Juan<', html)
    assert municipality and municipality.group(1) is None  # two words: they may wrap
