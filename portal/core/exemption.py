"""Residential exemption (exoneración residencial): R-B1 to R-B8, R-B11, R-B12.

The statute's text is Spanish and prevails (docs/rules, Conventions). The exemption lowers the
basic, special and municipal property tax only; it never lowers a District benefit
assessment (R-A2).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from portal.core.errors import CalcError
from portal.core.explain import N_, Rate, Trace
from portal.core.money import ZERO, cents

CUERDA_M2 = Decimal("3930.395625")  # 1 cuerda in square metres (docs/rules, Conventions)
ONE = Decimal(1)
ZONES = ("urban", "suburban", "rural")


@dataclass(frozen=True)
class ExemptionInput:
    valuation: Decimal  # land and structure
    tax_rate: Decimal  # basic + special + municipal
    residential_fraction: Decimal = ONE
    residential_valuation: Decimal | None = None
    veteran_exemption: Decimal = ZERO
    unit_share: Decimal = ONE
    zone: str = "urban"
    land_valuation: Decimal = ZERO
    land_area_cuerdas: Decimal = ZERO
    residential_cap: Decimal = Decimal("15000")


@dataclass(frozen=True)
class ExemptionResult:
    exempt_valuation: Decimal
    taxable_valuation: Decimal
    gross_tax: Decimal
    exemption_amount: Decimal
    veteran_exemption_amount: Decimal
    net_tax: Decimal
    residential_valuation: Decimal
    trace: Trace


def residential_exemption(x: ExemptionInput) -> ExemptionResult:
    """R-B1 (a), R-B2 (a), R-B3 (b), R-B4 (b), R-B7 (d): the exempt valuation and the tax.

    V = cents(valuation x unit share) (R-B4, each cooperative unit its own cap) and L =
    cents(land valuation x unit share): a unit's valuation is a money figure, rounded once.
    The residential part R (R-B2) counts the lot, limited to one cuerda in a rural or
    suburban zone (R-B7). The veteran's exemption W comes off first (R-B3). The exempt
    valuation is cents(min(cap, R, V - W)), the cap being $15,000 of 1957 valuation (R-B1),
    and every later figure uses that rounded value (docs/rules/D-calc-contract.md).
    """
    if x.zone not in ZONES:
        raise CalcError(f"must be one of {', '.join(ZONES)}", field="zone")
    if x.residential_fraction > 1:
        raise CalcError("must be between 0 and 1", field="residential_fraction")
    if x.unit_share > 1:
        raise CalcError("must be between 0 and 1", field="unit_share")
    if x.land_valuation > x.valuation:
        raise CalcError("cannot exceed the valuation (land and structure)",
                        field="land_valuation")
    t = Trace()
    v = cents(x.valuation * x.unit_share)
    land = cents(x.land_valuation * x.unit_share)
    if x.unit_share != 1:
        t.add("R-B4", N_("Cooperative unit: {share} of the valuation is attributed to it, "
                         "{value}."), share=x.unit_share, value=v)
    if x.residential_valuation is not None:
        r = cents(x.residential_valuation * x.unit_share)
    else:
        k = ONE
        if x.zone in ("rural", "suburban") and x.land_area_cuerdas > 1:
            k = ONE / x.land_area_cuerdas
            t.add("R-B7", N_("Rural or suburban lot of {area} cuerdas: only one cuerda of the "
                             "land counts as residential."),
                  area=f"{x.land_area_cuerdas.normalize():f}")
        r = (v - land) * x.residential_fraction + land * x.residential_fraction * k
    if x.residential_fraction != 1 and x.residential_valuation is None:
        t.add("R-B2", N_("Partly residential: only {fraction} of the property, {value}, "
                         "counts."), fraction=Rate(x.residential_fraction), value=cents(r))
    w = min(x.veteran_exemption, v)
    if w:
        t.add("R-B3", N_("The veteran's exemption of {amount} is deducted first."), amount=w)
    exempt = max(ZERO, cents(min(x.residential_cap, r, v - w)))
    taxable = v - w - exempt
    gross = cents(v * x.tax_rate)
    exemption_amount = cents(exempt * x.tax_rate)
    veteran_amount = cents(w * x.tax_rate)
    net = max(ZERO, gross - exemption_amount - veteran_amount)
    t.add("R-B1", N_("Exempt valuation {exempt_value} (at most {cap}) x tax rate {rate} = "
                     "exemption of {amount}; tax {gross} becomes {net}."),
          exempt_value=exempt, cap=x.residential_cap, rate=Rate(x.tax_rate),
          amount=exemption_amount, gross=gross, net=net)
    return ExemptionResult(exempt, taxable, gross, exemption_amount, veteran_amount, net,
                           cents(r), t)


# R-B5 to R-B8, R-B11: who qualifies. These are checks a filing must pass, with reasons.

TEMPORARY_ABSENCE_REASONS = (
    "care_relative_60_plus",  # caring for a relative aged 60+ with a critical illness/disability
    "own_illness_or_disability",  # the owner's own condition requires living elsewhere
    "obligation_8_lpra_1511",  # obligations under 8 LPRA § 1511 et seq.
)


#: R-B7 (d): who lives in the home on January 1: the owner (with or without family) or the
#: owner's family only.
OCCUPANTS = ("owner", "family")

#: R-B7 (d): the owner's relatives as the civil law counts them, each (kind, degree):
#: consanguinity counts the generations up to the common ancestor and down again (a sibling
#: is in the 2nd degree, a first cousin in the 4th); affinity is the spouse's relative in the
#: spouse's own degree (a parent-in-law or a stepchild in the 1st, a sibling-in-law in the
#: 2nd). "spouse" is family by the text itself; "none" is no relative.
KINSHIP: dict[str, tuple[str, int]] = {
    "spouse": ("spouse", 0),
    "child": ("blood", 1), "parent": ("blood", 1),
    "grandchild": ("blood", 2), "grandparent": ("blood", 2), "sibling": ("blood", 2),
    "great_grandchild": ("blood", 3), "great_grandparent": ("blood", 3),
    "nephew_niece": ("blood", 3), "uncle_aunt": ("blood", 3),
    "first_cousin": ("blood", 4), "grandnephew_grandniece": ("blood", 4),
    "great_uncle_aunt": ("blood", 4), "great_great_grandchild": ("blood", 4),
    "great_great_grandparent": ("blood", 4),
    "first_cousin_once_removed": ("blood", 5), "second_cousin": ("blood", 6),
    "parent_in_law": ("affinity", 1), "child_in_law": ("affinity", 1),
    "stepchild": ("affinity", 1), "stepparent": ("affinity", 1),
    "sibling_in_law": ("affinity", 2), "grandparent_in_law": ("affinity", 2),
    "step_grandchild": ("affinity", 2),
    "nephew_niece_in_law": ("affinity", 3), "uncle_aunt_in_law": ("affinity", 3),
    "none": ("none", 0),
}
#: R-B7 (d): the furthest degrees that are family.
MAX_BLOOD_DEGREE, MAX_AFFINITY_DEGREE = 4, 2


def is_family(relationship: str) -> bool:
    """R-B7 (d): whether a relative of the owner is family for the exemption: a spouse, a
    relative within the 4th degree of consanguinity or the 2nd of affinity (`KINSHIP`).
    An unknown relationship is a `CalcError` naming `family_relationship`."""
    if relationship not in KINSHIP:
        raise CalcError(f"must be one of {', '.join(KINSHIP)}", field="family_relationship")
    kind, degree = KINSHIP[relationship]
    return (kind == "spouse" or kind == "blood" and degree <= MAX_BLOOD_DEGREE
            or kind == "affinity" and degree <= MAX_AFFINITY_DEGREE)


#: R-B7's reasons against a home, as `eligibility` gives them (a caller may point at the
#: answer each concerns).
NOT_HOME = N_("The property was not the home of the owner or family on January 1.")
RENT_RECEIVED = N_("Rent is received for the property.")
NOT_FAMILY = N_("The people who live in the home are not the owner's family: family is the "
                "spouse and the relatives within the 4th degree by blood or the 2nd by "
                "marriage.")


@dataclass(frozen=True)
class Eligibility:
    """The facts of a certification that decide whether the exemption applies."""

    used_as_home_on_jan_1: bool  # R-B7: home of the owner or family on January 1
    rent_received: bool  # R-B7, R-B8: no rent may be received
    new_structure_available_to_buyer: bool = False  # R-B7: new structure built for sale
    temporary_absence_reason: str | None = None  # R-B8: sworn statement of the reason
    other_exemption_elsewhere: bool = False  # R-B6: one dwelling per owner
    owes_property_tax_jan_1: bool = False  # R-B11
    payment_plan_filed_in_time: bool = False  # R-B11
    payment_plan_approved: bool = False  # R-B11
    occupant: str = "owner"  # R-B7: "owner" lives there, or only the owner's "family"
    family_relationship: str | None = None  # R-B7: the family's relationship (`KINSHIP`)


@dataclass(frozen=True)
class EligibilityResult:
    eligible: bool
    reasons: list[tuple[str, str]]  # (rule id, message) for each unmet requirement


def eligibility(e: Eligibility) -> EligibilityResult:
    """R-B6 (c), R-B7 (d), R-B8 (d), R-B11 (g) of the Exoneración residencial: does the
    property qualify, and if not, why not. R-B7: the home of the owner **or the family**
    ("utilizada como vivienda por su dueño o su familia"): where only the family lives there,
    its relationship must be within R-B7's degrees (`is_family`); any rent received for its
    occupation ("siempre que el dueño no recibiera renta por su ocupación"), for the whole
    or a part and from the family too, denies it. R-B8: living away temporarily for the
    reasons the statute lists (with a sworn statement) is no ground to deny, provided no rent
    is received.
    """
    reasons: list[tuple[str, str]] = []
    if e.occupant not in OCCUPANTS:
        raise CalcError(f"must be one of {', '.join(OCCUPANTS)}", field="occupant")
    if e.occupant == "family":
        if not e.family_relationship:
            raise CalcError("is required when the family lives there",
                            field="family_relationship")
        if not is_family(e.family_relationship):
            reasons.append(("R-B7", NOT_FAMILY))
    lives_there = (e.used_as_home_on_jan_1 or e.new_structure_available_to_buyer
                   or e.temporary_absence_reason in TEMPORARY_ABSENCE_REASONS)
    if not lives_there:
        reasons.append(("R-B7", NOT_HOME))
    if e.rent_received:
        reasons.append(("R-B7", RENT_RECEIVED))
    if e.other_exemption_elsewhere:
        reasons.append(("R-B6", N_("The owner already has the exemption on another "
                                   "dwelling.")))
    if e.owes_property_tax_jan_1 and not (e.payment_plan_filed_in_time
                                          and e.payment_plan_approved):
        reasons.append(("R-B11", N_("Property tax was owed on January 1 and no payment plan "
                                    "was formulated in time and approved.")))
    return EligibilityResult(not reasons, reasons)


#: R-B12, Exoneración residencial (g)(2), in one paragraph (the change report's page): intent
#: is named for a change in qualifications, not for a transfer or change of ownership ("o
#: dejare de notificar cualesquiera traspasos o modificaciones del dominio"), as
#: `CERTIFICATION_WARNING` words it point by point.
FALSE_STATEMENT_WARNING = N_(
    "Knowingly presenting false or fraudulent information, or intentionally failing to report "
    "a change in your qualifications, is a misdemeanor; so is failing to report a transfer or "
    "a change in the ownership of the property, whatever the intent. Each is punished by a "
    "$500 fine, six months in prison, or both, plus the taxes owed once the exemption is "
    "revoked (R-B12)."
)


#: R-B12, Exoneración residencial (g)(2), as the filing form states it (point by point, as the
#: statute words it: intent is named for a change in qualifications, not for a transfer).
CERTIFICATION_WARNING = (
    N_("It is a misdemeanor, to obtain the exemption, to present any fraudulent statement, "
       "record or information."),
    N_("It is a misdemeanor to intentionally fail to report any change in your "
       "qualifications for the exemption."),
    N_("It is a misdemeanor to fail to report any transfer or change in the ownership of the "
       "property."),
    N_("It is a misdemeanor to knowingly fail to present, or to hide, the true details the "
       "CRIM needs to compute the exemption."),
    N_("Each is punished by a $500 fine, or six months in prison, or both, at the court's "
       "discretion; and you will pay the taxes owed once the exemption is revoked."),
    N_("An exempt home can still be sold at auction for property-tax debts (R-B12)."),
)


HOUSING_ENTITIES = ("limited_dividend_221d3", "limited_dividend_236", "nonprofit_221d3",
                    "nonprofit_236", "nonprofit_202_elderly")


def surviving_spouse_keeps(original_titleholder: bool, requirements_met: bool) -> bool:
    """R-B5, Exoneración residencial (b): both spouses are owners and taxpayers and a couple has
    one exemption; a surviving spouse who is an original titleholder keeps it without a new
    filing, as long as the requirements (residential use above all) are still met."""
    return original_titleholder and requirements_met


def housing_entity_qualifies(kind: str, certified_by_housing_department: bool) -> bool:
    """R-B5, Exoneración residencial (b): limited-dividend corporations (federal sections
    221(d)(3), 236) and non-profit housing associations (221(d)(3), 236; 202 for people over
    62) qualify where the Department of Housing certifies them."""
    return kind in HOUSING_ENTITIES and certified_by_housing_department


@dataclass(frozen=True)
class Penalty:
    fine: Decimal
    prison_months: int
    both_possible: bool
    intent_required: bool


def false_statement_penalty(intent_required: bool = True) -> Penalty:
    """R-B12, Exoneración residencial (g)(2): knowingly false or fraudulent statements, or
    intentionally failing to report a change or transfer, is a misdemeanor: a $500 fine, or
    six months, or both, plus the taxes owed after revocation. The filing form states this
    (`FALSE_STATEMENT_WARNING`) and takes an attestation. (g)(1): an exempt home can still be
    sold at auction for tax debts. `intent_required`: false for failing to report a transfer or
    change of ownership, for which the text names no intent (R-B12, R-B19)."""
    return Penalty(Decimal("500.00"), 6, True, intent_required)
