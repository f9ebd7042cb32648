"""The account kernel every domain reads: an account's facts (`facts`), the one door to data
(`access`), the parcel page's and the dashboard's reads (`statements`), money movements
(`ledger`), the Board's parameters as recorded (`board_parameters`) and the days it declared
closed (`closed_days`), claiming and sharing a parcel (`parcels`, `invitations`), the audit log
(`audit`), bulk writes (`bulk`), shared counters (`throttle`) and the domain errors (`errors`).

Services are plain functions taking a `portal.db.UnitOfWork` first; no Flask. Domain errors
are `errors.ServiceError`s with stable codes the web layer translates. This package imports
no other domain (docs/ARCHITECTURE.md, "Rooms").
"""
