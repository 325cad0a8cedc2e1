"""The registry: every family the engine plays, listed explicitly.

A new game called Diamonds is one `Family` added to `FAMILIES` (see
docs/architecture.md for the checklist). The generic layers ask here, by a
game's `Rules` tag, and never name a family themselves.
"""

from __future__ import annotations

from .family import Family, Rules
from .bidding import Bidding
from .fitzgerald.rulesets import EDITIONS
from .kirk import Kirk
from .seating import ConfigError

__all__ = ["FAMILIES", "RULE_SETS", "DEFAULT_RULES", "rules_for", "family_of", "family_named", "option_tags"]

FITZGERALD = Family(
    name="fitzgerald",
    title="Mike Fitzgerald's Diamonds (Stronghold Games, Board Game Arena)",
    rule_sets=EDITIONS,
    bridge="diamonds.replay.fitzgerald:BRIDGE",
    export="diamonds.replay.fitzgerald_export:EXPORT",
    steps="diamonds.replay.fitzgerald_steps:build_steps",
    tables="diamonds.replay.fitzgerald_tables:TABLES",
    stats="diamonds.replay.fitzgerald_stats:STATS",
    picture="diamonds.svg.fitzgerald:PICTURE",
    view="diamonds.cli.views.fitzgerald:VIEW",
)

KIRK = Family(
    name="kirk",
    title="Alan Kirk's four-player Diamonds",
    rule_sets=(Kirk,),
    bridge="diamonds.replay.kirk:BRIDGE",
    export="diamonds.replay.kirk_export:EXPORT",
    steps="diamonds.replay.kirk_steps:build_steps",
    tables="diamonds.replay.kirk_tables:TABLES",
    stats="diamonds.replay.kirk_stats:STATS",
    picture="diamonds.svg.kirk:PICTURE",
    view="diamonds.cli.views.kirk:VIEW",
)

BIDDING = Family(
    name="bidding",
    title="Three-handed bidding Diamonds",
    rule_sets=(Bidding,),
    bridge="diamonds.replay.bidding:BRIDGE",
    export="diamonds.replay.bidding_export:EXPORT",
    steps="diamonds.replay.bidding_steps:build_steps",
    tables="diamonds.replay.bidding_tables:TABLES",
    stats="diamonds.replay.bidding_stats:STATS",
    picture="diamonds.svg.bidding:PICTURE",
    view="diamonds.cli.views.bidding:VIEW",
)

FAMILIES: tuple[Family, ...] = (FITZGERALD, KIRK, BIDDING)

RULE_SETS: dict[str, type[Rules]] = {rules.id: rules for family in FAMILIES for rules in family.rule_sets}
_FAMILY_OF: dict[str, Family] = {rules.id: family for family in FAMILIES for rules in family.rule_sets}

#: What a game without a Rules tag plays (DGN).
DEFAULT_RULES = "2e"


def rules_for(rule_id: str) -> type[Rules]:
    """The rule set a `Rules` tag names; `ConfigError` for one the engine does not know."""
    try:
        return RULE_SETS[rule_id]
    except KeyError:
        known = ", ".join(RULE_SETS)
        raise ConfigError(f"unknown rule set {rule_id!r} (known: {known})", tag="Rules") from None


def family_of(rule_id: str) -> Family:
    rules_for(rule_id)
    return _FAMILY_OF[rule_id]


def family_named(name: str) -> Family:
    """The family registered as `name` (fitzgerald, kirk, bidding)."""
    for family in FAMILIES:
        if family.name == name:
            return family
    raise KeyError(f"no family named {name!r}")


def option_tags() -> frozenset[str]:
    """Tags some rule set gives a meaning to (e.g. Hands): in a game whose rules do not, an error."""
    return _OPTION_TAGS


_OPTION_TAGS = frozenset(tag for rules in RULE_SETS.values() for tag in rules.option_tags)
