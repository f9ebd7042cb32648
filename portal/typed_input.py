"""What the typed-input parsers share (`money_input`, `date_input`, `count_input`,
`yes_no_input`): an error with a stable `code`, the `params` of its message, and the message
in the language in force, from the parser's own `MESSAGES`."""

from __future__ import annotations

from typing import Any, ClassVar

from portal.i18n import gettext


class TypedInputError(ValueError):
    """A typed value refused: `code` (a key of `MESSAGES`) and `params` for its message."""

    #: The parser's messages by code (each subclass gives its own).
    MESSAGES: ClassVar[dict[str, str]] = {}

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def shown_params(self) -> dict[str, Any]:
        """The message's params as the reader sees them (a subclass formats its own)."""
        return dict(self.params)

    def message(self) -> str:
        """The reason in the language in force."""
        return gettext(self.MESSAGES[self.code], **self.shown_params())
