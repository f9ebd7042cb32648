"""Background jobs on a task queue (DESIGN.md 7): `portal.jobs.queue`.

The queue carries only job ids; the work, its records and its progress are
`portal.jobs.runner`. See docs/JOBS.md.
"""
