"""The residential-exemption certification online (J5): the owner's wizard, evidence, the
receipt, the lender's list and the staff's review."""
