"""Property-tax attachment and auction (R-C1–R-C8) and the lessee's deposit order (R-A14):
the staff's pages under /personal/embargos and the debtor's section of the parcel page."""
