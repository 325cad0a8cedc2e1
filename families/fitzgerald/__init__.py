"""Mike Fitzgerald's Diamonds (Stronghold Games, Board Game Arena): the whole game in one folder (rulings R1-R18; rule sets 1e, 2e, bga; variants partnership, perfect).

`rules/` is the engine (standard library only); beside it are the game's
notation words, record bridge, export, tables and stats, replay stops, terminal
view, SVG picture and visibility policy. `FAMILY` is its registration, listed
in the entry-point group `diamonds.families` (pyproject.toml).
"""

from diamonds.core.family import Family

from .rules.rulesets import EDITIONS

__all__ = ["FAMILY"]

FAMILY = Family(
    name="fitzgerald",
    title="Mike Fitzgerald's Diamonds (Stronghold Games, Board Game Arena)",
    rule_sets=EDITIONS,
    package=__name__,
)
