"""Three-handed bidding Diamonds: the whole game in one folder (rulings B1-B10).

`rules/` is the engine (standard library only); beside it are the game's
notation words, record bridge, export, tables and stats, replay stops, terminal
view, SVG picture and visibility policy. `FAMILY` is its registration, listed
in the entry-point group `diamonds.families` (pyproject.toml).
"""

from diamonds.core.family import Family

from .rules import Bidding

__all__ = ["FAMILY"]

FAMILY = Family(
    name="bidding",
    title="Three-handed bidding Diamonds",
    rule_sets=(Bidding,),
    package=__name__,
)
