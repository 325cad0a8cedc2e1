"""Three-handed bidding Diamonds: the whole game in one folder (rulings B1-B10).

Its engine is `rules/` (standard library only); the other modules are the parts
`diamonds.core.family.STANDARD_PARTS` names, and `FAMILY` registers them all.
"""

from diamonds.core.family import Family

__all__ = ["FAMILY"]

# The engine (rules/) is named, not imported: reading another family's game never loads it.
FAMILY = Family(name="bidding", title="Three-handed bidding Diamonds", rule_sets="rules:Bidding", rule_ids=("bidding",),
                package=__name__)
