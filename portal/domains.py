"""Every domain that registers background jobs' kinds (`portal.jobs.runner.register`),
imported once: the web app, the worker and the job commands import this module, so a job
of any kind runs wherever it is picked up. The runner itself imports no domain.
"""

from portal.collections import demands, schedule
from portal.documents import demand_letter  # noqa: F401 - words the letters the run keeps
from portal.lenders import batches
from portal.roll import notices, roll, roll_import

#: The modules whose import registers the kinds (read by the test that every kind is here).
REGISTERING = (demands, batches, notices, roll, roll_import)
#: The modules whose import registers a daily task (`portal.jobs.daily.register`).
DAILY = (schedule,)
