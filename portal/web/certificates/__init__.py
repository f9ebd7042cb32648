"""Payoff certificates (J10, R-A19): request one on the parcel page, list and download a
parcel's, and the public page that verifies a code."""
