"""Alan Kirk's four-player Diamonds: the whole game in one folder (rulings K1-K8).

`rules/` is the engine (standard library only); beside it are the game's
notation words, record bridge, export, tables and stats, replay stops, terminal
view, SVG picture and visibility policy. `FAMILY` is its registration, listed
in the entry-point group `diamonds.families` (pyproject.toml).
"""

from diamonds.core.family import Family

from .rules import Kirk

__all__ = ["FAMILY"]

FAMILY = Family(
    name="kirk",
    title="Alan Kirk's four-player Diamonds",
    rule_sets=(Kirk,),
    package=__name__,
)
