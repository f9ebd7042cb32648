# ruff: noqa: E501 - `TEMPLATES` holds the template's lines as they were
"""The parcel page's parts written in Python (`portal.web.fragments`: `property_tax_sections`,
`budget`, `documents`, `alerts`) write what the page's template wrote before them, byte for
byte, in both languages, through the branches the demo District does not reach (its pages were
compared whole: docs/WEB.md): a revoked exemption, a saving, an approval that continues, the
servicers' escrow answers, a lender without the CRIM's facts, a budget with the Board's fixed
amount, an amended notice, a lease the owner pays. `TEMPLATES`: the template's own words
before (templates/accounts/parcel.html, 2026-12-07)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from types import SimpleNamespace as NS

import pytest

from portal.i18n import ShownStep, formats, use_language
from portal.web import fragments, locale

TEMPLATES = {
    'tax': (
        '{% set ex = b.exemption %}\n'
        '{% if ex %}\n'
        '<section aria-labelledby="exemption-heading">\n'
        '<h2 id="exemption-heading">{{ _("Residential exemption") }}</h2>\n'
        '{% if ex.status %}\n'
        '<p>{{ _("Fiscal year %(year)s:", year=ex.fy_label) }} {{ exemption_badge(ex.status) }}{% if ex.filing_number %} · {{ ex.filing_number }}{% endif %}{% if ex.continued_from %} ({{ _("approved for %(year)s; it continues until a change", year=ex.continued_from) }}){% endif %}</p>\n'
        '{% endif %}\n'
        '{% if ex.status == "revoked" and ex.gross is defined and ex.gross is not none %}<p>{{ _("Without the exemption, the property tax for the year is %(gross)s.", gross=ex.gross|money) }}</p>{% endif %}\n'
        '{% if ex.saving is not none %}<p>{{ _("With the exemption, the property tax for the year is %(net)s instead of %(gross)s.", net=ex.net|money, gross=ex.gross|money) }}</p>{% endif %}\n'
        '{% if ex.note %}<p>{{ ex.note }}</p>{% endif %}\n'
        '{% if ex.next_step %}<p><strong>{{ _("Next step:") }}</strong> {{ ex.next_step }}</p>{% endif %}\n'
        '{% if ex.deadline %}<p><strong>{{ _("Last day:") }}</strong> {{ deadline(ex.deadline, ex.today) }}</p>{% endif %}\n'
        '{% if ex.link %}<p><a href="{{ ex.link }}">{{ ex.link_text }}</a></p>{% endif %}\n'
        '</section>\n'
        '{% endif %}\n'
        '{% if v.relation in ("owner", "delegate") %}{#- The owner\'s view of what the lender pays the CRIM (R-B10 case (i)), for the owner\n'
        '    and a delegate: `b.servicers` and `b.lenders_pay`, read by\n'
        "    the page's view model (portal/web/accounts/views.py, `parcel_page`). #}\n"
        '{% set servicers = b.servicers %}\n'
        '{% if servicers %}\n'
        '<section class="margin-top-4" aria-labelledby="servicers-title">\n'
        '  <h2 id="servicers-title">{{ _("Your mortgage loan") }}</h2>\n'
        '  <ul class="usa-list" id="servicers">\n'
        '  {% for name, escrow, since in servicers %}\n'
        '    <li>{% if escrow %}{{ _("%(lender)s told the portal it services your mortgage loan (since %(date)s) and pays the property charges from the escrow account.", lender=name, date=since|date_long) }}{% elif escrow is false %}{{ _("%(lender)s told the portal it services your mortgage loan (since %(date)s); you pay the property charges yourself.", lender=name, date=since|date_long) }}{% else %}{{ _("%(lender)s told the portal it services your mortgage loan (since %(date)s).", lender=name, date=since|date_long) }}{% endif %}</li>\n'
        '  {% endfor %}\n'
        '  </ul>\n'
        '</section>\n'
        '{% endif %}\n'
        '{% set lender_view = b.lenders_pay %}\n'
        '{% if lender_view %}\n'
        '<section class="margin-top-4" aria-labelledby="lender-pays-title">\n'
        '  <h2 id="lender-pays-title">{{ _("What your lender pays the CRIM") }}</h2>\n'
        '  {% for name, r in lender_view %}\n'
        '  {% if r %}\n'
        '  <p>{{ _("%(lender)s pays your property tax from the escrow account: for each CRIM bill, the bill less the prepayment discount (R-B10).", lender=name) }}</p>\n'
        '  <ul class="usa-list">\n'
        '    {% for b in r.bills %}<li>{{ _("Bill of %(date)s: %(amount)s", date=b.issued_on|date_long, amount=b.with_exemption.amount|money) }}</li>{% endfor %}\n'
        '  </ul>\n'
        '  {{ why(render_trace(r.trace), about=_("What your lender pays the CRIM")) }}\n'
        '  {% elif b.crim_missing_year %}\n'
        '  <p>{{ _("%(lender)s holds a loan on this parcel; the CRIM has not yet adopted its values for fiscal year %(year)s, so the portal cannot say what it pays.", lender=name, year=b.crim_missing_year) }}</p>\n'
        '  {% else %}\n'
        '  <p>{{ _("%(lender)s holds a loan on this parcel; the CRIM\'s facts for this year are not on file, so the portal cannot say what it pays.", lender=name) }}</p>\n'
        '  {% endif %}\n'
        '  {% endfor %}\n'
        '</section>\n'
        '{% endif %}{% endif %}{# J7, R-B10 #}\n'
        '{% if v.relation in ("owner", "staff") %}\n'
        '<h2>{{ _("Changes in the residential exemption") }}</h2>\n'
        '<p>{{ _("Moved, rented out, sold, a spouse died or the use changed? Report it before January 1 following the change.") }} <a href="{{ url_for(\'exemptions.changes_new\', parcel_id=v.parcel.id) }}">{{ _("Report a change") }}</a></p>\n'
        '{% endif %}'
    ),
    'budget': (
        '<details class="portal-details" id="budget">\n'
        '<summary><h2 class="portal-details__title" id="budget-title">{{ _("The budget behind this assessment") }}</h2> <span class="portal-details__count">{{ _("This year\'s assessment:") }} <span class="portal-money">{{ v.annual_text }}</span></span></summary>\n'
        '{{ why(v.annual_why, f, _("This year\'s assessment") ~ ": " ~ v.annual_text) }}\n'
        '{% if v.budget %}\n'
        '<p>{{ _("Budget version %(version)s, adopted on %(date)s.", version=v.budget.version, date=v.budget.adopted_text) }}{% if v.budget.reference %} {# the Board\'s own words: its resolutions are in Spanish #}<span{% if current_language() != "es" %} lang="es"{% endif %}>{{ v.budget.reference }}</span>{% endif %}</p>\n'
        '<div class="portal-table-wrap" role="region" aria-labelledby="budget-title" tabindex="0">\n'
        '<table class="usa-table usa-table--borderless usa-table--compact usa-table--stacked">\n'
        '  <caption class="usa-sr-only">{{ _("Budget lines") }}</caption>\n'
        '  {% set l_line, l_cost, l_fin = _("Line"), _("Cost"), _("Financed by assessments") %}\n'
        '  <thead><tr><th scope="col">{{ l_line }}</th><th scope="col">{{ l_cost }}</th><th scope="col">{{ l_fin }}</th></tr></thead>\n'
        '  <tbody>\n'
        '  {% for line in v.budget.lines %}\n'
        '  <tr><td data-label="{{ l_line }}">{{ line.text }}</td><td data-label="{{ l_cost }}" class="portal-money">{{ line.amount_text }}</td><td data-label="{{ l_fin }}" class="portal-money">{{ line.financed_text }}</td></tr>\n'
        '  {% endfor %}\n'
        '  </tbody>\n'
        '  <tfoot><tr><th scope="row">{{ _("Total to assess") }}</th><td></td><td data-label="{{ l_fin }}" class="portal-money"><strong>{{ v.budget.total_text }}</strong></td></tr></tfoot>\n'
        '</table>\n'
        '</div>\n'
        '{% if v.budget.fixed_text %}<p>{{ _("The Board fixed this parcel\'s assessment at %(amount)s; the rest of the total is shared by benefit units among the other parcels.", amount=v.budget.fixed_text) }}</p>\n'
        '{% else %}<p>{{ _("This parcel has %(units)s benefit units of %(total)s in all: %(share)s of the amount shared by units.", units=v.budget.units_text, total=v.budget.total_units_text, share=v.budget.share_text) }}</p>{% endif %}\n'
        '{% endif %}\n'
        '</details>'
    ),
    'documents': (
        '<h2>{{ _("Documents") }}</h2>\n'
        '<p><a class="usa-button usa-button--outline" href="{{ pdf_url }}">{{ _("Download the statement of account (PDF)") }}</a></p>\n'
        "{# the year's days in one's calendar, and the reminders before them #}\n"
        '<p><a class="usa-button usa-button--outline" href="{{ url_for(\'reminders.parcel_ics\', parcel_id=v.parcel.id) }}">{{ _("Add this parcel\'s payment days to your calendar (.ics)") }}</a>{% if v.relation in ("owner", "lessee") %} <a href="{{ url_for(\'reminders.settings\') }}">{{ _("Email reminders") }}</a>{% endif %}</p>\n'
        '{% if v.relation in ("owner", "lessee", "staff") and v.annual is not none %}<p><a class="usa-button usa-button--outline" href="{{ url_for(\'roll.assessment_notice_pdf\', parcel_id=v.parcel.id) }}">{{ _("Download the assessment notice (PDF)") }}</a></p>{% endif %}\n'
        '{% if b.issued %}\n'
        '<h3 id="notices-heading">{{ _("Notices issued for this parcel") }}</h3>\n'
        '<ul class="usa-list" aria-labelledby="notices-heading" id="issued-notices">\n'
        '{% for n in b.issued %}\n'
        '  <li data-notice="{{ n.notice_id }}">{% if n.kind == "demand" %}<a href="{{ url_for(\'collections.letter_pdf\', notice_id=n.notice_id) }}">{{ _("Demand by certified mail, fiscal year %(year)s (PDF)", year=n.fiscal_year) }}</a>{% if n.on %} · {{ _("mailed on %(date)s", date=n.on|date_long) }}{% endif %}{% if n.amount is not none %} · {{ n.amount|money }}{% endif %}{% else %}<a href="{{ url_for(\'roll.issued_notice_pdf\', parcel_id=v.parcel.id, notice_id=n.notice_id) }}">{% if n.kind == "amended" %}{{ _("Amended assessment notice, fiscal year %(year)s (PDF)", year=n.fiscal_year) }}{% else %}{{ _("Assessment notice, fiscal year %(year)s (PDF)", year=n.fiscal_year) }}{% endif %}</a>{% if n.on %} · {{ _("dated %(date)s", date=n.on|date_long) }}{% endif %}{% endif %}</li>\n'
        '{% endfor %}\n'
        '</ul>\n'
        '{% endif %}\n'
        '{% if b.paperless is not none %}\n'
        '<p id="paperless-state">{% if b.paperless %}{{ _("You receive this parcel\'s notices by email only (paperless).") }}{% else %}{{ _("You receive this parcel\'s notices by mail, on paper, and by email.") }}{% endif %} <a href="{{ url_for(\'accounts.paperless_page\') }}">{{ _("Change how you receive notices") }}</a></p>\n'
        '{% endif %}\n'
        '\n'
        '{% if v.relation in ("owner", "lessee") %}\n'
        '<h2>{{ _("Who else can see this parcel") }}</h2>\n'
        '<p><a href="{{ url_for(\'accounts.access_page\', parcel_id=v.parcel.id) }}">{{ _("Give or remove read access to this parcel") }}</a></p>\n'
        '{% endif %}\n'
    ),
    'alerts': (
        '{% if v.deposit_order %}\n'
        '<div class="usa-alert usa-alert--warning usa-alert--slim" role="status"><div class="usa-alert__body"><p class="usa-alert__text">\n'
        '{{ _("A court ordered the lessee to deposit the rents of this parcel in court until the debt is paid (%(court)s, case %(case)s, %(date)s).", court=v.deposit_order.court, case=v.deposit_order.case_number, date=v.deposit_order.ordered_on|date_long) }}\n'
        '</p></div></div>\n'
        '{% endif %}\n'
        '{% if v.arrears_warning %}\n'
        '<div class="usa-alert usa-alert--info usa-alert--slim" role="status"><div class="usa-alert__body"><p class="usa-alert__text">{{ _("This account has amounts past due: any payment goes first to interest, late fees and costs, then to the oldest installment.") }}</p></div></div>\n'
        '{% endif %}\n'
        '\n'
        '{% if v.lease %}\n'
        '<p>{% if v.lease.contract %}{{ _("Lease contract %(number)s.", number=v.lease.contract) }} {% endif %}{% if v.lease.payer == "lessee" %}{{ _("Under the lease, the lessee pays the assessment (R-A16, 23 LPRA § 6432(c), (d)).") }}{% else %}{{ _("Under the lease, the owner pays the assessment (R-A16, 23 LPRA § 6432(c), (d)).") }}{% endif %}</p>\n'
        '{% endif %}'
    ),
}

DAY = date(2026, 11, 30)
STEPS = [ShownStep("R-B10", "23 LPRA § 6432", "Lender <pays>", "Bill less 4% & more")]


def _render(app, name: str, lang: str, **context):  # noqa: ANN001, ANN003, ANN202
    """What the template wrote before for `context`, in `lang`."""
    template = app.jinja_env.from_string(TEMPLATES[name])
    return template.render(**context, **locale._gettext_for(lang))


def _trace():  # noqa: ANN202
    from portal.core.explain import Trace
    t = Trace()
    t.add("R-B10", "The lender pays {amount} for the bill of {day}.", amount=Decimal("812.40"),
          day=DAY)
    return t


def _exemption(**changes) -> dict:  # noqa: ANN003
    ex = {"fy_label": "2026-2027", "today": DAY, "status": "approved",
          "filing_number": "EX-<12>", "continued_from": "2025-2026", "saving": None,
          "next_step": "Pay <now>", "deadline": date(2027, 1, 31), "link": "/x?a=1&b=2",
          "link_text": "See it", "note": "A note & more"}
    ex.update(changes)
    return ex


EXEMPTIONS = [
    _exemption(),
    _exemption(status="revoked", gross=Decimal("1200.50"), continued_from=None,
               filing_number=None),
    _exemption(status="revoked", continued_from=None),  # no gross in the dict
    _exemption(status="revoked", gross=None),
    _exemption(status="pending", saving=Decimal("300.00"), net=Decimal("900.50"),
               gross=Decimal("1200.50"), note=None, next_step=None, deadline=None, link=None),
    _exemption(status=None, next_step=None, deadline=None, link=None),
    None,
]
SERVICERS = [("Banco <Uno>", True, date(2025, 3, 1)), ("Banco Dos", False, date(2024, 1, 9)),
             ("Banco Tres", None, date(2023, 6, 30))]
LENDERS_PAY = [("Banco <Uno>", NS(bills=[NS(issued_on=date(2026, 7, 1), with_exemption=NS(
    amount=Decimal("406.20"))), NS(issued_on=date(2027, 1, 1), with_exemption=NS(
        amount=Decimal("406.20")))], trace=_trace())), ("Banco Dos", None)]


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("relation", ["owner", "delegate", "staff", "lender"])
@pytest.mark.parametrize("missing", [None, "2027-2028"])
def test_property_tax_sections_as_the_template_wrote_them(app, lang: str, relation: str,  # noqa: ANN001
                                                          missing: str | None):
    v = NS(relation=relation, parcel=NS(id=7))
    with app.test_request_context("/"), use_language(lang):
        for k, ex in enumerate(EXEMPTIONS):
            b = NS(exemption=ex, servicers=SERVICERS if k % 2 else [],
                   lenders_pay=LENDERS_PAY if k < 4 else [], crim_missing_year=missing)
            url_for = app.jinja_env.globals["url_for"]
            written = str(fragments.property_tax_sections(
                v, b, formats(lang), url_for, app.jinja_env.globals["exemption_badge"]))
            assert written == _render(app, "tax", lang, v=v, b=b), (k, ex)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("fixed", ["$500.00", None])
@pytest.mark.parametrize("reference", ["Resolución <2026-3> & otra", ""])
def test_budget_as_the_template_wrote_it(app, lang: str, fixed: str | None, reference: str):  # noqa: ANN001
    lines = [NS(text="Obra <1>", amount_text="$1,000.00", financed_text="$800.00"),
             NS(text="Gastos & costos", amount_text="$200.00", financed_text="$200.00")]
    for budget in (NS(version=3, adopted_text="March 3, 2026", reference=reference,
                      lines=lines, total_text="$1,000.00", fixed_text=fixed,
                      units_text="12.5", total_units_text="1,000", share_text="1.25%"), None):
        v = NS(annual_text="$1,234.00 <x>", annual_why=STEPS, budget=budget)
        with app.test_request_context("/"), use_language(lang):
            f = formats(lang)
            assert str(fragments.budget(v, f)) == _render(app, "budget", lang, v=v, f=f)


ISSUED = [NS(notice_id=1, kind="demand", fiscal_year="2026-2027", on=date(2026, 9, 2),
             amount=Decimal("1475.36")),
          NS(notice_id=2, kind="demand", fiscal_year="2025-2026", on=None, amount=None),
          NS(notice_id=3, kind="amended", fiscal_year="2026-2027", on=date(2026, 8, 1),
             amount=None),
          NS(notice_id=4, kind="assessment", fiscal_year="2026-2027", on=None, amount=None)]


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("relation", ["owner", "lessee", "lender", "staff", "delegate"])
def test_documents_as_the_template_wrote_them(app, lang: str, relation: str):  # noqa: ANN001
    with app.test_request_context("/"), use_language(lang):
        url_for = app.jinja_env.globals["url_for"]
        for annual, issued, paperless in ((Decimal("1200.00"), ISSUED, True),
                                          (None, [], False), (Decimal("0.00"), ISSUED[2:], None)):
            v = NS(parcel=NS(id=7), relation=relation, annual=annual)
            b = NS(issued=issued, paperless=paperless)
            pdf_url = "/propiedad/7/estado-de-cuenta.pdf?lang=en&x=<1>"
            # + the line's end before `{% endblock %}` (a template's last one is dropped)
            assert str(fragments.documents(v, b, pdf_url, url_for)) == _render(
                app, "documents", lang, v=v, b=b, pdf_url=pdf_url) + "\n"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_alerts_as_the_template_wrote_them(app, lang: str):  # noqa: ANN001
    order = NS(court="TPI <San Juan>", case_number="K & 1", ordered_on=date(2026, 5, 4))
    with app.test_request_context("/"), use_language(lang):
        for deposit in (order, None):
            for arrears in (True, False):
                for lease in (NS(contract="C-<1>", payer="owner"), NS(contract="", payer="lessee"),
                              None):
                    v = NS(deposit_order=deposit, arrears_warning=arrears, lease=lease)
                    assert str(fragments.alerts(v)) == _render(app, "alerts", lang, v=v)
