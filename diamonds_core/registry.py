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

import os
import re
import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple

from .family import Family, Rules
from .seating import ConfigError

__all__ = [
    "FAMILIES", "RULE_SETS", "DEFAULT_RULES", "ENTRY_POINT_GROUP", "families", "register", "rules_for", "family_of",
    "family_named", "option_tags", "registry_version", "RegistrationError",
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

    __slots__ = ("families", "family_of_rules", "option_tags", "discovered", "version")

    def __init__(self) -> None:
        self.families: list[Family] = []
        self.family_of_rules: dict[str, Family] = {}  # each Rules tag value, and the family that plays it
        self.option_tags: frozenset[str] = frozenset()
        self.discovered = False
        self.version = 0  # one more with each family added

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
        self.version += 1

    def discover(self) -> None:
        if self.discovered:
            return
        self.discovered = True
        found: dict[str, EntryPoint] = {}
        for point in entry_points(ENTRY_POINT_GROUP):
            found.setdefault(point.name, point)  # one distribution per name: the first on the path
        for name in sorted(found, key=_builtin_first):
            family = found[name].load()
            if not any(known is family for known in self.families):
                self.add(family)


class EntryPoint(NamedTuple):
    """One `name = module:attribute` line of a distribution's entry_points.txt."""

    name: str
    value: str

    def load(self) -> Any:
        module, _, attribute = self.value.partition(":")
        found: Any = import_module(module.strip())
        for part in attribute.split("[")[0].strip().split(".") if attribute else ():
            found = getattr(found, part)
        return found


def entry_points(group: str) -> list[EntryPoint]:
    """The group's entry points, as `importlib.metadata.entry_points(group=...)` lists them.

    Read straight from the installed distributions' `entry_points.txt` where every
    path entry is a plain folder: importing `importlib.metadata` (email, zipfile,
    csv...) costs more than the rest of a one-game `validate`'s imports put
    together. Anything else (a zip on the path, a finder with distributions of its
    own) is left to the standard library.
    """
    points = _scan_folders(group)
    if points is None:
        from importlib import metadata

        points = [EntryPoint(point.name, point.value) for point in metadata.entry_points(group=group)]
    return points


def _scan_folders(group: str) -> list[EntryPoint] | None:
    """`entry_points` by reading the path's folders; None where that would not be the whole answer."""
    from importlib.machinery import PathFinder

    if any(hasattr(finder, "find_distributions") and finder is not PathFinder for finder in sys.meta_path):
        return None
    seen: set[str] = set()
    points: list[EntryPoint] = []
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except NotADirectoryError:
            return None  # a zip archive, which the standard library reads
        except OSError:
            continue  # a path entry that does not exist finds nothing
        for name in names:
            stem, dot, suffix = name.rpartition(".")
            if not dot or suffix not in ("dist-info", "egg-info"):
                continue
            distribution = _normalized(stem.partition("-")[0])
            if distribution in seen:
                continue  # the first distribution of a name on the path shadows the others
            seen.add(distribution)
            try:
                with open(os.path.join(entry or ".", name, "entry_points.txt"), encoding="utf-8") as stream:
                    text = stream.read()
            except OSError:
                continue  # none, or a one-file egg-info: no entry points
            points.extend(_group_lines(text, group))
    return points


def _normalized(name: str) -> str:
    """A distribution's name compared as packaging does (PEP 503: case and runs of -_. do not count)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _group_lines(text: str, group: str) -> list[EntryPoint]:
    """The `name = value` lines of one section of an entry_points.txt (an INI file)."""
    points = []
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, _, value = line.partition("=")
            points.append(EntryPoint(name.strip(), value.strip()))
    return points


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


def registry_version() -> tuple[object, int]:
    """Changes whenever what is registered changes (a family added, the registry replaced): what is
    built from the registry and kept is kept with this, and rebuilt when it differs."""
    _REGISTRY.discover()
    return (_REGISTRY, _REGISTRY.version)


def __getattr__(name: str) -> Any:
    """`FAMILIES` and `RULE_SETS`, computed on first use (PEP 562), so that importing finds nothing yet."""
    if name == "FAMILIES":
        return families()
    if name == "RULE_SETS":
        _REGISTRY.discover()
        return {rule_id: family.rule_set(rule_id) for rule_id, family in _REGISTRY.family_of_rules.items()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
