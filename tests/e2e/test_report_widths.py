"""The staff reports in a real browser at a desktop's, a tablet's and a phone's width
(1,280, 768 and 375 px), in Spanish and in English: neither the page nor the report's table
scrolls sideways (a report of many columns, the demands, the register and the exemption
queue, stacks each row's cells under their column's names below 1,024 px, three a line on
a tablet), every cell's value is still shown with its column's name, and each width is
clean under axe-core."""

from __future__ import annotations

import pytest

from tests.e2e.test_backoffice_journey import _prepare
from tests.support.browser import REASON, axe_violations, sign_in

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

REPORTS = ("demandas", "registro", "exoneraciones", "tribunal", "pagos", "morosidad")
_MEASURE = """() => {
  const wrap = document.querySelector('.portal-table-wrap');
  const cells = [...document.querySelectorAll('table.portal-report tbody tr:first-child > *')];
  return {page: document.documentElement.scrollWidth,
          table: wrap ? wrap.scrollWidth - wrap.clientWidth : null,
          rows: document.querySelectorAll('table.portal-report tbody tr').length,
          hidden: cells.filter(c => c.getBoundingClientRect().width === 0).length,
          labelled: cells.filter(c => {
            const before = getComputedStyle(c, '::before').content;
            return getComputedStyle(c.closest('table').tHead).display !== 'none'
                || (before && before.includes(c.dataset.label));
          }).length,
          count: cells.length};
}"""


@pytest.mark.parametrize("lang", ["es", "en"])
def test_reports_are_read_without_sideways_scroll(live, page, lang):
    app, url = live
    _prepare(app)  # two filed certifications: the exemption queue has rows
    sign_in(page, url, "staff", lang)
    for name in REPORTS:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{url}/personal/informes/{name}")
        for width in (1280, 768, 375):
            page.set_viewport_size({"width": width, "height": 900})
            m = page.evaluate(_MEASURE)
            assert m["rows"] > 0, (name, m)
            assert m["page"] <= width, (name, width, m)
            assert m["table"] == 0, f"{name} scrolls sideways in its table at {width} px: {m}"
            assert m["hidden"] == 0 and m["labelled"] == m["count"], (name, width, m)
            assert axe_violations(page) == [], (name, width)
