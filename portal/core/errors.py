"""Errors the core raises; each carries the input field it is about, when there is one."""


class CalcError(ValueError):
    """A computation cannot be done with these inputs (e.g. fixed amounts above the total)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field
        self.message = message

    def one_line(self) -> str:
        prefix = f"{self.field}: " if self.field else ""
        return (prefix + self.message).replace("\n", " ")


class InputError(CalcError):
    """An input value is missing, unknown or malformed."""


class ParameterNotFound(CalcError):
    """No value of a parameter is in force on the date asked (nothing falls back silently)."""
