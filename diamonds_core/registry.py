"""The registry: every family the engine plays, as the families registered themselves.

A family registers itself in the entry-point group `diamonds.families` (the
way a Pygments lexer does), so a separately installed distribution can add a
game: `kirk = "diamonds.families.kirk:FAMILY"`. `register()` adds one in this
process (tests, notebooks). The generic layers ask here, by a game's `Rules`
tag, and never name a family themselves; the registry holds no path into any
other layer.

Discovery is lazy: importing `diamonds.core` finds nothing, the first question
does, so a family's package may import `diamonds.core` freely.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from .family import Family, Rules
from .seating import ConfigError

__all__ = [
    "FAMILIES", "RULE_SETS", "DEFAULT_RULES", "ENTRY_POINT_GROUP", "families", "register", "rules_for", "family_of",
    "family_named", "option_tags", "RegistrationError",
]

if TYPE_CHECKING:  # found on first use by __getattr__ below
    FAMILIES: tuple[Family, ...]
    RULE_SETS: dict[str, type[Rules]]

#: The entry-point group in which a family registers itself (value: "package:FAMILY").
ENTRY_POINT_GROUP = "diamonds.families"

#: What a game without a Rules tag plays: DGN's default for the `Rules` tag.
DEFAULT_RULES = "2e"


class RegistrationError(Exception):
    """A registration that cannot stand (a clash of names or rule ids, or not a `Family`)."""

    def __init__(self, message: str, *, name: str) -> None:
        super().__init__(message)
        self.name = name


class _Registry:
    """The families found, in registration order, and the indexes over them."""

    __slots__ = ("families", "family_of_rules", "option_tags", "discovered")

    def __init__(self) -> None:
        self.families: list[Family] = []
        self.family_of_rules: dict[str, Family] = {}  # each Rules tag value, and the family that plays it
        self.option_tags: frozenset[str] = frozenset()
        self.discovered = False

    def add(self, family: Family) -> None:
        if not isinstance(family, Family):
            raise RegistrationError(f"{family!r} is not a diamonds.core.Family", name=repr(family))
        if any(known.name == family.name for known in self.families):
            raise RegistrationError(f"a family named {family.name!r} is registered already", name=family.name)
        clash = [rule_id for rule_id in family.rule_ids if rule_id in self.family_of_rules]
        if clash:
            raise RegistrationError(f"the {family.name} family's rule sets {', '.join(clash)} are registered already",
                                    name=family.name)
        self.families.append(family)
        for rule_id in family.rule_ids:
            self.family_of_rules[rule_id] = family
        self.option_tags = self.option_tags | family.option_tags

    def discover(self) -> None:
        if self.discovered:
            return
        self.discovered = True
        found: dict[str, Any] = {}
        for point in entry_points(group=ENTRY_POINT_GROUP):
            found.setdefault(point.name, point)  # one distribution per name: the first on the path
        for name in sorted(found, key=_builtin_first):
            family = found[name].load()
            if not any(known is family for known in self.families):
                self.add(family)


def _builtin_first(name: str) -> tuple[int, str]:
    """The three games of this distribution first, in the order the project has always listed them."""
    order = ("fitzgerald", "kirk", "bidding")
    return (order.index(name), "") if name in order else (len(order), name)


_REGISTRY = _Registry()


def families() -> tuple[Family, ...]:
    """Every registered family, in registration order."""
    _REGISTRY.discover()
    return tuple(_REGISTRY.families)


def register(family: Family) -> Family:
    """Add a family in this process (besides those registered through entry points); returns it."""
    _REGISTRY.discover()
    _REGISTRY.add(family)
    return family


def rules_for(rule_id: str) -> type[Rules]:
    """The rule set a `Rules` tag names; `ConfigError` for one the engine does not know."""
    _REGISTRY.discover()
    try:
        family = _REGISTRY.family_of_rules[rule_id]
    except KeyError:
        known = ", ".join(_REGISTRY.family_of_rules)
        raise ConfigError(f"unknown rule set {rule_id!r} (known: {known})", tag="Rules") from None
    return family.rule_set(rule_id)


def family_of(rule_id: str) -> Family:
    """The family that plays `rule_id`, without importing its engine; `ConfigError` for one none plays."""
    _REGISTRY.discover()
    try:
        return _REGISTRY.family_of_rules[rule_id]
    except KeyError:
        rules_for(rule_id)  # raises the ConfigError
        raise


def family_named(name: str) -> Family:
    """The family registered as `name` (fitzgerald, kirk, bidding, or a plug-in's)."""
    for family in families():
        if family.name == name:
            return family
    raise KeyError(f"no family named {name!r}")


def option_tags() -> frozenset[str]:
    """Tags some rule set gives a meaning to (e.g. Hands): in a game whose rules do not, an error."""
    _REGISTRY.discover()
    return _REGISTRY.option_tags


def __getattr__(name: str) -> Any:
    """`FAMILIES` and `RULE_SETS`, computed on first use (PEP 562), so that importing finds nothing yet."""
    if name == "FAMILIES":
        return families()
    if name == "RULE_SETS":
        _REGISTRY.discover()
        return {rule_id: family.rule_set(rule_id) for rule_id, family in _REGISTRY.family_of_rules.items()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
