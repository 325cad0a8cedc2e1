"""diamonds: record, check, replay and analyse the card games called Diamonds.

The front door, as python-chess's `chess` module is for chess:

    import diamonds
    for game in diamonds.read_games("club.dgn"):      # every game, invalid ones too
        print(game.tags["Event"], game.problems)
        pos = game.at("R2.7")                           # a Position, as `replay --at` names it
        pos.legal_moves, pos.text(pos.legal_moves[0]), pos.view("Ann").hand("Ann")

    pos = diamonds.Position("kirk", ["Ann", "Bob", "Cat", "Dan"], dealer="Ann")
    pos.deal(random.Random(1))                          # chance moves are moves
    pos.push_text("9H")

Names are imported on first use, so `import diamonds` stays cheap and the
engine (`diamonds.core`) stays free of lark, rich and json; `dir(diamonds)`
lists them all the same. `diamonds.rule_sets()` names the registered
families and their rule sets. The parts:
`diamonds.core` (rules engines), `diamonds.notation` (DGN text and records),
`diamonds.replay` (records replayed through the rules), `diamonds.families`
(one folder per game), `diamonds.svg`, `diamonds.views`, `diamonds.cli`.
See docs/api.md.
"""

from __future__ import annotations

__version__ = "0.1.0"  # the distribution's version (pyproject.toml reads it from here)

TYPE_CHECKING = False  # as typing's, without importing typing (about 10 ms of every start); mypy reads it alike
if TYPE_CHECKING:
    from typing import Any

    from diamonds.core import Family, IllegalMove, NotAPlayer, NotationError, Sight
    from diamonds.replay.steps import PositionError

    from .analysis import GameTables
    from .game import Diagnostic, Game, Position, Standing, View, read_game, read_games

__all__ = [
    "read_games", "read_game", "Game", "Position", "View", "Standing", "Diagnostic", "rule_sets", "Family",
    "IllegalMove", "NotationError", "NotAPlayer", "PositionError", "Sight", "read_tables", "to_pandas", "env",
]

_LAZY = {
    "read_games": ".game", "read_game": ".game", "Game": ".game", "Diagnostic": ".game",
    "Position": ".game", "View": ".game", "Standing": ".game",
    "IllegalMove": "diamonds.core", "NotationError": "diamonds.core", "NotAPlayer": "diamonds.core",
    "Family": "diamonds.core",
    "Sight": "diamonds.core", "PositionError": "diamonds.replay.steps",
}

#: The parts, imported on first use as any subpackage is (`diamonds.families` is the games' plain package).
_PARTS = ("core", "notation", "replay", "families", "svg", "views", "bots", "io", "cli", "serve", "analysis", "dask")


def __getattr__(name: str) -> Any:
    from importlib import import_module

    module = _LAZY.get(name)
    if module is None:
        if name in _PARTS:
            return import_module(f"{__name__}.{name}")  # the import binds it here, as `import diamonds.x` does
        raise AttributeError(f"module 'diamonds' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, those imported on first use included (tab completion lists them)."""
    return sorted({*(name for name in globals() if name.startswith("__")), *__all__, *_PARTS})


def rule_sets() -> dict[str, tuple[str, ...]]:
    """The registered families and their rule sets: {"fitzgerald": ("1e", "2e", "bga"), "kirk": ("kirk",), …}."""
    from diamonds.core import families as registered

    return {family.name: family.rule_ids for family in registered()}


def env(rules: str = "kirk", players: int | None = None, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of the rule set `rules` (the `rl` extra; diamonds.bots.env, docs/bots.md)."""
    from diamonds.bots.env import env as make

    return make(rules, players, **kwargs)


def read_tables(paths: Any, *, encoding: str = "utf-8", jobs: int | None = None) -> GameTables:
    """The games, plays and events tables (pyarrow) of DGN files or of a folder of Parquet tables."""
    from .analysis import read_games as read

    return read(paths, encoding=encoding, jobs=jobs)


def to_pandas(source: Any, *, encoding: str = "utf-8", jobs: int | None = None) -> GameTables:
    """The games, plays and events tables as pandas DataFrames: `games, plays, events = diamonds.to_pandas(path)`."""
    from .analysis import to_pandas as frames

    return frames(source, encoding=encoding, jobs=jobs)
