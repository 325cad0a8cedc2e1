"""The export schema's validators for tests (made once; `cache_clear()` them after a schema change).

The verdict on a document comes from jsonschema-rs, a second, independent implementation of JSON Schema
2020-12 (some 300 times as fast here: the export tests validate thousands of games, and python's
jsonschema made a quarter of the default tier's time). Where it refuses a document, python's jsonschema,
which `diamonds convert` uses on JSON input, says where and why, in its words; the two must agree, which
`tests/replay/test_export.py::test_both_validators_agree_on_every_sample` checks on every sample game,
and the conformance suite's schema test checks with python's jsonschema alone for every family."""

from __future__ import annotations

import functools
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator

from diamonds.replay.export import game_schema

__all__ = ["validator", "fast_validator", "schema_errors"]


@functools.lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    schema = game_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@functools.lru_cache(maxsize=1)
def fast_validator() -> Any:
    return jsonschema_rs.Draft202012Validator(game_schema())


def schema_errors(*docs: dict[str, Any]) -> list[str]:
    """Where and why the export documents `docs` (as one file's games) break the schema."""
    instance = {"games": list(docs)}
    if fast_validator().is_valid(instance):
        return []
    errors = [f"{e.json_path}: {e.message}" for e in validator().iter_errors(instance)]
    refused = [f"{'/'.join(map(str, e.instance_path))}: {e.message}" for e in fast_validator().iter_errors(instance)]
    return errors or [f"the validators disagree: jsonschema-rs refuses ({'; '.join(refused)}), jsonschema accepts"]
