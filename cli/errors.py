"""The one exception commands raise for a user-facing failure (exit status 2 by default).

It is `diamonds.io.errors.UserError` under its command-side name: the I/O layer's refusals
(a locked file, a read-only file, a full disk) are CommandErrors too, with their data fields."""

from diamonds.io.errors import UserError as CommandError

__all__ = ["CommandError"]
