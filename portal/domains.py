"""Every domain that registers background jobs' kinds (`portal.jobs.runner.register`),
imported once: the web app, the worker and the job commands import this module, so a job
of any kind runs wherever it is picked up. The runner itself imports no domain.
"""

from portal.collections import demands
from portal.lenders import batches
from portal.roll import notices, roll, roll_import

#: The modules whose import registers the kinds (read by the test that every kind is here).
REGISTERING = (demands, batches, notices, roll, roll_import)

# Issue 28: each lender's daily digest of the exemption decisions on its loans.
from portal.exemptions import digest as exemption_digest  # noqa: E402
from portal.jobs import daily as _daily  # noqa: E402

_daily.register(exemption_digest.NAME, exemption_digest.send)
