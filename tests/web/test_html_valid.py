"""The Nu HTML Checker (vnu-jar) finds no error on any page (all pages in one JVM call)."""

from __future__ import annotations

from tests.support.html import html_errors, needs_vnu
from tests.support.site import slug, walk


@needs_vnu
def test_every_page_is_valid_html(demo_app, tmp_path):
    pages = [(slug(label, path), html) for label, path, html in walk(demo_app)]
    assert len(pages) > 50
    errors = html_errors(tmp_path, pages)
    assert errors == [], "\n".join(errors[:40])
