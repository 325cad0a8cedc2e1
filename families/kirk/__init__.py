"""Alan Kirk's four-player Diamonds: the whole game in one folder (rulings K1-K8).

The engine lives in `rules/`; `FAMILY` below is what the entry-point group
`diamonds.families` finds (see `diamonds.core.family` for the parts a family has).
"""

from diamonds.core.family import STANDARD_PARTS, Family

__all__ = ["FAMILY"]

# The engine (rules/) is named, not imported: reading another family's game never loads it.
FAMILY = Family(name="kirk", title="Alan Kirk's four-player Diamonds", rule_sets="rules:Kirk", rule_ids=("kirk",),
                option_tags=("Hands", "Target"), package=__name__,
                parts={**STANDARD_PARTS, "bridge": "record:BRIDGE"})  # the house's replayer, with Kirk's writer
