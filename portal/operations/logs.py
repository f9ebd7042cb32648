"""The portal's logs as JSON, one object per line (python-json-logger).

`configure("json")` puts one JSON handler on the root logger (standard error): every record
is one line with `time`, `level`, `logger`, `message` and the record's extra fields (the
request log's `method`, `route`, `status`, `duration_ms`, `request_id`, `user_id`, `client`);
a traceback is the one field `exc_info`, never lines of its own. gunicorn's own logs go the
same way (`portal/gunicorn_conf.py`'s `logconfig_dict`). `configure("text")` keeps the
plain format (development's default).
"""

from __future__ import annotations

import logging
import sys

from pythonjsonlogger.json import JsonFormatter

JSON_FIELDS = "{asctime}{levelname}{name}{message}"
RENAME = {"asctime": "time", "levelname": "level", "name": "logger"}
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def json_formatter() -> logging.Formatter:
    return JsonFormatter(JSON_FIELDS, style="{", rename_fields=RENAME)


#: gunicorn's `logconfig_dict` for JSON logs: its own loggers (the error log; the access
#: log off, the portal writes one line per request); the root logger is the app's
#: (`configure`, from `create_app`), or every record would be written twice.
def gunicorn_logconfig() -> dict:
    handler = {"class": "logging.StreamHandler", "formatter": "json",
               "stream": "ext://sys.stderr"}
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"json": {"()": "portal.operations.logs.json_formatter"}},
        "handlers": {"console": handler, "error_console": handler},
        "root": {"level": "INFO", "handlers": []},
        "loggers": {"gunicorn.error": {"level": "INFO", "handlers": ["error_console"],
                                       "propagate": False},
                    "gunicorn.access": {"level": "INFO", "handlers": [],
                                        "propagate": False}},
    }


_MARK = "_portal_handler"


def configure(fmt: str) -> None:
    """One handler of the portal's on the root logger, in `fmt` ("json" or "text"); calling
    it again replaces it (never two lines for one record)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, _MARK, False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(json_formatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    setattr(handler, _MARK, True)
    root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)
