"""The one error for bad input: it names the file (or source), the line or item, and the field.

Every loader raises it (or a subclass named after the loader) for input a user
can fix; the CLI prints it as one line, `error: FILE:LINE: field 'x': message`,
and exits non-zero, with no traceback.
"""

from __future__ import annotations

from pathlib import Path


class InputError(ValueError):
    """Input that cannot be used, located as precisely as the format allows."""

    def __init__(
        self,
        source: str | Path,
        message: str,
        *,
        line: int | None = None,
        item: str | None = None,
        field: str | None = None,
    ):
        self.source = str(source)
        self.line = line
        self.item = item
        self.field = field
        self.message = message
        super().__init__(self.location() + message)

    def location(self) -> str:
        """`FILE:LINE: item: field 'x': `, each part only where it is known."""
        where = self.source + (f":{self.line}" if self.line is not None else "") + ": "
        if self.item:
            where += f"{self.item}: "
        if self.field:
            where += f"field {self.field!r}: "
        return where
