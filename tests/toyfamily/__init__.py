"""The toy trick game (rulings T1-T7): a whole family in one folder, living only in tests/.

It is registered the way a separately installed game would be (entry-point
group `diamonds.families`, `toy = toyfamily:FAMILY`; see
tests/families/toy/test_toy_family.py), and must get every generic command
and the conformance suite from that registration alone. Its parts share modules
(`parts=` below); it has no bots and no figures of its own for `stats`: optional parts.
"""

from diamonds.core.family import Family

from .rules import Toy

__all__ = ["FAMILY"]

FAMILY = Family(name="toy", title="The toy trick game", rule_sets=(Toy,), package=__name__, parts={
    "bridge": "bridge:BRIDGE", "steps": "steps:build_steps", "marks": "steps:MARKS", "picture": "steps:PICTURE",
    "view": "steps:VIEW", "export": "export:EXPORT", "tables": "export:TABLES", "invariants": "rules:INVARIANTS",
    "words": "bridge:WORDS"})
