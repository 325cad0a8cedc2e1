"""A JSON Schema check whose verdict and words are python's jsonschema's, hastened by jsonschema-rs.

jsonschema-rs (the `fast` extra) is an independent implementation of draft 2020-12, some 300 times as fast
on the export's documents; its "valid" is taken at once. A document it refuses, or cannot take, is checked
by jsonschema all the same, so what is accepted and every error are jsonschema's, with or without it.
(Where the two differ, jsonschema-rs is the stricter: `$` ends a pattern only at the end of the text.)
`diamonds convert` checks JSON input with it, and the tests check every export with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator, ValidationError

__all__ = ["SchemaChecker"]


@dataclass(frozen=True, slots=True)
class SchemaChecker:
    validator: Draft202012Validator
    #: jsonschema-rs's validator of the same schema; None where it is not installed (or not wanted).
    fast: Any

    @classmethod
    def of(cls, schema: dict[str, Any], *, fast: bool = True) -> SchemaChecker:
        """A checker of `schema`, hastened by jsonschema-rs where it is installed and `fast` allows."""
        fast_validator = None
        if fast:
            try:
                import jsonschema_rs
            except ImportError:
                pass
            else:
                fast_validator = jsonschema_rs.Draft202012Validator(schema)
        return cls(Draft202012Validator(schema), fast_validator)

    def is_surely_valid(self, doc: Any) -> bool:
        """jsonschema-rs's "valid"; False where it refuses, is absent, or cannot take the document."""
        if self.fast is None:
            return False
        try:
            return bool(self.fast.is_valid(doc))
        except Exception:  # anything it cannot take (a number too big for it, say): jsonschema decides
            return False

    def errors(self, doc: Any) -> list[ValidationError]:
        """jsonschema's errors in `doc` (none: valid). A document nested too deeply raises RecursionError."""
        if self.is_surely_valid(doc):
            return []
        return list(self.validator.iter_errors(doc))
