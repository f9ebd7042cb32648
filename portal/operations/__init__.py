"""Running the portal as a service (docs/OPERATIONS.md): the settings checked at start
(`settings.py`), the readiness checks (`readiness.py`), the logs (`logs.py`) and the
metrics (`metrics.py`). No Flask: the web layer (`portal/web/ops/`) and the commands use them.
"""
