"""Services: one transaction per operation (load facts, call the core, persist, audit).

Plain functions taking a `portal.db.UnitOfWork` first; no Flask. Every read of parcels,
accounts, payments and notices goes through `access` (DESIGN.md 6). Domain errors are
`errors.ServiceError`s with stable codes the web layer translates. See docs/DATA.md.
"""
