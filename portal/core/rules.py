"""The rule ids of docs/rules with their statute clauses and titles, for explanations."""

from __future__ import annotations

from dataclasses import dataclass

from portal.core.explain import N_

LAW_6432 = "23 LPRA § 6432"
LAW_EXON = "Exoneración residencial"
LAW_33262 = "13 LPRA § 33262"
LAW_5105 = "21 LPRA § 5105"


@dataclass(frozen=True)
class Rule:
    id: str
    source: str
    title: str


RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("R-A1", f"{LAW_6432}(b)", N_("Annual budget adopted before the fiscal year")),
    Rule("R-A2", f"{LAW_6432}(a), (c)", N_("Which parcels are assessed")),
    Rule("R-A3", f"{LAW_6432}(a), (b)(3)-(4)", N_("Each parcel's share by its benefit")),
    Rule("R-A4", f"{LAW_6432}(d)", N_("Equal monthly installments")),
    Rule("R-A5", f"{LAW_6432}(b), (d)", N_("Amended assessment")),
    Rule("R-A6", f"{LAW_6432}(d)", N_("Timely payment and grace day")),
    Rule("R-A7", f"{LAW_6432}(d)", N_("Late fee")),
    Rule("R-A8", f"{LAW_6432}(d)", N_("Interest on delinquent principal")),
    Rule("R-A9", f"{LAW_6432}(d), (e)", N_("Collection costs and attorney's fees")),
    Rule("R-A10", f"{LAW_6432}(d)", N_("Order in which a payment is applied")),
    Rule("R-A11", f"{LAW_6432}(f)", N_("Lump sum paid in advance")),
    Rule("R-A12", f"{LAW_6432}(d)", N_("Demand by certified mail")),
    Rule("R-A13", f"{LAW_6432}(d)", N_("Claim in court after 15 days")),
    Rule("R-A14", f"{LAW_6432}(d)", N_("Lessee's deposit of rents in court")),
    Rule("R-A15", f"{LAW_6432}(e)", N_("Statutory tacit lien and its rank")),
    Rule("R-A16", f"{LAW_6432}(c), (d)", N_("Who pays: owner or lessee")),
    Rule("R-A17", f"{LAW_6432}(d)", N_("When a demand is sent and what it states")),
    Rule("R-A18", f"{LAW_6432}(d)", N_("What stops the court claim")),
    Rule("R-A19", f"{LAW_6432}(e)", N_("The payoff certificate")),
    Rule("R-B1", f"{LAW_EXON} (a)", N_("Residential exemption up to $15,000 of valuation")),
    Rule("R-B2", f"{LAW_EXON} (a)", N_("Partly residential property")),
    Rule("R-B3", f"{LAW_EXON} (b)", N_("Veterans: their exemption first")),
    Rule("R-B4", f"{LAW_EXON} (b)", N_("Housing cooperatives: per unit")),
    Rule("R-B5", f"{LAW_EXON} (b)", N_("Spouses, surviving spouse and housing entities")),
    Rule("R-B6", f"{LAW_EXON} (c)", N_("One dwelling per owner")),
    Rule("R-B7", f"{LAW_EXON} (d)", N_("What residential use means")),
    Rule("R-B8", f"{LAW_EXON} (d)", N_("Living away temporarily")),
    Rule("R-B9", f"{LAW_EXON} (e)", N_("Filing the certification and reporting changes")),
    Rule("R-B10", f"{LAW_EXON} (f)", N_("What the mortgage lender pays or retains")),
    Rule("R-B11", f"{LAW_EXON} (g)", N_("No property-tax debt, or a payment plan")),
    Rule("R-B12", f"{LAW_EXON} (g)(1)-(2)", N_("False statements are a misdemeanor")),
    Rule("R-B13", f"{LAW_EXON} (e), (g)", N_("Where the certification goes, and its filing date")),
    Rule("R-B14", f"{LAW_EXON} (e)", N_("What the certification states")),
    Rule("R-B15", f"{LAW_EXON} (b), (d), (g)", N_("Judged on January 1; continues year to year")),
    Rule("R-B16", f"{LAW_EXON} (g)", N_("The payment plan")),
    Rule("R-B17", f"{LAW_EXON} (e)", N_("What a change report states")),
    Rule("R-B18", f"{LAW_EXON} (d), (e), (g)(2)", N_("From when a change counts")),
    Rule("R-B19", f"{LAW_EXON} (b), (c), (e)", N_("A surviving spouse keeps the exemption")),
    Rule("R-B20", f"{LAW_EXON} (a)-(c)", N_("Co-owners and cooperatives")),
    Rule("R-B21", f"{LAW_EXON} (e), (f)", N_("What the lender records and forwards")),
    Rule("R-C1", f"{LAW_33262}(a)", N_("What a notice of attachment states")),
    Rule("R-C2", f"{LAW_33262}(b)", N_("Thirty days to pay after the notice")),
    Rule("R-C3", f"{LAW_33262}(j)", N_("Dunning agent's fee")),
    Rule("R-C4", LAW_5105, N_("Auction minimum")),
    Rule("R-C5", LAW_5105, N_("The minimum is confidential")),
    Rule("R-C6", LAW_5105, N_("No bid, or a sale that falls short")),
    Rule("R-C7", f"{LAW_33262}(b), (e), (j)", N_("The notice date, and what stops the sale")),
    Rule("R-C8", LAW_5105, N_("The mortgage balance, the auction number and a shortfall")),
)}


def rule(rule_id: str) -> Rule:
    return RULES[rule_id]
