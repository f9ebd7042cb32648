"""Change reports of the residential exemption (J6): the owner's form, its confirmation, the
staff's list with acknowledge, and the lender's list (R-B9)."""
