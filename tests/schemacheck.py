"""The export schema's checker for tests (made once per registry, as `game_schema()` is).

It is the checker `diamonds convert` uses on JSON input (`diamonds.replay.schemacheck`): jsonschema-rs's
"valid" at once (the export tests validate thousands of games, and python's jsonschema alone made a
quarter of the default tier's time), python's jsonschema's verdict and words where it refuses. The test
extra installs jsonschema-rs, so here it must be there. `tests/replay/test_export.py` checks that the two
agree on every sample game, and the conformance suite's schema test uses python's jsonschema alone."""

from __future__ import annotations

import functools
from typing import Any

from diamonds.core.registry import registry_version
from diamonds.replay.export import game_schema
from diamonds.replay.schemacheck import SchemaChecker

__all__ = ["checker", "schema_errors"]


def checker() -> SchemaChecker:
    """The checker of the schema of the families registered now."""
    return _checker(registry_version())


@functools.lru_cache(maxsize=1)
def _checker(_registry: object) -> SchemaChecker:
    schema = game_schema()
    made = SchemaChecker.of(schema)
    made.validator.check_schema(schema)
    assert made.fast is not None, "the test extra installs jsonschema-rs"
    return made


def schema_errors(*docs: dict[str, Any]) -> list[str]:
    """Where and why the export documents `docs` (as one file's games) break the schema."""
    instance = {"games": list(docs)}
    errors = [f"{e.json_path}: {e.message}" for e in checker().errors(instance)]
    if errors or checker().is_surely_valid(instance):
        return errors
    refused = [f"{'/'.join(map(str, e.instance_path))}: {e.message}" for e in checker().fast.iter_errors(instance)]
    return [f"the validators disagree: jsonschema-rs refuses ({'; '.join(refused)}), jsonschema accepts"]
