"""Lessees: the parcels they lease (R-A14, R-A16), each opening the parcel page."""
