"""Every domain that registers background jobs' kinds (`portal.jobs.runner.register`),
imported once: the web app, the worker and the job commands import this module, so a job
of any kind runs wherever it is picked up. The runner itself imports no domain.
"""

from portal.collections import demands
from portal.lenders import (
    batches,
    loan_changes,  # issue 28: the add/delete files
)
from portal.roll import notices, roll, roll_import

#: The modules whose import registers the kinds (read by the test that every kind is here).
REGISTERING = (demands, batches, notices, roll, roll_import)
REGISTERING += (loan_changes,)
