"""Background jobs on a task queue (DESIGN.md 7): `portal.jobs.queue`.

The queue carries only job ids; the work, its records and its progress are
`portal.services.jobs`. See docs/JOBS.md.
"""
