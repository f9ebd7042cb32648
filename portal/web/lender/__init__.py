"""Lenders: the parcels of the organisation's loans."""
