"""A local SMTP relay for the outbox's tests (aiosmtpd): it refuses (451) while `refusing`,
else accepts, and keeps every message it accepted."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from typing import Any

from aiosmtpd.controller import Controller


class Handler:
    def __init__(self) -> None:
        self.refusing = False
        self.accepted: list[Any] = []
        self.refused = 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        with self.lock:
            if self.refusing:
                self.refused += 1
                return "451 4.3.0 Try again later"
            self.accepted.append(message_from_bytes(envelope.content))
        return "250 OK"

    def message_ids(self) -> list[str]:
        with self.lock:
            return [str(m["Message-ID"]) for m in self.accepted]


@contextmanager
def relay() -> Iterator[tuple[Handler, dict[str, Any]]]:
    """(the handler, the mail settings that point at it)."""
    handler = Handler()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield handler, {"MAIL_SERVER": "127.0.0.1", "MAIL_PORT": controller.port,
                        "MAIL_USE_TLS": False, "MAIL_USE_SSL": False,
                        "MAIL_FROM": "Portal <no-reply@portal.example.pr>",
                        "PORTAL_BASE_URL": "https://portal.example.pr"}
    finally:
        controller.stop()


def free_port() -> int:
    """A port nothing listens on (a relay that is down)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
