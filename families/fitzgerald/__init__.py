"""Mike Fitzgerald's Diamonds (Stronghold Games, Board Game Arena): the whole game in one folder
(rulings R1-R18; rule sets 1e, 2e, bga; variants partnership, perfect).

`rules/` holds the engine and its three editions; `FAMILY` registers the family
with every edition (the parts it provides: `diamonds.core.family.STANDARD_PARTS`).
"""

from diamonds.core.family import Family

__all__ = ["FAMILY"]

# The engine (rules/) is named, not imported: reading another family's game never loads it.
FAMILY = Family(name="fitzgerald", title="Mike Fitzgerald's Diamonds (Stronghold Games, Board Game Arena)",
                rule_sets="rules.rulesets:EDITIONS", rule_ids=("1e", "2e", "bga"), package=__name__)
