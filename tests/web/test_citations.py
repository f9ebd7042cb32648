"""A parameter's reference carries its languages (WCAG 3.1.2): the record's English words,
and each quotation in the language of the statute it quotes (portal/web/citations.py)."""

from portal.web.citations import cited


def test_an_english_statute_is_quoted_in_english():
    html = str(cited("23 LPRA § 6432(d): 'after the tenth (10th) day of each month'"))
    assert html == ('<span lang="en">23 LPRA § 6432(d): \'<span lang="en">after the tenth '
                    '(10th) day of each month</span>\'</span>')


def test_the_exemption_law_and_the_crim_are_quoted_in_spanish():
    html = str(cited("Exoneración residencial (a): 'hasta quince mil (15,000) dólares'"))
    assert '<span lang="es">hasta quince mil (15,000) dólares</span>' in html
    html = str(cited("CRIM form and date (demo; 'en la forma y fecha que el CRIM disponga')"))
    assert html.startswith('<span lang="en">CRIM form and date')
    assert '<span lang="es">en la forma y fecha que el CRIM disponga</span>' in html


def test_a_reference_is_escaped_and_an_empty_one_is_a_dash():
    assert "&lt;b&gt;" in str(cited("<b>x</b>"))
    assert str(cited(None)) == "—"
