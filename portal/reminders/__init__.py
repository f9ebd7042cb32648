"""Reminders and the calendar (docs/REMINDERS.md): an account's choices
(`preferences`), relatives who get a parcel's reminders by email (`relatives`), the day's
sending (`sending`, a task of `portal.jobs.daily`) and the iCalendar feeds (`calendar`).

What is due on a day, and every amount a reminder or the calendar gives, is the core's
(`portal.core.reminders`, over `portal.core.offer`)."""
