"""Owners' and lessees' own pages: home, dashboard, parcel page, statement PDF, language."""
