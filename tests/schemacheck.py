"""The export schema's validator for tests (made once; `validator.cache_clear()` after a schema change)."""

from __future__ import annotations

import functools
from typing import Any

from jsonschema import Draft202012Validator

from diamonds.replay.export import game_schema

__all__ = ["validator", "schema_errors"]


@functools.lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    schema = game_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_errors(*docs: dict[str, Any]) -> list[str]:
    """Where and why the export documents `docs` (as one file's games) break the schema."""
    return [f"{e.json_path}: {e.message}" for e in validator().iter_errors({"games": list(docs)})]
