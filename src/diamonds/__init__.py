"""diamonds: record, check, replay and analyse games called Diamonds.

Everything installs under this one name: `diamonds.core` (the rules engine,
one family per game called Diamonds), `diamonds.notation` (DGN text and typed
records), `diamonds.replay` (records replayed through the rules) and
`diamonds.cli` (the `diamonds` command). In a source checkout those folders
are `diamonds_core/`, `notation/`, `replay/` and `cli/` (see pyproject.toml).

Importing this package imports nothing else, so that `diamonds.core` stays
free of lark, rich and json.
"""

__all__: list[str] = []
