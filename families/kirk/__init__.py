"""Alan Kirk's four-player Diamonds: the whole game in one folder (rulings K1-K8).

The engine lives in `rules/`; `FAMILY` below is what the entry-point group
`diamonds.families` finds (see `diamonds.core.family` for the parts a family has).
"""

from diamonds.core.family import Family

from .rules import Kirk

__all__ = ["FAMILY"]

FAMILY = Family(name="kirk", title="Alan Kirk's four-player Diamonds", rule_sets=(Kirk,), package=__name__)
