"""The one exception commands raise for a user-facing failure (exit status 2 by default)."""


class CommandError(Exception):
    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status
